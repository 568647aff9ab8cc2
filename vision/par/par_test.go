package par

import (
	"runtime"
	"sync"
	"testing"
)

// TestRowsCoversEveryRowOnce: small and large images, on one CPU and on
// several, have every row passed to fn exactly once, in bands on several
// CPUs when the image is large.
func TestRowsCoversEveryRowOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		for _, sz := range [][2]int{{0, 10}, {7, 10}, {1001, 700}, {513, 1024}} {
			h, w := sz[0], sz[1]
			seen := make([]int, h)
			var mu sync.Mutex
			bands := 0
			Rows(h, w, func(y0, y1 int) {
				mu.Lock()
				defer mu.Unlock()
				bands++
				for y := y0; y < y1; y++ {
					seen[y]++
				}
			})
			for y, n := range seen {
				if n != 1 {
					t.Fatalf("%d CPUs, %d×%d: row %d passed %d times", procs, w, h, y, n)
				}
			}
			if want := h*w >= 1<<18 && procs > 1; (bands > 1) != want {
				t.Errorf("%d CPUs, %d×%d: %d bands", procs, w, h, bands)
			}
		}
	}
}
