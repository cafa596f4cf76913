package resolve

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// TestRequirementsInPlace: a lean build's transform keeps the present
// relations' own entries, shrunk and cleaned, where the list holds the
// relations one each, and otherwise changes nothing and leaves the list to
// requirements.
func TestRequirementsInPlace(t *testing.T) {
	const src = `tosca_definitions_version: tosca_variability_1_0
topology_template:
  node_templates:
    a: {type: t, requirements: [{h: {node: b, conditions: true}}, {c: {node: b, relationship: r}}, {d: b}]}
    b: {type: t}
  relationship_templates:
    r: {type: rt}
`
	for _, tc := range []struct {
		name    string
		present []bool
		want    string
	}{
		{"all", []bool{true, true, true}, `[{"h":"b"},{"c":{"node":"b","relationship":"r"}},{"d":"b"}]`},
		{"some", []bool{false, true, false}, `[{"c":{"node":"b","relationship":"r"}}]`},
		{"none", []bool{false, false, false}, `undefined`},
	} {
		doc, err := yamlsrc.Parse([]byte(src), "t.yaml")
		require.NoError(t, err)
		g, err := graph.BuildWith(doc, "t.yaml", graph.BuildOptions{Lean: true})
		require.NoError(t, err)
		a := g.NodeByName("a")
		raw := a.Raw
		entries := append([]*yamlsrc.Value(nil), raw.Get("requirements").List()...)
		for i, r := range a.Outgoing {
			r.Present = tc.present[i]
		}
		require.True(t, requirementsInPlace(a, raw), tc.name)
		require.Equal(t, tc.want, graph.JSONOf(raw.Get("requirements")), tc.name)
		for i, r := range a.Outgoing {
			require.Same(t, entries[i], r.Entry, "%s: entry %d", tc.name, i)
		}
	}

	// A list that is not the relations' own entries is left alone.
	doc, err := yamlsrc.Parse([]byte(src), "t.yaml")
	require.NoError(t, err)
	g, err := graph.BuildWith(doc, "t.yaml", graph.BuildOptions{Lean: true})
	require.NoError(t, err)
	a := g.NodeByName("a")
	list := a.Raw.Get("requirements")
	list.List()[0], list.List()[1] = list.List()[1], list.List()[0]
	before := graph.JSONOf(a.Raw)
	require.False(t, requirementsInPlace(a, a.Raw))
	require.Equal(t, before, graph.JSONOf(a.Raw))
	list.SetList(list.List()[:2])
	require.False(t, requirementsInPlace(a, a.Raw))
}
