package yamlsrc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestReadFile checks the bounded reads of ReadFile and ReadNamedFile,
// with the limit lowered to 1 KiB.
func TestReadFile(t *testing.T) {
	defer func(m int64) { maxFileSize = m }(maxFileSize)
	maxFileSize = 1 << 10
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
		{"file over the limit, named", big, true, ErrTooLarge},
		{"directory", dir, false, syscall.EISDIR},
		{"directory, named", dir, true, syscall.EISDIR},
		{"endless device", "/dev/zero", false, ErrTooLarge},
		{"device, named", "/dev/zero", true, ErrNotRegular},
		{"missing", filepath.Join(dir, "nothere.yaml"), false, os.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			skipWithout(t, tc.path)
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

func skipWithout(t *testing.T, path string) {
	t.Helper()
	if strings.HasPrefix(path, "/dev/") {
		if _, err := os.Stat(path); err != nil {
			t.Skipf("no %s here", path)
		}
	}
}

// TestLoadFileNotRegular: LoadFile (used for spaces, cases, inputs of
// v4t complete, imports) refuses what is not a regular file instead of
// reading a device without end or waiting for a pipe's writer.
func TestLoadFileNotRegular(t *testing.T) {
	testkit.NotRegularFiles(t, CodeRead, func(path string) error {
		_, err := LoadFile(path)
		return err
	})
}
