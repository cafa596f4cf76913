//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package main

import "os"

// terminal reports whether f is a terminal, here as well as the file mode
// tells: a character device.
func terminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
