package benchmarks

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestRingMatchesConformanceCase checks the generator against the reference's
// own benchmark case (seed 2) when the shared corpus is present.
func TestRingMatchesConformanceCase(t *testing.T) {
	ref := filepath.Join("..", "..", "shared", "conformance", "vintner", "other", "benchmark", "template.yaml")
	want, err := yamlsrc.LoadFile(ref)
	if err != nil {
		t.Skipf("conformance corpus not available: %v", err)
	}
	var buf bytes.Buffer
	require.NoError(t, Ring(&buf, 2))
	got, err := yamlsrc.Parse(buf.Bytes(), "ring-2.yaml")
	require.NoError(t, err)
	require.True(t, yamlsrc.DeepEqual(want, got), "ring seed 2 differs from other/benchmark")
}
