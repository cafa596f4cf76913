//go:build !unix

package batch

// processCPU is unknown here.
func processCPU() (seconds, faults float64) { return 0, 0 }
