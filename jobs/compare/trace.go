package compare

// With the devtools build tag, PLANGRAPH_COMPARE_TRACE=1 prints, to stderr,
// when each step of a compare job's children starts and ends and how long
// its parts took (wall and the process's CPU), to see where a comparison
// spends its time (trace_devtools.go). Without it traceOn is a false
// constant and every trace call compiles to nothing.

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

var traceMu sync.Mutex

// processCPU is the process's user+system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func tracef(step, format string, args ...any) {
	if !traceOn {
		return
	}
	traceMu.Lock()
	defer traceMu.Unlock()
	fmt.Fprintf(os.Stderr, "trace %s cpu %.2f %s: %s\n", time.Now().UTC().Format("15:04:05.000"),
		processCPU().Seconds(), step, fmt.Sprintf(format, args...))
}

// laps returns a function that traces the time since its last call under
// step.
func laps(step string) func(part string) {
	last := time.Now()
	return func(part string) {
		if !traceOn {
			return
		}
		now := time.Now()
		tracef(step, "%s %.0f ms", part, now.Sub(last).Seconds()*1000)
		last = now
	}
}
