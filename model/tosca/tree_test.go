package tosca

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRealPath checks that RealPath resolves the links of the part of a
// path that exists and keeps the rest as written.
func TestRealPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	tests := []struct{ path, want string }{
		{filepath.Join(dir, "link"), filepath.Join(dir, "real")},
		{filepath.Join(dir, "link", "sub", "x.yaml"), filepath.Join(dir, "real", "sub", "x.yaml")},
		{filepath.Join(dir, "link", "new", "x.yaml"), filepath.Join(dir, "real", "new", "x.yaml")},
		{filepath.Join(dir, "real", "sub"), filepath.Join(dir, "real", "sub")},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, RealPath(tc.path), "real path of %s", tc.path)
	}
	tree := NewTree(filepath.Join(dir, "link"))
	out, link := tree.Outside(filepath.Join(dir, "link", "sub", "x.yaml"))
	require.False(t, out, "a file below a linked tree is inside it")
	require.False(t, link)
	out, link = tree.Outside(filepath.Join(dir, "other.yaml"))
	require.True(t, out, "a file beside the tree is outside it")
	require.False(t, link, "and no link takes it out")
}
