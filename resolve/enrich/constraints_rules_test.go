package enrich

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §5.11 (constraint enrichment), §5.12 (implications)
// and §5.13 (cleanup).

// constraintsOf returns the constraints after enrichment as JSON.
func constraintsOf(g *graph.Graph) []string {
	var out []string
	for _, c := range g.Variability().Get("constraints").List() {
		out = append(out, yamlsrc.JSON(c))
	}
	return out
}

func TestConstraintRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  variability:
    options: {constraints: true}
    constraints: [user]
  inputs:
    - i: {type: string}
    - i: {type: string}
  outputs:
    - o: {value: 1}
  node_templates:
    a:
      type: t
      technology: [{ansible: {}}, {terraform: {}}]
      requirements:
        - host: b
        - host: c
        - conn: b
      artifacts:
        - f: x
        - f: y
      properties:
        - p: 1
    b:
      type: t
      technology: [{ansible: {}}]
    c:
      type: t
      managed: false
`
	g, _ := enriched(t, src)
	require.Equal(t, []string{
		`"user"`,
		// 1. relation_source_constraint (sic: the target).
		`{"implies":["relation.host@0.node.a","node.b"]}`,
		`{"implies":["relation.host@1.node.a","node.c"]}`,
		`{"implies":["relation.conn@2.node.a","node.b"]}`,
		// 2. relation_target_constraint (sic: the source).
		`{"implies":["relation.host@0.node.a","node.a"]}`,
		`{"implies":["relation.host@1.node.a","node.a"]}`,
		`{"implies":["relation.conn@2.node.a","node.a"]}`,
		// 3. unique_artifact_constraint.
		`{"amo":["artifact.f@0.node.a","artifact.f@1.node.a"]}`,
		// 4. artifact_container_constraint.
		`{"implies":["artifact.f@0.node.a","node.a"]}`,
		`{"implies":["artifact.f@1.node.a","node.a"]}`,
		// 5. property_container_constraint (the fallback included).
		`{"implies":["property.p@0.node.a","node.a"]}`,
		`{"implies":["property.p@1.node.a","node.a"]}`,
		// 6. unique_property_constraint.
		`{"implies":["node.a",{"exo":["property.p@0.node.a","property.p@1.node.a"]}]}`,
		// 7. type_container_constraint, in global order.
		`{"implies":["type.t@0.node.a","node.a"]}`,
		`{"implies":["type.tosca.artifacts.File@0.artifact.f@0.node.a","artifact.f@0.node.a"]}`,
		`{"implies":["type.tosca.artifacts.File@0.artifact.f@1.node.a","artifact.f@1.node.a"]}`,
		`{"implies":["type.t@0.node.b","node.b"]}`,
		`{"implies":["type.t@0.node.c","node.c"]}`,
		// 8. hosting_stack_constraint.
		`{"implies":["node.a",{"exo":["relation.host@0.node.a","relation.host@1.node.a"]}]}`,
		// 9. required_incoming_relation_constraint.
		`{"implies":["node.b",{"or":["relation.host@0.node.a","relation.conn@2.node.a"]}]}`,
		`{"implies":["node.c",{"or":["relation.host@1.node.a"]}]}`,
		// 10. required_artifact_constraint.
		`{"implies":["node.a",{"exo":["artifact.f@0.node.a","artifact.f@1.node.a"]}]}`,
		// 11. technology_constraint, managed nodes only.
		`{"implies":["node.a",{"exo":["technology.ansible@0.node.a","technology.terraform@1.node.a"]}]}`,
		`{"implies":["node.b","technology.ansible@0.node.b"]}`,
		// 12. and 13. unique_input_constraint, unique_output_constraint.
		`{"amo":["input.i@0","input.i@1"]}`,
		`{"amo":["output.o@0"]}`,
		// 14. unique_relation_constraint.
		`{"implies":["node.a",{"amo":["relation.host@0.node.a","relation.host@1.node.a"]}]}`,
		`{"implies":["node.a",{"amo":["relation.conn@2.node.a"]}]}`,
		// Implications: every property, fallbacks included.
		`{"implies":[{"and":["node.a","manual.property.p@0.node.a"]},"property.p@0.node.a"]}`,
		`{"implies":[{"and":["node.a","manual.property.p@1.node.a"]},"property.p@1.node.a"]}`,
	}, constraintsOf(g))
}

// TestHostingStackSingleRules: one hosting relation is required as such;
// a managed node without technologies gets exo([]) (§5.11).
func TestHostingStackSingleRules(t *testing.T) {
	g, _ := enriched(t, rulesV1+`topology_template:
  variability:
    options: {hosting_stack_constraint: true, technology_constraint: true}
  node_templates:
    a: {type: t, requirements: [{my_host: b}, {conn: b}], managed: true}
    b: {type: t, managed: false}
`)
	// Hosting relations are not implied by default (§5.12), so there is
	// no implication.
	require.Equal(t, []string{
		`{"implies":["node.a","relation.my_host@0.node.a"]}`,
		`{"implies":["node.a",{"exo":[]}]}`,
	}, constraintsOf(g))
}

// TestImplicationRules: §5.12, implied values per kind.
func TestImplicationRules(t *testing.T) {
	src := `tosca_definitions_version: %s
topology_template:
  variability:
    options: {constraints: false, checks: false}
  node_templates:
    a:
      type: [{t: {implied: true}}]
      persistent: true
      managed: false
      requirements:
        - host: b
        - conn: b
        - src: {node: b, implied: SOURCE}
        - tgt: {node: b, implied: TARGET}
        - off: {node: b, implied: false}
        - hosting: {node: b, implied: CONTAINER}
      artifacts:
        f: {file: x, implied: true}
      technology: [{ansible: {implied: true}}]
      properties:
        - p: {value: 1, implied: false, default_alternative: true}
    b: {type: t, managed: false}
`
	prefix := func(id, container string) string {
		return `{"implies":[{"and":["` + container + `","manual.` + id + `"]},"` + id + `"]}`
	}
	for _, tc := range []struct {
		version string
		want    []string
	}{
		// V1: relation_default_implied is false; properties are implied
		// unless they say otherwise.
		{"tosca_variability_1_0", []string{
			prefix("type.t@0.node.a", "node.a"),
			prefix("relation.src@2.node.a", "node.a"),
			prefix("relation.tgt@3.node.a", "node.a"),
			prefix("relation.hosting@5.node.a", "node.a"),
			prefix("artifact.f@0.node.a", "node.a"),
			prefix("technology.ansible@0.node.a", "node.a"),
		}},
		// RC3: relations are implied by default, except hosting relations.
		{"tosca_variability_1_0_rc_3", []string{
			prefix("type.t@0.node.a", "node.a"),
			prefix("relation.conn@1.node.a", "node.a"),
			prefix("relation.src@2.node.a", "node.a"),
			prefix("relation.tgt@3.node.a", "node.a"),
			prefix("relation.hosting@5.node.a", "node.a"),
			prefix("artifact.f@0.node.a", "node.a"),
			prefix("technology.ansible@0.node.a", "node.a"),
		}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			g, _ := enriched(t, fmtOptions(src, tc.version))
			// In global order: types, relations, properties, artifacts,
			// technologies.
			require.Equal(t, tc.want, constraintsOf(g))
		})
	}
}

func TestConstraintErrorRules(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"TARGET on a type", rulesV1 + `topology_template:
  node_templates:
    a: {type: [{t: {implied: TARGET}}]}
`, `Type "t@0" of node "a" is not a relation`},
		{"other truthy value on a relation", rulesV1 + `topology_template:
  node_templates:
    a: {type: t, requirements: [{conn: {node: a, implied: 1}}]}
`, `Left not defined`},
		{"constraints not a list", rulesV1 + `topology_template:
  variability:
    constraints: {a: b}
  node_templates:
    a: {type: t, properties: {p: 1}}
`, `expected the variability constraints as a list, found a map`},
		{"technology_constraint needs the node type", rulesV1 + `topology_template:
  variability:
    options: {technology_constraint: true}
  node_templates:
    a: {type: t}
`, `Node type "t" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := yamlsrc.Parse([]byte(tc.src), "t.yaml")
			require.NoError(t, err)
			g, err := graph.Build(doc, "t.yaml")
			require.NoError(t, err)
			require.NoError(t, Conditions(g))
			require.EqualError(t, Constraints(g), tc.want)
		})
	}

	// No constraint at all: the document is left alone.
	g, _ := enriched(t, rulesV1+"topology_template:\n  node_templates:\n    a: {type: t}\n")
	require.Nil(t, g.Variability())
}

// TestCleanupRules: §5.13, what the cleanup writes back and removes.
func TestCleanupRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  variability:
    options:
      mode: default
      node_pruning: true
      input_pruning: true
      artifact_default_condition_mode: container
      unique_relation_constraint: true
      checks: true
      required_technology_check: false
      enrich_input_condition: true
      optimization_topology: true
    qualities: []
    type_specific_conditions: {}
    inputs: {}
    plugins: {}
  node_templates:
    a:
      type: t
      persistent: true
      pruning: false
      requirements:
        - host: {node: b, default_alternative: true, implied: true, default_condition_mode: source}
      properties:
        - p: {value: 1, semantic_pruning: true}
    b: {type: t}
  groups:
    vg: {type: variability.groups.ConditionalMembers, members: [b], conditions: x}
    plain: {type: tosca.groups.Root, members: [a]}
`
	g, _ := enriched(t, src)
	require.NoError(t, Cleanup(g, true))
	topo := g.Topology()
	js := yamlsrc.JSON
	require.Equal(t, `{"options":{"input_pruning":true,"artifact_default_condition_mode":"container","unique_relation_constraint":true,"checks":true,"optimization_topology":true},`+
		`"constraints":[{"implies":["node.a",{"amo":["relation.host@0.node.a"]}]},`+
		`{"implies":[{"and":["node.a","manual.relation.host@0.node.a"]},"relation.host@0.node.a"]},`+
		`{"implies":[{"and":["node.a","manual.property.p@0.node.a"]},"property.p@0.node.a"]},`+
		`{"implies":[{"and":["node.a","manual.property.p@1.node.a"]},"property.p@1.node.a"]}]}`, js(topo.Get("variability")))
	nodes := topo.Get("node_templates").List()
	a := nodes[0].Get("a")
	// Enrichment keys are gone, conditions written back. The relation is
	// a default alternative: its bratan condition makes the list
	// non-empty, so mode default adds nothing.
	require.Equal(t, `[{"host":{"node":"b","conditions":[{"not":{"or":[]},"_bratan":true}]}}]`, js(a.Get("requirements")))
	require.Equal(t, `[]`, js(a.Get("conditions")))
	require.Nil(t, a.Get("pruning"))
	props := a.Get("properties").List()
	require.Equal(t, `{"value":1,"conditions":[{"node_presence":"a","_generated":true}]}`, js(props[0].Get("p")))
	require.Equal(t, `{"value":"VINTNER_UNDEFINED","conditions":[{"node_presence":"a","_generated":true},{"not":{"or":[{"node_property_presence":["a",0]}]},"_bratan":true}]}`, js(props[1].Get("p")))
	b := nodes[1].Get("b")
	// The variability group's conditions moved to its member; with its
	// own condition, b is only pruned.
	require.Equal(t, `[{"has_incoming_relation":"b","_generated":true},"x"]`, js(b.Get("conditions")))
	// Variability groups disappear; the others become a map.
	groups := topo.Get("groups")
	require.True(t, groups.IsMap())
	require.Equal(t, []string{"plain"}, groups.Map().Keys())
	require.Equal(t, `[{"has_present_member":"plain","_generated":true}]`, js(groups.Get("plain").Get("conditions")))

	// Without the write-back, the same keys and options go, and the
	// document keeps the conditions it was written with: the final ones
	// are the elements'.
	g, _ = enriched(t, src)
	require.NoError(t, Cleanup(g, false))
	topo = g.Topology()
	require.Equal(t, `{"options":{"input_pruning":true,"artifact_default_condition_mode":"container","unique_relation_constraint":true,"checks":true,"optimization_topology":true},`+
		`"constraints":[{"implies":["node.a",{"amo":["relation.host@0.node.a"]}]},`+
		`{"implies":[{"and":["node.a","manual.relation.host@0.node.a"]},"relation.host@0.node.a"]},`+
		`{"implies":[{"and":["node.a","manual.property.p@0.node.a"]},"property.p@0.node.a"]},`+
		`{"implies":[{"and":["node.a","manual.property.p@1.node.a"]},"property.p@1.node.a"]}]}`, js(topo.Get("variability")))
	nodes = topo.Get("node_templates").List()
	require.Equal(t, `[{"host":{"node":"b"}}]`, js(nodes[0].Get("a").Get("requirements")))
	require.Nil(t, nodes[0].Get("a").Get("pruning"))
	require.Zero(t, g.NodeByName("a").Keys&cleanedSet, "the removed keys leave the element's key set")
	require.Nil(t, nodes[1].Get("b").Get("conditions"))
	require.Equal(t, `{"value":1}`, js(nodes[0].Get("a").Get("properties").List()[0].Get("p")))
	require.Equal(t, `[{"has_incoming_relation":"b","_generated":true},"x"]`, js(yamlsrc.NewList(g.NodeByName("b").Conditions...)))
	require.Equal(t, []string{"plain"}, topo.Get("groups").Map().Keys())
	require.Nil(t, topo.Get("groups").Get("plain").Get("conditions"))

	// Without non-variability groups the key is removed; an empty
	// variability block too.
	g, _ = enriched(t, rulesV1+`topology_template:
  variability:
    options: {enrich_technologies: false}
  node_templates:
    a: {type: t}
  groups:
    vg: {type: variability.groups.Root, members: [a]}
`)
	require.NoError(t, Cleanup(g, true))
	require.Nil(t, g.Topology().Get("groups"))
	require.Nil(t, g.Topology().Get("variability"))
	require.Equal(t, `[]`, js(g.Topology().Get("node_templates").List()[0].Get("a").Get("conditions")))
}
