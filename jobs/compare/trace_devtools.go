//go:build devtools

package compare

import (
	"os"
	"time"

	engine "github.com/plangraph/plangraph/vision/compare"
)

var traceOn = os.Getenv("PLANGRAPH_COMPARE_TRACE") != ""

func init() {
	if traceOn {
		engine.SetTrace(func(stage string, d time.Duration) {
			tracef("engine", "%s %.0f ms", stage, d.Seconds()*1000)
		})
	}
}
