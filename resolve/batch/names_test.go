package batch

import (
	"github.com/stretchr/testify/require"
	"strings"
	"testing"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		name     string
		template string
		presets  []string
		want     string
	}{
		{"defaults", "../examples/motivation/variable-service-template.yaml", nil, "run-007-variable-service-template-defaults.yaml"},
		{"one preset", "shop.yaml", []string{"static"}, "run-007-shop-static.yaml"},
		{"presets in order", "shop.yml", []string{"static", "kubernetes"}, "run-007-shop-static+kubernetes.yaml"},
		{"other extension kept", "shop.tosca", []string{"a"}, "run-007-shop.tosca-a.yaml"},
		{"sanitised", "dir/my shop (v2).yaml", []string{"größe", "a+b", "x/y"}, "run-007-my_shop__v2_-gr__e+a_b+x_y.yaml"},
		{"only an extension", ".yaml", nil, "run-007-.yaml-defaults.yaml"},
		{"long", "t.yaml", []string{strings.Repeat("p", 150)}, "run-007-t-" + strings.Repeat("p", maxLabel-2) + ".yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Run{ID: "run-007", Template: tc.template, Presets: tc.presets}
			got := r.FileName()
			require.Equal(t, tc.want, got, "%s %v", tc.template, tc.presets)
			id, ok := RunFileID(got)
			require.True(t, ok, "%s is a run file", got)
			require.Equal(t, "run-007", id, got)
		})
	}
}

func TestRunFileID(t *testing.T) {
	for _, tc := range []struct {
		name, id string
	}{
		{"run-007.yaml", "run-007"},
		{"run-0123-shop-defaults.yaml", "run-0123"},
		{"run-007-shop-a+b.yaml", "run-007"},
		{"run-007-shop-a b.yaml", ""},
		{"run-.yaml", ""},
		{"run-007.yml", ""},
		{"summary.csv", ""},
		{"myrun-007.yaml", ""},
		{".run-007.yaml.tmp-123", ""},
	} {
		id, ok := RunFileID(tc.name)
		require.Equal(t, tc.id != "", ok, tc.name)
		require.Equal(t, tc.id, id, tc.name)
	}
}

func TestModeFileName(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []resolve.Assignment
		want string
	}{
		{"pruning", []resolve.Assignment{{Name: "mode", Value: yamlsrc.NewString("semantic-loose")}}, "mode=semantic-loose.yaml"},
		{"both", Modes(true, true)[2], "mode=manual,optimization_topology=max.yaml"},
		{"optimisation off", Modes(false, true)[0], "optimization_topology=false.yaml"},
		{"none", nil, "defaults.yaml"},
		{"sanitised", []resolve.Assignment{{Name: "x", Value: yamlsrc.NewString("a/b c")}}, "x=_a_b_c_.yaml"},
	} {
		require.Equal(t, tc.want, ModeFileName(tc.opts), tc.name)
	}
	seen := map[string]bool{}
	for _, m := range Modes(true, true) {
		name := ModeFileName(m)
		require.False(t, seen[name], "%s names one mode", name)
		seen[name] = true
	}
}
