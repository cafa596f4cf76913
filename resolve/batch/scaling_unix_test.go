//go:build unix

package batch

import "syscall"

// processCPU is the process's user+system CPU time in seconds and its
// number of minor page faults.
func processCPU() (seconds, faults float64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, float64(ru.Minflt)
}
