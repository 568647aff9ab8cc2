// Package par runs per-row image passes on all CPUs.
package par

import (
	"runtime"
	"sync"
)

// Rows splits rows [0,h) of a w-pixel-wide image into bands, one per CPU,
// and runs fn on them at once, when the work (h·w) is big enough to be
// worth it; otherwise fn(0, h). fn must only write rows of its own band.
func Rows(h, w int, fn func(y0, y1 int)) {
	n := runtime.GOMAXPROCS(0)
	if n == 1 || h*w < 1<<18 {
		fn(0, h)
		return
	}
	var wg sync.WaitGroup
	band := (h + n - 1) / n
	for y0 := 0; y0 < h; y0 += band {
		wg.Add(1)
		go func(y0, y1 int) {
			defer wg.Done()
			fn(y0, y1)
		}(y0, min(h, y0+band))
	}
	wg.Wait()
}
