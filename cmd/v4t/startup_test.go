package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStartupInit holds the initialisation of v4t's own packages small:
// every v4t process pays for it before it reads a flag, and resolving a
// small template takes a few milliseconds in all. Regular expressions and
// tables that only some commands use are made on first use (the dozen
// expressions of completion, compiled at start-up, took 170 KB and 0.6 ms
// of every process).
func TestStartupInit(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "version")
	cmd.Env = append(os.Environ(), asMainEnv+"=1", "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	total, packages := 0, 0
	for _, line := range strings.Split(string(out), "\n") {
		// init v4t/model/validate @3.1 ms, 0.18 ms clock, 40696 bytes, 296 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || !strings.HasPrefix(f[1], "v4t/") || f[8] != "bytes," {
			continue
		}
		bytes, err := strconv.Atoi(f[7])
		require.NoError(t, err, line)
		require.Less(t, bytes, 64<<10, "one package's initialisation: %s", line)
		total += bytes
		packages++
	}
	require.Greater(t, packages, 5, "inittrace lines of v4t's packages in:\n%s", out)
	require.Less(t, total, 128<<10, "bytes allocated by the initialisation of v4t's packages")
}
