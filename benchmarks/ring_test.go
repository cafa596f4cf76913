package benchmarks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// writeRing writes the ring template at seed n and its inputs into dir.
func writeRing(tb testing.TB, dir string, n int) (template, inputs string) {
	tb.Helper()
	template = filepath.Join(dir, "ring-"+strconv.Itoa(n)+".yaml")
	inputs = filepath.Join(dir, "inputs.yaml")
	var buf bytes.Buffer
	require.NoError(tb, Ring(&buf, n))
	require.NoError(tb, os.WriteFile(template, buf.Bytes(), 0o644))
	buf.Reset()
	require.NoError(tb, RingInputs(&buf))
	require.NoError(tb, os.WriteFile(inputs, buf.Bytes(), 0o644))
	return template, inputs
}

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

// BenchmarkResolveRing resolves the ring family end to end (load, enrich,
// solve, transform, write) at several seeds.
func BenchmarkResolveRing(b *testing.B) {
	for _, n := range []int{10, 1000, 10000, 40000} {
		b.Run("seed="+strconv.Itoa(n), func(b *testing.B) {
			if testing.Short() && n > 1000 {
				b.Skip("large seed skipped under -short")
			}
			template, inputs := writeRing(b, b.TempDir(), n)
			b.ReportAllocs()
			for b.Loop() {
				doc, err := resolve.Resolve(context.Background(), resolve.Input{TemplatePath: template, InputsPath: inputs}, resolve.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := yamlsrc.Write(&bytes.Buffer{}, doc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(4*n), "templates/op")
		})
	}
}
