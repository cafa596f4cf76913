package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReserveHugePages: where the kernel gives huge pages on request, the
// reserved block stays in the address space with the advice on it after
// its pages went back to the kernel, for the heap to grow into; with
// GODEBUG=disablethp=1 or GOMEMLIMIT set nothing is advised.
func TestReserveHugePages(t *testing.T) {
	if !hugePagesOnRequest() {
		t.Skip("transparent huge pages are not given on request (madvise) on this machine")
	}
	if strictOvercommit() {
		t.Skip("the kernel commits memory strictly (vm.overcommit_memory = 2) on this machine")
	}
	t.Setenv("GODEBUG", "disablethp=1")
	before := advisedBytes(t)
	reserveHugePages(64 << 20)
	require.Equal(t, before, advisedBytes(t), "GODEBUG=disablethp=1 must turn it off")
	t.Setenv("GODEBUG", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	reserveHugePages(64 << 20)
	require.Equal(t, before, advisedBytes(t), "GOMEMLIMIT must turn it off")
	t.Setenv("GOMEMLIMIT", "")
	reserveHugePages(64 << 20)
	require.GreaterOrEqual(t, advisedBytes(t)-before, int64(64<<20), "the block is advised")
}

// advisedBytes is the size of the process's mappings advised for huge
// pages (VmFlags hg in /proc/self/smaps).
func advisedBytes(t *testing.T) int64 {
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	var total, size int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "Size:"); ok {
			var kb int64
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")) {
				kb = kb*10 + int64(c-'0')
			}
			size = kb << 10
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && strings.Contains(" "+rest+" ", " hg ") {
			total += size
		}
	}
	require.NoError(t, sc.Err())
	return total
}
