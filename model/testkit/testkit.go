// Package testkit is test support shared by the packages' tests: the one
// switch that rewrites expectations (-update or V4T_UPDATE=1), golden-file
// comparison, a small reader and writer for txtar archives, the format
// of the CLI script tests (style.md §5.2, §5.4), trees of files and
// links written for a test (WriteFiles, Symlinks), and the TosKer
// templates of the completion tests (ToskerHeader, HostFilterNode).
//
// Only _test.go files import this package.
package testkit

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// update is the -update flag of every test binary that links testkit. It is
// the only place that defines it: a second definition would panic.
var update = flag.Bool("update", false, "rewrite golden files and CLI scripts with the actual results (or set V4T_UPDATE=1)")

// Update reports whether expectations are to be rewritten: with the -update
// test flag, or with V4T_UPDATE=1 in the environment. The environment variable
// works with `go test ./...`, where packages without the flag would reject
// -update.
func Update() bool {
	return (update != nil && *update) || os.Getenv("V4T_UPDATE") == "1"
}

// Normalize turns CRLF line endings into LF and ends non-empty text with
// exactly one newline, so that goldens compare equal across editors.
func Normalize(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	b = bytes.TrimRight(b, "\n")
	if len(b) == 0 {
		return []byte{}
	}
	return append(b, '\n')
}

// Golden compares got with the golden file at path after normalising both;
// on mismatch it fails the test with a diff. In update mode it rewrites the
// file instead (creating its directory). Review every rewritten golden.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	got = Normalize(got)
	if Update() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755), "golden %s", path)
		require.NoError(t, os.WriteFile(path, got, 0o644), "golden %s", path)
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden %s (run with V4T_UPDATE=1 to create it)", path)
	require.Equal(t, string(Normalize(want)), string(got), "golden %s differs (run with V4T_UPDATE=1 to rewrite it)", path)
}
