package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"v4t/resolve/batch"
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
// seeds is 7 to 33 times the input (ring 8, pruning 20, wide 33), and
// collecting lowers little, since nearly all of it is alive: at a memory
// limit of 80 MiB, ring 10,000 peaks at 92 MiB instead of 95 MiB with
// collection off, and takes 0.61 s instead of 0.47 s (2 cores, median of
// 3).
func batchGC(templatePath string) {
	fi, err := os.Stat(templatePath)
	if err != nil {
		return // the resolve reports it
	}
	if limit := collectionOff(fi.Size()); limit > 0 && fi.Size() >= prefaultMin {
		go prefault(limit, fi.Size(), func() int { return fileLines(templatePath) })
	}
}

// batchGCData is batchGC for a template read from standard input.
func batchGCData(data []byte) {
	size := int64(len(data))
	if limit := collectionOff(size); limit > 0 && size >= prefaultMin {
		go prefault(limit, size, func() int { return bytes.Count(data, []byte{'\n'}) })
	}
}

// validateGC is batchGC for v4t validate, without the prefault: validation
// keeps what it allocates too, but allocates less after the parse than a
// resolve, so the block's pages would partly stay unused (ring 10,000:
// peak 120 MiB without it, 122 to 130 MiB with it, the time the same).
// size is the template's size where it was read from standard input, else
// -1.
func validateGC(path string, size int64) {
	if size < 0 {
		fi, err := os.Stat(path)
		if err != nil {
			return // validation reports it
		}
		size = fi.Size()
	}
	collectionOff(size)
}

// collectionOff turns collection off with the memory limit for a template
// of size bytes and returns the limit; 0 where GOGC or GOMEMLIMIT is set.
func collectionOff(size int64) int64 {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	const minLimit = 1 << 30
	limit := max(64*size, minLimit)
	if total := physicalMemory(); total > 0 && limit > total/2 {
		limit = max(total/2, minLimit)
	}
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	return limit
}

// Fresh memory costs a page fault per page on first touch, and with
// collection off every allocation of a resolve is fresh memory: about
// 30,000 faults at ring 10,000 (12 MiB), all of them taken by the
// goroutine doing the work. prefault takes most of them on another core
// while the template is parsed: it touches a block and collects it, so
// that the heap hands out those pages again (the runtime then clears them
// itself, which the kernel did on the fault, so the gain is the fault's
// own cost). The block is at most what a resolve allocates after the
// parse: what the parse allocated before the block was freed comes on top
// of it, so a larger block raises the peak. After the parse, the ring
// allocates about 160 bytes per line, 3.8 times the file (pruning and
// wide more): the block is the smaller of prefaultPerLine bytes per line
// and prefaultFactor times the file, since a template of long lines
// (large strings, JSON on one line) allocates less per line than the
// ring, and one of short lines less per byte. Ring 10,000 on 2
// cores, 5 alternating runs: median wall 0.44 s with the block, 0.53 s
// with GOGC=off, peak 102 MB either way; the block of 240 bytes per line
// used before raised the peak to 118 to 135 MB once the resolve allocated
// less. Small templates do not pay for it.
const (
	prefaultFactor  = 4
	prefaultPerLine = 150
	prefaultMin     = 1 << 20
)

// prefault touches and frees prefaultSize bytes.
func prefault(limit, size int64, lines func() int) {
	n := prefaultSize(limit, size, lines())
	if n == 0 {
		return
	}
	b := make([]byte, n)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	runtime.GC()
}

// prefaultSize is the block prefault touches for a template of size bytes
// and lines line breaks under the memory limit: 0 below prefaultMin.
func prefaultSize(limit, size int64, lines int) int64 {
	n := min(prefaultPerLine*int64(lines), prefaultFactor*size, limit/2)
	if n < prefaultMin {
		return 0
	}
	return n
}

// fileLines counts the line breaks of a file; 0 where it cannot be read
// (the resolve reports that).
func fileLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err != nil {
			return n
		}
	}
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
func batchRunsGC(runs, jobs int, largest int64) {
	if runs >= hugeMinRuns {
		go reserveHugePages(hugeBlock(jobs, largest, physicalMemory()))
	}
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(400)
	if total := physicalMemory(); total > 0 {
		debug.SetMemoryLimit(max(total/2, 1<<30))
	}
}

// A batch's runs take their memory fresh from the kernel, a page fault per
// 4 KiB page on first touch: on a 2-core virtual machine the 200 runs of
// testdata/batch/motivation.yaml took 5,500 faults and a fifth of their
// CPU time in the kernel, and at -j 2 the two workers' faults contend in
// the one address space (the generated space of benchmarks/scaling.sh:
// 12,000 faults at -j 1, 17,000 to 27,000 and twice the system time at
// -j 2). Transparent huge pages serve a fault with 2 MiB, but where the
// machine gives them only to memory that asks (enabled = madvise, as on
// Ubuntu and Debian), Go's heap does not ask. reserveHugePages has it ask
// for a block of address space that the heap then grows into: it
// allocates the block (the runtime maps it, untouched), advises huge
// pages for it and frees it, returning its pages to the kernel
// (debug.FreeOSMemory), so that the runs' allocations reuse those
// addresses, faulting 2 MiB at a time, and the runtime need not clear
// what the kernel cleared. Motivation space, three alternations of 10
// runs: faults 5,500 to 1,700-2,100, system time -30%, CPU per batch -5%
// at -j 1 and -14% at -j 2; generated space: faults 3,000 to 6,000 at
// either -j, system time -45% at -j 2; the 256-run space of
// benchmarks/scaling.sh: -12% wall at -j 1 and -j 2 (hugeBlock).
//
// It runs beside the batch's start (reading the space, loading the first
// template), on a core of its own at -j 1; it costs about 2 ms there
// (the collection and the scavenging), which a batch of a few short runs
// would pay for, hence hugeMinRuns. GODEBUG=disablethp=1, the runtime's
// own switch against huge pages for its heap, turns it off. The price is
// memory: a huge page is resident whole once touched, so the peak grows
// (motivation space at -j 2: 29 to 53 MiB).
const hugeMinRuns = 16

// hugeBlock is the block reserveHugePages asks for, the heap that jobs
// runs of templates of at most largest bytes grow at GOGC=400: per job 150
// times the largest template (a run allocates up to 30 times its
// template, and the heap grows to five times what is alive before a
// collection), at least 64 MiB and at most 512 MiB; in all at most 4 GiB
// and an eighth of the machine's memory (total, 0 if unknown). Mapping the
// block and handing it back takes about 1.5 ms at 64 MiB and 2 ms at
// 640 MiB: too small a block is what costs, since the heap grows past it
// in 4 KiB faults (the 256-run space of benchmarks/scaling.sh at -j 2:
// 95,000 faults with 128 MiB, 12,000 with the 600 MiB of this rule).
func hugeBlock(jobs int, largest, total int64) int64 {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	per := min(max(150*largest, 64<<20), 512<<20)
	n := min(int64(jobs)*per, 4<<30)
	if total > 0 {
		n = min(n, total/8)
	}
	return n
}

// largestTemplate is the size of the largest template file of runs, 0
// where none can be read (the runs report that).
func largestTemplate(runs []*batch.Run) int64 {
	seen := map[string]bool{}
	var n int64
	for _, r := range runs {
		p := r.Input.TemplatePath
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			n = max(n, fi.Size())
		}
	}
	return n
}

// reserveHugePages advises huge pages for n bytes of heap address space
// that the heap then grows into (batchRunsGC), where the machine gives
// huge pages to memory that asks for them.
//
// It leaves the heap alone where GOMEMLIMIT bounds it (the block would
// count against the limit until handed back) and where the kernel
// commits memory strictly (vm.overcommit_memory = 2), since mapping the
// block counts against the commit limit and a heap that cannot grow
// ends the process.
func reserveHugePages(n int64) {
	if n <= 0 || os.Getenv("GOMEMLIMIT") != "" || !hugePagesOnRequest() || strictOvercommit() ||
		slices.Contains(strings.Split(os.Getenv("GODEBUG"), ","), "disablethp=1") {
		return
	}
	b := make([]byte, n)
	adviseHugePages(b)
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
}
