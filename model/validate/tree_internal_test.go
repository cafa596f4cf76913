package validate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadFile checks the bounded reads of ReadFile and ReadNamedFile,
// with the limit lowered to 1 KiB.
func TestReadFile(t *testing.T) {
	defer func(m int64) { maxRead = m }(maxRead)
	maxRead = 1 << 10
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	require.NoError(t, os.WriteFile(small, []byte("a: 1\n"), 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("x", 1<<10+1)), 0o644))
	tests := []struct {
		name  string
		path  string
		named bool
		want  error // nil for success
	}{
		{"small file", small, false, nil},
		{"small file, named", small, true, nil},
		{"file over the limit", big, false, ErrTooLarge},
		{"directory", dir, false, syscall.EISDIR},
		{"directory, named", dir, true, syscall.EISDIR},
		{"endless device", "/dev/zero", false, ErrTooLarge},
		{"device, named", "/dev/zero", true, ErrNotRegular},
		{"missing", filepath.Join(dir, "nothere.yaml"), false, os.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.path, "/dev/") {
				if _, err := os.Stat(tc.path); err != nil {
					t.Skipf("no %s here", tc.path)
				}
			}
			read := ReadFile
			if tc.named {
				read = ReadNamedFile
			}
			data, err := read(tc.path)
			if tc.want == nil {
				require.NoError(t, err, "reading %s", tc.path)
				assert.Equal(t, "a: 1\n", string(data), "content of %s", tc.path)
				return
			}
			assert.True(t, errors.Is(err, tc.want), "reading %s: want %v, got %v", tc.path, tc.want, err)
			var pe *os.PathError
			assert.True(t, errors.As(err, &pe), "a path error: %v", err)
		})
	}
}

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
		assert.Equal(t, tc.want, RealPath(tc.path), "real path of %s", tc.path)
	}
	tree := NewTree(filepath.Join(dir, "link"))
	out, link := tree.Outside(filepath.Join(dir, "link", "sub", "x.yaml"))
	assert.False(t, out, "a file below a linked tree is inside it")
	assert.False(t, link)
	out, link = tree.Outside(filepath.Join(dir, "other.yaml"))
	assert.True(t, out, "a file beside the tree is outside it")
	assert.False(t, link, "and no link takes it out")
}
