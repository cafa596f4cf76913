package batch

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve"
)

const compareTemplate = "../../testdata/compare/template.yaml"

func TestModes(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		pruning, optimization bool
		first, last           string
		n                     int
	}{
		{"both", true, true, "mode=manual optimization_topology=false", "mode=semantic-loose optimization_topology=max", 18},
		{"pruning", true, false, "mode=manual", "mode=semantic-loose", 6},
		{"optimisation", false, true, "optimization_topology=false", "optimization_topology=max", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			modes := Modes(tc.pruning, tc.optimization)
			require.Len(t, modes, tc.n)
			assert.Equal(t, tc.first, (&Run{Options: modes[0]}).OptionsText())
			assert.Equal(t, tc.last, (&Run{Options: modes[len(modes)-1]}).OptionsText())
		})
	}
}

func TestCompare(t *testing.T) {
	c, err := Compare(context.Background(), resolve.Input{TemplatePath: compareTemplate}, CompareOptions{Pruning: true, Optimization: true, Jobs: 2})
	require.NoError(t, err)
	require.Len(t, c.Rows, 18)
	// Mode 5 (consistent-strict, min) is the first that resolves.
	assert.Equal(t, 4, c.Baseline)
	for _, tc := range []struct {
		mode int // 1-based, as printed
		want []string
	}{
		{6, []string{"+node cache", "+relation shop.cache->cache"}},
		{8, nil},
		{17, []string{"-node db_vm"}},
		{18, []string{"-node db_vm", "+node cache", "+relation shop.cache->cache"}},
	} {
		assert.Equal(t, tc.want, c.Differences(tc.mode-1), "mode %d (%s)", tc.mode, c.Rows[tc.mode-1].Run.OptionsText())
	}
	var b bytes.Buffer
	require.NoError(t, c.WriteTable(&b))
	testkit.Golden(t, "testdata/compare.golden", b.Bytes())
}

func TestCompareUnreadableTemplate(t *testing.T) {
	_, err := Compare(context.Background(), resolve.Input{TemplatePath: "testdata/missing.yaml"}, CompareOptions{Pruning: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing.yaml")
}
