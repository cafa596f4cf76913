package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/benchmarks/gen"
	"v4t/resolve"
)

// generatedFile writes a benchmark family's template at seed k into a
// temporary directory and returns its path.
func generatedFile(t testing.TB, name string, k int, gen func(w *bytes.Buffer, k int) error) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, gen(&buf, k))
	path := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d.yaml", name, k))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func chain(w *bytes.Buffer, k int) error    { return gen.Chain(w, k) }
func conflict(w *bytes.Buffer, k int) error { return gen.Conflict(w, k) }
func hub(w *bytes.Buffer, k int) error      { return gen.Hub(w, k) }
func free(w *bytes.Buffer, k int) error     { return gen.Free(w, k) }

func fibonacci(n int) *big.Int {
	a, b := big.NewInt(0), big.NewInt(1)
	for range n {
		a, b = b, new(big.Int).Add(a, b)
	}
	return a
}

// independentSets counts the subsets of k vertices that hold no edge, by
// brute force: the conflict family's count, computed without the solver.
func independentSets(k int, edges [][2]int) int64 {
	var n int64
	for set := 0; set < 1<<k; set++ {
		ok := true
		for _, e := range edges {
			if set>>e[0]&1 == 1 && set>>e[1]&1 == 1 {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// TestSpaceCounts counts the generated families exactly, against numbers
// computed without the solver: Fibonacci numbers for chains, powers of two
// for hubs and free choices, and brute-force independent sets for conflict graphs.
func TestSpaceCounts(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		path  string
		want  *big.Int
		limit time.Duration
	}{
		{"chain 1", generatedFile(t, "chain", 1, chain), fibonacci(3), time.Second},
		{"chain 10", generatedFile(t, "chain", 10, chain), fibonacci(12), time.Second},
		{"chain 2000", generatedFile(t, "chain", 2000, chain), fibonacci(2002), 20 * time.Second},
		{"hub 40", generatedFile(t, "hub", 40, hub), new(big.Int).Lsh(big.NewInt(1), 40), 5 * time.Second},
		{"free 1", generatedFile(t, "free", 1, free), big.NewInt(2), time.Second},
		{"free 20", generatedFile(t, "free", 20, free), new(big.Int).Lsh(big.NewInt(1), 20), time.Second},
		{"free 1000", generatedFile(t, "free", 1000, free), new(big.Int).Lsh(big.NewInt(1), 1000), 10 * time.Second},
	}
	for _, k := range []int{2, 5, 12, 18} {
		tests = append(tests, struct {
			name  string
			path  string
			want  *big.Int
			limit time.Duration
		}{fmt.Sprintf("conflict %d", k), generatedFile(t, "conflict", k, conflict), big.NewInt(independentSets(k, gen.ConflictEdges(k))), time.Second})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := resolve.Enumerate(ctx, resolve.Input{TemplatePath: tc.path}, resolve.Options{}, resolve.EnumerateOptions{CountOnly: true})
			require.NoError(t, err)
			require.Equal(t, tc.want.String(), res.Count.String())
			if !raceEnabled {
				require.Less(t, time.Since(start), tc.limit)
			}
		})
	}
}

// TestChainDigits: the chain of 2,000 choices has 418 digits (about 10^418
// variants).
func TestChainDigits(t *testing.T) {
	require.Len(t, fibonacci(2002).String(), 419)
}

// TestSampleUniformLarge samples the chain of 2,000 choices: every sample
// is a variant (no two adjacent b nodes), and a fair share of b nodes
// (about 1/(1+φ²) ≈ 0.276) shows.
func TestSampleUniformLarge(t *testing.T) {
	path := generatedFile(t, "chain", 2000, chain)
	res, err := resolve.Sample(context.Background(), resolve.Input{TemplatePath: path}, resolve.Options{}, resolve.SampleOptions{Uniform: 20, Seed: 1})
	require.NoError(t, err)
	bs := 0
	for _, v := range res.Variants {
		require.Len(t, v.Present, 2000)
		prevB := false
		for i, id := range v.Present {
			isB := strings.HasPrefix(id, "node.b_")
			require.False(t, prevB && isB, "adjacent b nodes at %d", i)
			prevB = isB
			if isB {
				bs++
			}
		}
	}
	frac := float64(bs) / (20 * 2000)
	require.InDelta(t, 1/(1+math.Phi*math.Phi), frac, 0.02)
}

// TestSamplePairwise covers every pair of 20 free choices with at most 12
// variants.
func TestSamplePairwise(t *testing.T) {
	path := generatedFile(t, "free", 20, free)
	res, err := resolve.Sample(context.Background(), resolve.Input{TemplatePath: path}, resolve.Options{}, resolve.SampleOptions{T: 2, Seed: 1})
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Lsh(big.NewInt(1), 20).String(), res.Count.String())
	require.LessOrEqual(t, len(res.Variants), 12)
	has := make([]map[string]bool, len(res.Variants))
	for i, v := range res.Variants {
		has[i] = map[string]bool{}
		for _, id := range v.Present {
			has[i][id] = true
		}
	}
	for i := range 20 {
		for j := i + 1; j < 20; j++ {
			for _, x := range []string{"a", "b"} {
				for _, y := range []string{"a", "b"} {
					p, q := fmt.Sprintf("node.%s_%d", x, i), fmt.Sprintf("node.%s_%d", y, j)
					covered := false
					for _, h := range has {
						if h[p] && h[q] {
							covered = true
							break
						}
					}
					require.True(t, covered, "%s and %s", p, q)
				}
			}
		}
	}
}
