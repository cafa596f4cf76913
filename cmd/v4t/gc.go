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
// templates do: the peak measured at the benchmark families' largest
// seeds is 12 to 45 times the input (ring 13, wide 42), and collecting
// with the default pacing lowers ring 10,000's only from 160 to 157 MiB,
// since nearly all of it is alive, for two thirds more CPU (0.55 s to
// 0.93 s user time, median of 5 on 2 cores).
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

// batchRunsGC tunes the garbage collector for v4t batch, unless GOGC or
// GOMEMLIMIT says otherwise. A batch is many short resolves, each of which
// leaves almost nothing alive, so with the default pacing (GOGC=100, a heap
// goal of twice the little that is alive) it collects every few runs: 80
// times in the 200 runs of testdata/batch/motivation.yaml, 11 times at
// GOGC=400, whose runs take 40% less CPU each. Those collections are what
// -j gives away: while a core is idle their work runs beside the workers,
// with every core busy it competes with the runs. batchGC's policy
// (collection off up to a memory limit) does not suit a batch: every run
// gets fresh memory from the kernel, 3.5 to 4 times the page faults and 2
// to 3.5 times the system time of GOGC=400, and 4 times its resident
// memory. So collection stays on at 400 (its heap goal scales with what
// the runs in flight keep alive, and so with -j), and a memory limit of
// half the machine (at least 1 GiB) makes it collect harder before a batch
// of large templates takes more than that.
func batchRunsGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(400)
	if total := physicalMemory(); total > 0 {
		debug.SetMemoryLimit(max(total/2, 1<<30))
	}
}
