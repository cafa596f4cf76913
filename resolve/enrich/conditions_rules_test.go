package enrich

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §5.6–5.10: default conditions per element kind and
// mode, pruning, per-element switches, default alternatives, variability
// groups, input conditions and type-specific conditions. Conditions are
// written in the notation of enrich_test.go: G(...) generated, B(...)
// bratan, JSON otherwise.

const rulesV1 = "tosca_definitions_version: tosca_variability_1_0\n"

// kindsTemplate has every element kind; its options are filled in by the
// cases. Node a has two outgoing relations (one hosting), an artifact and
// two technologies; b and c have incoming relations only.
const kindsTemplate = rulesV1 + `imports: [x.yaml]
topology_template:
  variability:
    options: {%s}
  inputs:
    i: {type: string}
  outputs:
    o: {value: {get_property: [b, x]}}
  node_templates:
    a:
      type: t
      requirements:
        - host: b
        - conn: {node: c, relationship: r}
      artifacts:
        f: {file: f.zip, properties: {ap: 1}}
      technology: [{ansible: {}}, {terraform: {}}]
      properties:
        - p: {get_input: i}
        - q: 1
    b: {type: t}
    c: {type: t}
  relationship_templates:
    r: {type: rt, properties: {rp: 1}}
  groups:
    g: {type: gt, members: [b], properties: {gp: 1}}
  policies:
    - pol: {type: pt, targets: [c], properties: {pp: 1}}
`

func kinds(options string) string {
	return fmtOptions(kindsTemplate, options)
}

// fmtOptions puts options into the %s of a template (no other verbs).
func fmtOptions(tmpl, options string) string {
	for i := 0; i+1 < len(tmpl); i++ {
		if tmpl[i] == '%' && tmpl[i+1] == 's' {
			return tmpl[:i] + options + tmpl[i+2:]
		}
	}
	return tmpl
}

// TestDefaultConditionRules checks the generated condition of selected
// elements (§5.8), by options.
func TestDefaultConditionRules(t *testing.T) {
	tests := []struct {
		name    string
		options string
		want    map[string]string // id → conditions in notation
	}{
		{"manual mode generates nothing", "", map[string]string{
			"node.a": "", "node.b": "", "relation.host@0.node.a": "", "property.q@1.node.a": "", "type.t@0.node.a": "",
			"artifact.f@0.node.a": "", "technology.ansible@0.node.a": "", "policy.pol@0": "", "group.g": "",
			"input.i@0": "", "output.o@0": "", "import.0@0": "",
		}},
		// mode default: default conditions for the eight kinds, not for
		// inputs and outputs (table V1), never for imports.
		{"mode default", "mode: default", map[string]string{
			"node.a":                                          `G({"has_artifact":"a"})`,
			"node.b":                                          `G({"has_incoming_relation":"b"})`,
			"relation.host@0.node.a":                          `G({"and":[{"node_presence":"a"},{"node_presence":"b"}]})`,
			"relation.conn@1.node.a":                          `G({"and":[{"node_presence":"a"},{"node_presence":"c"}]})`,
			"property.p@0.node.a":                             `G({"and":[{"node_presence":"a"},{"input_presence":0}]})`,
			"property.q@1.node.a":                             `G({"node_presence":"a"})`,
			"property.rp@0.relation.conn@1.node.a":            `G({"relation_presence":["a",1]})`,
			"property.ap@0.artifact.f@0.node.a":               `G({"artifact_presence":["a",0]})`,
			"property.gp@0.group.g":                           `G({"group_presence":"g"})`,
			"property.pp@0.policy.pol@0":                      `G({"policy_presence":0})`,
			"type.t@0.node.a":                                 `G({"node_presence":"a"})`,
			"type.rt@0.relation.conn@1.node.a":                `G({"relation_presence":["a",1]})`,
			"type.tosca.artifacts.File@0.artifact.f@0.node.a": `G({"artifact_presence":["a",0]})`,
			"type.gt@0.group.g":                               `G({"group_presence":"g"})`,
			"type.pt@0.policy.pol@0":                          `G({"policy_presence":0})`,
			"artifact.f@0.node.a":                             `G({"node_presence":"a"})`,
			"technology.ansible@0.node.a":                     `G({"and":[{"node_presence":"a"},{"not":{"or":[{"technology_presence":["a",1]}]},"_bratan":true}]})`,
			"technology.terraform@1.node.a":                   `G({"and":[{"node_presence":"a"},{"not":{"or":[{"technology_presence":["a",0]}]},"_bratan":true}]})`,
			"policy.pol@0":                                    `G({"has_present_target":0})`,
			"group.g":                                         `G({"has_present_member":"g"})`,
			"input.i@0":                                       "",
			"output.o@0":                                      "",
			"import.0@0":                                      "",
		}},
		// The V1 table of mode manual sets the consistency and semantic
		// switches of inputs and outputs to false, so the general switches
		// alone select nothing (§4.1).
		{"inputs and outputs in mode manual", "input_default_condition: true, output_pruning: true", map[string]string{
			"input.i@0": "", "output.o@0": "",
		}},
		{"inputs and outputs", "input_default_condition: true, input_default_semantic_condition: true, output_pruning: true, output_semantic_pruning: true", map[string]string{
			"input.i@0":  `G({"is_consumed":0})`,
			"output.o@0": `G({"is_produced":0})`,
		}},
		// Node modes (§5.8), each part with and without its precondition.
		{"node host", "node_pruning: true, node_default_condition_mode: host", map[string]string{
			"node.a": `G({"host_presence":"SELF"})`, "node.b": `G({"and":[]})`,
		}},
		// Quirk: source applies when the node has outgoing relations.
		{"node source", "node_pruning: true, node_default_condition_mode: source", map[string]string{
			"node.a": `G({"has_source":"a"})`, "node.b": `G({"and":[]})`,
		}},
		{"node incoming", "node_pruning: true, node_default_condition_mode: incoming", map[string]string{
			"node.a": `G({"and":[]})`, "node.c": `G({"has_incoming_relation":"c"})`,
		}},
		{"node incomingnaive", "node_pruning: true, node_default_condition_mode: incomingnaive", map[string]string{
			"node.a": `G({"and":[]})`, "node.b": `G({"has_incoming_relation_naive":"b"})`,
		}},
		{"node outgoing", "node_pruning: true, node_default_condition_mode: outgoing", map[string]string{
			"node.a": `G({"has_outgoing_relation":"a"})`, "node.b": `G({"and":[]})`,
		}},
		{"node outgoingnaive", "node_pruning: true, node_default_condition_mode: outgoingnaive", map[string]string{
			"node.a": `G({"has_outgoing_relation_naive":"a"})`,
		}},
		{"node artifactnaive", "node_pruning: true, node_default_condition_mode: artifactnaive", map[string]string{
			"node.a": `G({"has_artifact_naive":"a"})`, "node.c": `G({"and":[]})`,
		}},
		{"node several parts", "node_pruning: true, node_default_condition_mode: host-outgoing-artifact-incoming, persistent_check: false", map[string]string{
			"node.a": `G({"and":[{"host_presence":"SELF"},{"has_outgoing_relation":"a"},{"has_artifact":"a"}]})`,
			"node.b": `G({"has_incoming_relation":"b"})`,
		}},
		// The node wrapper is semantic only.
		{"node semantic pruning off", "node_pruning: true, node_semantic_pruning: false", map[string]string{
			"node.a": "", "node.b": "",
		}},
		{"node consistency pruning off", "node_pruning: true, node_consistency_pruning: false", map[string]string{
			"node.a": `G({"has_artifact":"a"})`,
		}},
		{"node default semantic off", "node_default_condition: true, node_default_semantic_condition: false", map[string]string{
			"node.a": "",
		}},
		// Relation modes; the wrapper is consistency only.
		{"relation target", "relation_pruning: true, relation_default_condition_mode: target", map[string]string{
			"relation.host@0.node.a": `G({"node_presence":"b"})`,
		}},
		{"relation source", "relation_pruning: true, relation_default_condition_mode: source", map[string]string{
			"relation.host@0.node.a": `G({"node_presence":"a"})`,
		}},
		{"relation consistency pruning off", "relation_pruning: true, relation_consistency_pruning: false", map[string]string{
			"relation.host@0.node.a": "",
		}},
		// Property modes.
		{"property container", "property_pruning: true, property_default_condition_mode: container", map[string]string{
			"property.p@0.node.a": `G({"node_presence":"a"})`,
		}},
		{"property consuming", "property_pruning: true, property_default_condition_mode: consuming", map[string]string{
			"property.p@0.node.a": `G({"input_presence":0})`,
			"property.q@1.node.a": `G({"and":[]})`,
		}},
		{"type consistency default off", "type_default_condition: true, type_default_consistency_condition: false", map[string]string{
			"type.t@0.node.a": "",
		}},
		// Artifact modes: a consistency and a semantic wrapper.
		{"artifact container-managed", "artifact_pruning: true, artifact_default_condition_mode: container-managed", map[string]string{
			"artifact.f@0.node.a": `G({"and":[{"node_presence":"a"},{"is_managed":"SELF"}]})`,
		}},
		{"artifact managed", "artifact_pruning: true, artifact_default_condition_mode: managed", map[string]string{
			"artifact.f@0.node.a": `G({"is_managed":"SELF"})`,
		}},
		{"artifact managed without semantic pruning", "artifact_pruning: true, artifact_semantic_pruning: false, artifact_default_condition_mode: container-managed", map[string]string{
			"artifact.f@0.node.a": `G({"node_presence":"a"})`,
		}},
		// Technology modes.
		{"technology other", "technology_pruning: true, technology_default_condition_mode: other", map[string]string{
			// The single conjunct is the bratan condition itself, which is
			// then marked generated as well.
			"technology.terraform@1.node.a": `G(B({"not":{"or":[{"technology_presence":["a",0]}]}}))`,
		}},
		{"policy and group semantic only", "policy_pruning: true, policy_semantic_pruning: false, group_default_condition: true", map[string]string{
			"policy.pol@0": "", "group.g": `G({"has_present_member":"g"})`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got := enriched(t, kinds(tc.options))
			for id, want := range tc.want {
				c, ok := got[id]
				require.True(t, ok, "no element %s", id)
				require.Equal(t, want, c, "conditions of %s with options {%s}", id, tc.options)
			}
		})
	}
}

// TestElementSwitchRules: §5.7, keys on the element override the options.
func TestElementSwitchRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  variability:
    options: {pruning: true, default_condition: true}
  node_templates:
    a:
      type: t
      requirements:
        - host: {node: b, default_condition_mode: target}
        - conn: {node: b, consistency_pruning: false, default_condition: false}
        - other: {node: b, pruning: false, conditions: x}
        - more: {node: b, pruning: false}
      artifacts:
        f: {file: f, semantic_pruning: false, default_condition: false, default_condition_mode: container-managed}
    b: {type: t, persistent: true, conditions: y}
    c: {type: t, default_semantic_condition: false, semantic_pruning: false}
    d: {type: t, conditions: z}
`
	_, got := enriched(t, src)
	for id, want := range map[string]string{
		"relation.host@0.node.a": `G({"node_presence":"b"})`,
		// Pruning on, but its consistency part off; default conditions
		// off by the element.
		"relation.conn@1.node.a": ``,
		// Pruning off and a condition of its own: no default condition.
		"relation.other@2.node.a": `"x"`,
		// Pruning off and no condition: the default condition.
		"relation.more@3.node.a": `G({"and":[{"node_presence":"a"},{"node_presence":"b"}]})`,
		"artifact.f@0.node.a":    `G({"node_presence":"a"})`,
		// persistent switches both off.
		"node.b": `"y"`,
		"node.c": ``,
		// With conditions, only pruning applies.
		"node.d": `G({"and":[]}), "z"`,
	} {
		require.Equal(t, want, got[id], id)
	}

	doc, err := yamlsrc.Parse([]byte(rulesV1+"topology_template:\n  node_templates:\n    n: {type: t, persistent: 'yes'}\n"), "t.yaml")
	require.NoError(t, err)
	g, err := graph.Build(doc, "t.yaml")
	require.NoError(t, err)
	require.EqualError(t, Conditions(g), `Element ""yes"" is not a boolean`)
}

// TestDefaultAlternativeRules: §5.10, the bratan condition per scope.
func TestDefaultAlternativeRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  inputs:
    - i: {type: string, default_alternative: true}
    - j: {type: string}
    - i: {type: string, conditions: x}
  outputs:
    - o: {value: 1}
    - o: {value: 2, default_alternative: true}
  node_templates:
    a:
      type: [{t: {conditions: x}}, {u: {default_alternative: true}}, {v: {}}]
      requirements:
        - conn: {node: b, default_alternative: true}
        - host: b
        - conn: {node: b, conditions: x}
      artifacts:
        - f: {file: x, default_alternative: true}
        - g: y
        - f: z
      properties:
        - p: {value: 1, conditions: x}
        - p: {value: 2, default_alternative: true}
        - q: 3
      technology: [{ansible: {conditions: x}}, {terraform: {default_alternative: true}}]
    b: {type: t}
`
	_, got := enriched(t, src)
	for id, want := range map[string]string{
		"input.i@0":                     `B({"not":{"or":[{"input_presence":2}]}})`,
		"output.o@1":                    `B({"not":{"or":[{"output_presence":0}]}})`,
		"type.u@1.node.a":               `B({"not":{"or":[{"node_type_presence":["a",0]},{"node_type_presence":["a",2]}]}})`,
		"relation.conn@0.node.a":        `B({"not":{"or":[{"relation_presence":["a",2]}]}})`,
		"artifact.f@0.node.a":           `B({"not":{"or":[{"artifact_presence":["a",2]}]}})`,
		"property.p@1.node.a":           `B({"not":{"or":[{"node_property_presence":["a",0]}]}})`,
		"technology.terraform@1.node.a": `B({"not":{"or":[{"technology_presence":["a",0]}]}})`,
		// The fallback of q is the only other member of its scope; a
		// fallback carries pruning: true, so it is pruned by its container
		// even in mode manual (§3.4.3).
		"property.q@3.node.a": `G({"node_presence":"a"}), B({"not":{"or":[{"node_property_presence":["a",2]}]}})`,
		"property.q@2.node.a": ``,
		"property.p@0.node.a": `"x"`,
	} {
		require.Equal(t, want, got[id], id)
	}

	// With pruning, the default condition goes in front of the bratan
	// condition; a scope of one gives not(or([])).
	_, got = enriched(t, rulesV1+`topology_template:
  variability:
    options: {property_pruning: true, property_default_condition_mode: container}
  node_templates:
    a: {type: t, properties: [{p: {value: 1, default_alternative: true}}]}
`)
	require.Equal(t, `G({"node_presence":"a"}), B({"not":{"or":[]}})`, got["property.p@0.node.a"])
}

// TestConditionSourcesRules: §5.6 steps 2, 3 and 5: variability group
// conditions, nulls and input conditions.
func TestConditionSourcesRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  variability:
    options: {%s}
    inputs:
      node.a: {type: boolean}
      relation.host@0.node.a: {type: boolean}
      plain: {type: boolean}
  node_templates:
    a:
      type: t
      conditions: [null, x]
      requirements: [{host: b}]
    b: {type: t}
  groups:
    vg1: {type: variability.groups.ConditionalMembers, members: [a], conditions: [g1, null]}
    vg2: {type: variability.groups.Root, members: [a, [a, host]], conditions: g2}
    plain: {type: tosca.groups.Root, members: [a], conditions: nope}
`
	_, got := enriched(t, fmtOptions(src, ""))
	require.Equal(t, `"x", "g1", "g2", {"variability_input":"node.a"}`, got["node.a"])
	require.Equal(t, `"g2", {"variability_input":"relation.host@0.node.a"}`, got["relation.host@0.node.a"])
	require.Equal(t, ``, got["node.b"])

	// An input condition makes the list non-empty: only pruning applies.
	_, got = enriched(t, fmtOptions(src, "enrich_input_condition: false, relation_default_condition: true"))
	require.Equal(t, `"x", "g1", "g2"`, got["node.a"])
	require.Equal(t, `"g2"`, got["relation.host@0.node.a"])
	_, got = enriched(t, fmtOptions(src, "relation_default_condition: true"))
	require.Equal(t, `"g2", {"variability_input":"relation.host@0.node.a"}`, got["relation.host@0.node.a"])
}

// TestTypeSpecificRules: §5.9.
func TestTypeSpecificRules(t *testing.T) {
	src := rulesV1 + `topology_template:
  variability:
    options: {%s}
    type_specific_conditions:
      node_types:
        t: {conditions: {variability_input: x}}
        two: {conditions: never}
      relationship_types:
        rt: {conditions: rel, consistency: true, semantic: false}
      group_types:
        gt: {conditions: grp}
      policy_types:
        pt: {conditions: {before: [2023-01-01, 2024-01-01]}}
      artifact_types:
        tosca.artifacts.File: {conditions: never}
  node_templates:
    a:
      type: t
      requirements:
        - conn: {node: b, relationship: r}
      artifacts: {f: x}
    b: {type: t}
    c: {type: [{two: {}}, {t: {}}]}
  relationship_templates:
    r: {type: rt}
  groups:
    g: {type: gt, members: [a]}
  policies:
    - p: {type: pt}
`
	g, got := enriched(t, fmtOptions(src, "default_condition: true"))
	for id, want := range map[string]string{
		// Semantic by default: selected by the default semantic switch,
		// and AND-ed with the element-generic condition.
		"node.a":                 `G({"and":[{"variability_input":"x"},{"has_artifact":"a"}]})`,
		"node.b":                 `G({"and":[{"variability_input":"x"},{"has_incoming_relation":"b"}]})`,
		"relation.conn@0.node.a": `G({"and":["rel",{"and":[{"node_presence":"a"},{"node_presence":"b"}]}]})`,
		"group.g":                `G({"and":["grp",{"has_present_member":"g"}]})`,
		// Dates are copied through JSON (ISO strings).
		"policy.p@0": `G({"and":[{"before":["2023-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z"]},{"has_present_target":0}]})`,
		// Artifact type-specific conditions never apply; nodes with two
		// types get none.
		"artifact.f@0.node.a": `G({"node_presence":"a"})`,
		"node.c":              `G({"and":[]})`,
	} {
		require.Equal(t, want, got[id], id)
	}
	// Each element gets its own copy.
	require.NotSame(t, g.NodeByName("a").Conditions[0], g.NodeByName("b").Conditions[0])

	// Pruning: the relation's wrapper is consistency only.
	_, got = enriched(t, fmtOptions(src, "relation_pruning: true, relation_consistency_pruning: false"))
	require.Equal(t, ``, got["relation.conn@0.node.a"])
	_, got = enriched(t, fmtOptions(src, "relation_pruning: true, relation_semantic_pruning: false, relation_default_condition_mode: source"))
	require.Equal(t, `G({"and":["rel",{"node_presence":"a"}]})`, got["relation.conn@0.node.a"])

	for _, tc := range []struct{ name, src, want string }{
		{"relation without relationship template", rulesV1 + `topology_template:
  variability:
    type_specific_conditions: {relationship_types: {rt: {conditions: x}}}
  node_templates:
    a: {type: t, requirements: [{host: a}]}
`, `Cannot read properties of undefined (reading 'name')`},
		{"wrapper not a map", rulesV1 + `topology_template:
  variability:
    type_specific_conditions: {group_types: {gt: 5}}
  node_templates:
    a: {type: t}
  groups:
    g: {type: gt, members: [a]}
`, `Group "g" holds type-specific condition without any condition`},
		{"policy wrapper without conditions", rulesV1 + `topology_template:
  variability:
    type_specific_conditions: {policy_types: {pt: {consistency: true}}}
  policies:
    - p: {type: pt}
`, `Policy "p@0" holds type-specific condition without any condition`},
		{"unknown relation mode", rulesV1 + `topology_template:
  variability:
    options: {relation_default_condition_mode: source-host}
  node_templates:
    a: {type: t, requirements: [{host: a}]}
`, `Relation "host@0" of node "a" has unknown mode "source-host" as default condition`},
		{"unknown property mode", rulesV1 + `topology_template:
  node_templates:
    a: {type: t, properties: [{p: {value: 1, default_condition_mode: consumed}}]}
`, `Property "p@0" of node "a" has unknown mode "consumed" as default condition`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := yamlsrc.Parse([]byte(tc.src), "t.yaml")
			require.NoError(t, err)
			g, err := graph.Build(doc, "t.yaml")
			require.NoError(t, err)
			require.EqualError(t, Conditions(g), tc.want)
		})
	}
}

// TestPresenceRules: §3.3, the presence condition of every element kind.
func TestPresenceRules(t *testing.T) {
	g, _ := enriched(t, kinds(""))
	want := map[string]string{
		"node.a":                                          `{"node_presence":"a"}`,
		"relation.conn@1.node.a":                          `{"relation_presence":["a",1]}`,
		"property.q@1.node.a":                             `{"node_property_presence":["a",1]}`,
		"property.rp@0.relation.conn@1.node.a":            `{"relation_property_presence":["a",1,0]}`,
		"property.pp@1.policy.pol@0":                      `{"policy_property_presence":[0,1]}`,
		"property.gp@0.group.g":                           `{"group_property_presence":["g",0]}`,
		"property.ap@0.artifact.f@0.node.a":               `{"artifact_property_presence":["a",0,0]}`,
		"type.t@0.node.b":                                 `{"node_type_presence":["b",0]}`,
		"type.rt@0.relation.conn@1.node.a":                `{"relation_type_presence":["a",1,0]}`,
		"type.pt@0.policy.pol@0":                          `{"policy_type_presence":[0,0]}`,
		"type.gt@0.group.g":                               `{"group_type_presence":["g",0]}`,
		"type.tosca.artifacts.File@0.artifact.f@0.node.a": `{"artifact_type_presence":["a",0,0]}`,
		"artifact.f@0.node.a":                             `{"artifact_presence":["a",0]}`,
		"technology.terraform@1.node.a":                   `{"technology_presence":["a",1]}`,
		"policy.pol@0":                                    `{"policy_presence":0}`,
		"group.g":                                         `{"group_presence":"g"}`,
		"input.i@0":                                       `{"input_presence":0}`,
		"output.o@0":                                      `{"output_presence":0}`,
		"import.0@0":                                      `{"import_presence":0}`,
	}
	seen := 0
	for _, e := range g.Elements {
		if w, ok := want[e.ID()]; ok {
			seen++
			p := Presence(e)
			require.Equal(t, w, yamlsrc.JSON(p), e.ID())
			// A fresh value on every call.
			require.NotSame(t, p, Presence(e), e.ID())
		}
	}
	require.Equal(t, len(want), seen)
}

// TestKeySets: every key the passes look up through a graph.KeySet is a
// member of it; a key left out would be skipped as if no element had it.
func TestKeySets(t *testing.T) {
	require.Equal(t, len(switchKeys), bits.OnesCount16(uint16(switchSet)), "switchKeys")
	require.Equal(t, len(cleanedKeys), bits.OnesCount16(uint16(cleanedSet)), "cleanedKeys")
	for _, k := range []string{"implied", "default_condition_mode"} {
		require.NotZero(t, graph.KeyOf(k), k)
	}
}

// TestAndOfSimplifiesAsAnd checks that generic's candidates, made by andOf,
// simplify to what the and of their parts simplifies to, as alone and
// beside another candidate: andOf leaves out the and of one part, which
// simplify would drop.
func TestAndOfSimplifiesAsAnd(t *testing.T) {
	e := &graph.Element{Kind: graph.KindProperty, Name: "p"}
	for _, tc := range []struct {
		name  string
		parts []string
	}{
		{"none", nil},
		{"one", []string{"{node_presence: a}"}},
		{"one or of one", []string{"{or: [{node_presence: a}]}"}},
		{"one or of two", []string{"{or: [{node_presence: a}, {node_presence: b}]}"}},
		{"one and of one", []string{"{and: [{relation_presence: [a, 0]}]}"}},
		{"one bratan", []string{"{not: {or: [{technology_presence: [a, 1]}]}, _bratan: true}"}},
		{"two", []string{"{node_presence: a}", "{node_presence: b}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := func() []*yamlsrc.Value {
				var vs []*yamlsrc.Value
				for _, p := range tc.parts {
					v, err := yamlsrc.Parse([]byte(p), "t.yaml")
					require.NoError(t, err)
					vs = append(vs, v)
				}
				return vs
			}
			and := func(cs []*yamlsrc.Value) *yamlsrc.Value { return yamlsrc.OpOf("and", cs) }
			want, err := simplify(and(parts()), e)
			require.NoError(t, err)
			got, err := simplify(andOf(nil, parts()), e)
			require.NoError(t, err)
			require.True(t, yamlsrc.DeepEqual(want, got), "alone: %s", tc.name)
			other, err := yamlsrc.Parse([]byte("{node_presence: c}"), "t.yaml")
			require.NoError(t, err)
			want, err = simplify(and([]*yamlsrc.Value{and(parts()), other}), e)
			require.NoError(t, err)
			got, err = simplify(and([]*yamlsrc.Value{andOf(nil, parts()), yamlsrc.Clone(other)}), e)
			require.NoError(t, err)
			require.True(t, yamlsrc.DeepEqual(want, got), "beside another: %s", tc.name)
		})
	}
}
