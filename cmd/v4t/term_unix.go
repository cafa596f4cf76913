//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// terminal reports whether f is a terminal: whether it answers the ioctl
// that reads a terminal's settings. A character device is not enough:
// /dev/null is one, and a progress bar redrawn after every run of a batch
// (with 2>/dev/null, as benchmarks/scaling.sh runs it) cost a write under
// the batch's lock per run.
func terminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), termGet, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
