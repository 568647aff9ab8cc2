package main

import (
	"os"
	"slices"
	"strings"
	"syscall"
)

// ompThreadLimit is the OpenMP thread limit the process runs Tesseract
// with unless the environment sets one. Tesseract (vision/ocr, in process)
// parallelises its recognition with OpenMP, whose idle threads spin; the
// service already runs pages and jobs side by side, so the extra threads
// only burn the cores: on lamb's 11 OCR'd sheets (2 cores, busy) ingestion
// took 24.1 s wall and 27.7 s CPU with OpenMP's default, 19.9 s and 19.5 s
// with one thread (BENCHMARKS.md). This is what Tesseract's own
// documentation advises for a caller that runs several recognitions at once.
const ompThreadLimit = "1"

// lazyFree is the GODEBUG setting the process runs with unless GODEBUG
// names madvdontneed: the Go heap gives the pages it frees back to the
// kernel with MADV_FREE (taken back only under memory pressure) instead of
// MADV_DONTNEED (unmapped at once). The engines allocate and drop images of
// tens of megabytes per page or block pair, and a page touched again after
// MADV_DONTNEED faults in afresh: on the 2-core VM of BENCHMARKS.md about
// 12 µs a 4 KiB page, 0.14 s for a 44-megapixel block's image, most of a
// compare's system time. Peak RSS is unchanged; an idle process's RSS
// stays near its peak until the kernel needs the pages.
const lazyFree = "madvdontneed=0"

// tuneEnv re-executes the process with OMP_THREAD_LIMIT and GODEBUG's
// madvdontneed set when the environment does not set them: libgomp reads
// the one once, as it is loaded, and the Go runtime the other at start, so
// setting them later in the process has no effect. It returns (and the
// process goes on as it is) when both are set or the re-exec fails.
func tuneEnv() {
	env := os.Environ()
	changed := false
	if _, set := os.LookupEnv("OMP_THREAD_LIMIT"); !set {
		env, changed = append(env, "OMP_THREAD_LIMIT="+ompThreadLimit), true
	}
	if godebug := os.Getenv("GODEBUG"); !strings.Contains(godebug, "madvdontneed=") {
		if godebug != "" {
			godebug += ","
		}
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") })
		env, changed = append(env, "GODEBUG="+godebug+lazyFree), true
	}
	if !changed {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	_ = syscall.Exec(exe, os.Args, env) // returns only on failure
}
