package benchmarks

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/benchmarks/gen"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

// TestRingMatchesConformanceCase checks the generator against the reference's
// own benchmark case (seed 2) when the shared corpus is present.
func TestRingMatchesConformanceCase(t *testing.T) {
	ref := filepath.Join(testkit.Corpus(t, "vintner"), "other", "benchmark", "template.yaml")
	want, err := yamlsrc.LoadFile(ref)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, gen.Ring(&buf, 2))
	got, err := yamlsrc.Parse(buf.Bytes(), "ring-2.yaml")
	require.NoError(t, err)
	require.True(t, yamlsrc.DeepEqual(want, got), "ring seed 2 differs from other/benchmark")
}
