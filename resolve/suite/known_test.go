package suite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func result(path string, pass bool) Result {
	return Result{Case: Case{Path: path}, Outcome: Outcome{Pass: pass}}
}

func TestKnownFailuresRoundTrip(t *testing.T) {
	results := []Result{result("v/b", false), result("v/a", false), result("v/c", true)}
	var b strings.Builder
	require.NoError(t, WriteKnownFailures(&b, results))
	require.True(t, strings.HasPrefix(b.String(), KnownFailuresHeader), "header")
	require.True(t, strings.HasSuffix(b.String(), "\nv/a\nv/b\n"), "sorted paths, got %q", b.String())
	known, err := ReadKnownFailures(strings.NewReader(b.String()))
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"v/a": true, "v/b": true}, known)
}

func TestReadKnownFailures(t *testing.T) {
	known, err := ReadKnownFailures(strings.NewReader("# c\n\n  v/x  \n#v/y\nv/z\r\n"))
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"v/x": true, "v/z": true}, known)
}

func TestRatchet(t *testing.T) {
	results := []Result{result("v/fail-known", false), result("v/fail-new", false), result("v/pass-known", true), result("v/pass", true)}
	known := map[string]bool{"v/fail-known": true, "v/pass-known": true, "v/elsewhere": true}
	fails, passes := Ratchet(results, known)
	require.Equal(t, []string{"v/fail-new"}, fails)
	require.Equal(t, []string{"v/pass-known"}, passes)
}
