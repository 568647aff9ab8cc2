//go:build !devtools

package compare

// traceOn: tracing is built only with the devtools tag (trace_devtools.go).
const traceOn = false
