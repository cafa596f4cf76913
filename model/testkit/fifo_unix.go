//go:build unix

package testkit

import "syscall"

// Mkfifo makes a named pipe at path, for tests of what v4t does with one.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
