package main

import (
	"os"
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

// limitOpenMP re-executes the process with OMP_THREAD_LIMIT set when the
// environment does not set it: libgomp reads it once, as it is loaded, so
// setting it later in the process has no effect. It returns (and the
// process goes on as it is) when the variable is set or the re-exec fails.
func limitOpenMP() {
	if _, set := os.LookupEnv("OMP_THREAD_LIMIT"); set {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := append(os.Environ(), "OMP_THREAD_LIMIT="+ompThreadLimit)
	_ = syscall.Exec(exe, os.Args, env) // returns only on failure
}
