package resolve

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAnalyzeCoreAndDead(t *testing.T) {
	a, err := Analyze(context.Background(), Input{TemplatePath: "../testdata/spaces/dead.yaml"}, Options{}, SpaceOptions{})
	require.NoError(t, err)
	require.Equal(t, "3", a.Variants.String())
	var core, dead []string
	for _, e := range a.Elements {
		if a.Core(e) {
			core = append(core, e.ID+" "+e.Pos.String())
		}
		if a.Dead(e) {
			dead = append(dead, e.ID+" "+e.Pos.String())
		}
	}
	require.Equal(t, []string{
		"node.shop ../testdata/spaces/dead.yaml:14:9",
		"node.database ../testdata/spaces/dead.yaml:18:9",
		"relation.database@0.node.shop ../testdata/spaces/dead.yaml:17:19",
	}, core)
	require.Equal(t, []string{"node.cache ../testdata/spaces/dead.yaml:29:9"}, dead)
	for _, e := range a.Elements {
		if e.ID == "node.large_vm" {
			require.InDelta(t, 2.0/3, a.Commonality(e.Count), 1e-12)
		}
	}
}

// TestSampleUniform draws 14,400 variants of the 144 of the chain of ten
// choices: a chi-square test with 143 degrees of freedom at p = 0.001
// (critical value about 198.6), and the same seed gives the same sample.
func TestSampleUniform(t *testing.T) {
	ctx := context.Background()
	in := Input{TemplatePath: "../testdata/spaces/chain.yaml"}
	const n = 14400
	res, err := Sample(ctx, in, Options{}, SampleOptions{Uniform: n, Seed: 42})
	require.NoError(t, err)
	require.Equal(t, "144", res.Count.String())
	require.Len(t, res.Variants, n)
	hist := map[string]int{}
	for _, v := range res.Variants {
		hist[strings.Join(v.Present, " ")]++
	}
	require.Len(t, hist, 144)
	chi := 0.0
	for _, c := range hist {
		d := float64(c) - n/144.0
		chi += d * d / (n / 144.0)
	}
	require.Less(t, chi, 198.6, "chi-square")
	again, err := Sample(ctx, in, Options{}, SampleOptions{Uniform: n, Seed: 42})
	require.NoError(t, err)
	require.Equal(t, res.Variants, again.Variants)
	other, err := Sample(ctx, in, Options{}, SampleOptions{Uniform: n, Seed: 43})
	require.NoError(t, err)
	require.NotEqual(t, res.Variants, other.Variants)
}

// TestEnumerateRefusesUncountable: listing without a limit refuses, within
// a bounded circuit, a space it cannot count, instead of hanging; --count
// still counts it.
func TestEnumerateRefusesUncountable(t *testing.T) {
	defer func(n int) { listNodes = n }(listNodes)
	listNodes = 5
	in := Input{TemplatePath: "../testdata/spaces/chain.yaml"}
	_, err := Enumerate(context.Background(), in, Options{}, EnumerateOptions{Max: 100000})
	require.Error(t, err)
	require.Contains(t, err.Error(), "too many variants to list")
	res, err := Enumerate(context.Background(), in, Options{}, EnumerateOptions{Max: 100000, CountOnly: true})
	require.NoError(t, err)
	require.Equal(t, "144", res.Count.String())
	res, err = Enumerate(context.Background(), in, Options{}, EnumerateOptions{Max: 100000, Limit: 3})
	require.NoError(t, err)
	require.Len(t, res.Variants, 3)
}
