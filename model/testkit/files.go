package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// WriteFiles writes files below dir, creating directories: each key is a
// slash-separated path relative to dir, each value the file's content.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}

// Symlinks makes symbolic links below dir: each key is the link's
// slash-separated path relative to dir, each value its target as written
// (relative to the link's directory, or absolute). The test is skipped
// where links cannot be made.
func Symlinks(t testing.TB, dir string, links map[string]string) {
	t.Helper()
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
}

// CaseDirs returns the directories right below root that hold a file named
// marker, in name order: the cases of a corpus laid out one directory a
// case. Dot directories are passed over; t fails when there is no case.
func CaseDirs(t testing.TB, root, marker string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, e.Name(), marker)); err == nil {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	require.NotEmpty(t, dirs, "no cases in %s", root)
	return dirs
}
