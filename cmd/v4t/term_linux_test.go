package main

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestTerminal checks the terminal test on a pseudo-terminal (a
// terminal), /dev/null (a character device that is not one) and a file.
func TestTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	require.False(t, terminal(null), "%s", os.DevNull)
	f, err := os.Create(t.TempDir() + "/file")
	require.NoError(t, err)
	defer f.Close()
	require.False(t, terminal(f), "a file")

	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("cannot unlock the pseudo-terminal: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("no pseudo-terminal number: %v", e)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	defer pts.Close()
	require.True(t, terminal(pts), "a pseudo-terminal")
	require.True(t, isTerminal(pts), "a pseudo-terminal")
	p := startBatchProgress(pts, 3)
	require.True(t, p.bar, "a bar on a terminal")
	p.finish()
}
