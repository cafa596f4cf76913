package batch

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
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
			require.Equal(t, tc.first, (&Run{Options: modes[0]}).OptionsText())
			require.Equal(t, tc.last, (&Run{Options: modes[len(modes)-1]}).OptionsText())
		})
	}
}

func TestCompare(t *testing.T) {
	c, err := Compare(context.Background(), resolve.Input{TemplatePath: compareTemplate}, CompareOptions{Pruning: true, Optimization: true, Jobs: 2})
	require.NoError(t, err)
	require.Len(t, c.Rows, 18)
	// Mode 5 (consistent-strict, min) is the first that resolves.
	require.Equal(t, 4, c.Baseline)
	for _, tc := range []struct {
		mode int // 1-based, as printed
		want []string
	}{
		{6, []string{"+node cache", "+relation shop.cache->cache"}},
		{8, nil},
		{17, []string{"-node db_vm"}},
		{18, []string{"-node db_vm", "+node cache", "+relation shop.cache->cache"}},
	} {
		require.Equal(t, tc.want, c.Differences(tc.mode-1), "mode %d (%s)", tc.mode, c.Rows[tc.mode-1].Run.OptionsText())
	}
	// The template sets no mode: its own is the defaults of
	// tosca_variability_1_0, manual without optimisation.
	require.Equal(t, 0, c.Own)
	for _, f := range []struct {
		golden string
		write  func(*Comparison, io.Writer) error
	}{
		{"testdata/compare.golden", (*Comparison).WriteTable},
		{"testdata/compare.csv.golden", (*Comparison).WriteCSV},
		{"testdata/compare.json.golden", (*Comparison).WriteJSON},
	} {
		var b bytes.Buffer
		require.NoError(t, f.write(c, &b), f.golden)
		testkit.Golden(t, f.golden, b.Bytes())
	}
}

// TestOwnMode checks which mode is the template's own: the one whose
// options leave the template's resolved options unchanged.
func TestOwnMode(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, version, options string
		overrides              []resolve.Assignment
		pruning, optimization  bool
		want                   string // the own mode's options, "" for none
	}{
		{"defaults of 1.0", "tosca_variability_1_0", "", nil, true, true, "mode=manual optimization_topology=false"},
		{"defaults of rc 2", "tosca_variability_1_0_rc_2", "", nil, true, true, "mode=semantic-loose optimization_topology=min"},
		{"set by the template", "tosca_variability_1_0", "{mode: consistent-loose, optimization_topology: max}", nil, true, true, "mode=consistent-loose optimization_topology=max"},
		{"true is min", "tosca_variability_1_0", "{optimization_topology: true}", nil, false, true, "optimization_topology=min"},
		{"pruning only", "tosca_variability_1_0", "{mode: default, optimization_topology: max}", nil, true, false, "mode=default"},
		{"after --option", "tosca_variability_1_0", "{mode: default}", []resolve.Assignment{{Name: "mode", Value: yamlsrc.NewString("semantic-strict")}}, true, false, "mode=semantic-strict"},
		{"not a compared value", "tosca_variability_1_0", "{mode: default}", []resolve.Assignment{{Name: "optimization_topology_unique", Value: yamlsrc.NewBool(false)}}, false, true, "optimization_topology=false"},
		{"an unknown mode", "tosca_variability_1_0", "{mode: fastest}", nil, false, true, ""},
		{"options not a map", "tosca_variability_1_0", "7", nil, true, false, "mode=manual"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "tosca_definitions_version: " + tc.version + "\n"
			if tc.options != "" {
				src += "topology_template:\n    variability:\n        options: " + tc.options + "\n"
			}
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
			require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
			modes := Modes(tc.pruning, tc.optimization)
			got := ""
			if i := ownMode(path, tc.overrides, modes); i >= 0 {
				got = (&Run{Options: modes[i]}).OptionsText()
			}
			require.Equal(t, tc.want, got, "%s:\n%s", tc.name, src)
		})
	}
	require.Equal(t, -1, ownMode(filepath.Join(dir, "missing.yaml"), nil, Modes(true, false)), "a missing template has no own mode")
}

func TestCompareUnreadableTemplate(t *testing.T) {
	_, err := Compare(context.Background(), resolve.Input{TemplatePath: "testdata/missing.yaml"}, CompareOptions{Pruning: true})
	require.Error(t, err)
	require.Contains(t, err.Error(), "missing.yaml")
}
