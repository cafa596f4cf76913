package main

import (
	"os"
	"runtime/debug"
)

// batchGC tunes the garbage collector for one resolve of a template of
// the given size, unless GOGC or GOMEMLIMIT says otherwise.
//
// Resolving keeps most of what it allocates alive until the output is
// written (the document, the element graph, the formula), so collections
// during the run find little garbage, and with the default pacing their
// cost depends on where the growing heap happens to cross the doubling
// thresholds: up to a quarter of the run at large seeds, and not in
// proportion to the input. Collection is therefore off, and a memory limit
// of 64 times the input (at least 1 GiB, at most half the machine's
// memory) turns it back on should a template need far more memory than
// templates do: the heap measured at every benchmark seed stays below 30
// times the input.
func batchGC(templatePath string) {
	fi, err := os.Stat(templatePath)
	if err != nil {
		return // the resolve reports it
	}
	batchGCSize(fi.Size())
}

// batchGCSize is batchGC for a template of size bytes, such as one read
// from standard input.
func batchGCSize(size int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	const minLimit = 1 << 30
	limit := max(64*size, minLimit)
	if total := physicalMemory(); total > 0 && limit > total/2 {
		limit = max(total/2, minLimit)
	}
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
}
