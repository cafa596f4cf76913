package resolve

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

const reportTemplate = `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: {big: {type: boolean}, tie: {type: boolean}}
        options: {type_default_condition: true, relation_default_condition: true}
    node_templates:
        app:
            type: app
            requirements:
                - host: {node: small_vm, conditions: {not: {variability_input: big}}}
                - host: {node: big_vm, conditions: {variability_input: big}}
        small_vm: {type: vm, weight: 0.5, conditions: {not: {variability_input: big}}}
        big_vm: {type: vm, conditions: {variability_input: big}}
        free: {type: vm, conditions: {and: [{variability_input: tie}, {node_presence: free}]}}
`

func TestReport(t *testing.T) {
	file := writeTemplate(t, reportTemplate)
	for _, tc := range []struct {
		name      string
		big, tie  bool
		overrides []Assignment
		want      Report
	}{
		{
			name: "small: the light host, no spares",
			want: Report{Nodes: []string{"app", "small_vm"}, Relations: []string{"app.host->small_vm"}, Weight: 1.5, Unique: true},
		},
		{
			name: "big: the big host",
			big:  true,
			want: Report{Nodes: []string{"app", "big_vm"}, Relations: []string{"app.host->big_vm"}, Weight: 2, Unique: true},
		},
		{
			name:      "a free node without the uniqueness check is a tie",
			tie:       true,
			overrides: []Assignment{{Name: "optimization_topology_unique", Value: yamlsrc.NewBool(false)}},
			want:      Report{Nodes: []string{"app", "small_vm"}, Relations: []string{"app.host->small_vm"}, Weight: 1.5, Unique: false},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{TemplatePath: file, Inputs: []Assignment{
				{Name: "big", Value: yamlsrc.NewBool(tc.big)}, {Name: "tie", Value: yamlsrc.NewBool(tc.tie)}}}
			res, err := Resolve(context.Background(), in, Options{Overrides: tc.overrides, Report: true})
			require.NoError(t, err, tc.name)
			require.NotNil(t, res.Report, tc.name)
			require.Equal(t, tc.want, *res.Report, tc.name)
		})
	}
}

// TestResultWithoutReport: the report costs a pass over the elements, so
// Resolve makes it only when asked; the stage durations come always.
func TestResultWithoutReport(t *testing.T) {
	file := writeTemplate(t, reportTemplate)
	in := Input{TemplatePath: file, Inputs: []Assignment{
		{Name: "big", Value: yamlsrc.NewBool(false)}, {Name: "tie", Value: yamlsrc.NewBool(false)}}}
	res, err := Resolve(context.Background(), in, Options{})
	require.NoError(t, err)
	require.NotNil(t, res.Doc)
	require.Nil(t, res.Report, "a report that was not asked for")
	tm := res.Timings
	for _, lap := range []struct {
		name string
		d    time.Duration
	}{{"parse", tm.Parse}, {"enrich", tm.Enrich}, {"graph", tm.Graph}, {"encode", tm.Encode}, {"solve", tm.Solve}, {"transform", tm.Transform}} {
		require.Positive(t, lap.d, "the %s lap", lap.name)
	}
}

func TestDescribeTopology(t *testing.T) {
	file := writeTemplate(t, reportTemplate)
	got, err := DescribeTopology(context.Background(), Input{TemplatePath: file}, Options{})
	require.NoError(t, err)
	require.Equal(t, []TopologyNode{
		{Name: "app", Type: "app"},
		{Name: "small_vm", Type: "vm", Conditions: "{not: {variability_input: big}}"},
		{Name: "big_vm", Type: "vm", Conditions: "{variability_input: big}"},
		{Name: "free", Type: "vm", Conditions: "{and: [{variability_input: tie}, {node_presence: free}]}"},
	}, got.Nodes)
	require.Equal(t, []TopologyRelation{
		{Source: "app", Name: "host", Target: "small_vm", Hosting: true, Conditions: "{not: {variability_input: big}}"},
		{Source: "app", Name: "host", Target: "big_vm", Hosting: true, Conditions: "{variability_input: big}"},
	}, got.Relations)
}

func TestFlow(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{a: [1, true, null]}`, `{a: [1, true, null]}`},
		{`{equal: [{variability_input: size}, small]}`, `{equal: [{variability_input: size}, small]}`},
		{`["true", "a b", "", "1.5", x-y]`, `["true", "a b", "", "1.5", x-y]`},
	} {
		v, err := yamlsrc.Parse([]byte(tc.src), "flow.yaml")
		require.NoError(t, err, tc.src)
		require.Equal(t, tc.want, Flow(v), tc.src)
	}
}
