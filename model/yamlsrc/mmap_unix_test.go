//go:build unix

package yamlsrc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// TestLoadFileCutShort: a file cut short while it is mapped makes the
// parser fault on the pages it lost; LoadFile reports a read error of the
// file instead of crashing.
func TestLoadFileCutShort(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 2*mapThreshold; i++ {
		fmt.Fprintf(&b, "key_%d: value %d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "cut.yaml")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	defer func() { afterMap = nil }()
	afterMap = func(p string) { require.NoError(t, os.Truncate(p, 4096)) }
	_, err := LoadFile(path)
	require.Error(t, err)
	d, ok := diag.As(err)
	require.True(t, ok, "a diagnostic")
	require.Equal(t, CodeRead, d.Code)
	require.Contains(t, d.Message, "the file changed while it was read")
}
