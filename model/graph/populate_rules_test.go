package graph

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec variability.md §3.2 (normalisation), §3.3 (element model) and §3.4
// (population): what each element kind gets from its raw entry, and the
// populator's errors in the reference's words.

const v1 = "tosca_definitions_version: tosca_variability_1_0\n"

func buildRules(t *testing.T, src string) *Graph {
	t.Helper()
	g, err := Build(doc(t, src), "t.yaml")
	require.NoError(t, err, "build of\n%s", src)
	return g
}

func ids(es []*Element) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID()
	}
	return out
}

func condJSON(e *Element) string {
	return yamlsrc.JSON(yamlsrc.NewList(e.Conditions...))
}

// TestNormalisationRules checks what the normaliser writes back into the
// document (§3.2).
func TestNormalisationRules(t *testing.T) {
	src := v1 + `imports:
  - a.yaml
  - {file: b.yaml, conditions: false}
node_types:
  app: {}
  base: {derived_from: tosca.nodes.Root}
relationship_types:
  rt: {}
artifact_types:
  zip: {}
topology_template:
  variability:
    options: {technology_required: true}
  node_templates:
    n:
      type: app
      properties:
        a: 1
        b: {value: 5}
        c: {expression: {concat: [x]}}
        d: {conditions: false}
      requirements:
        - host: m
        - conn: {node: m}
      artifacts:
        f: ./f.sh
        z: {file: z.zip, type: zip}
        u: {file: u.txt}
      technology: Ansible
    m:
      type: [{m1: {}}]
      properties:
        - a: 1
        - b: {value: 2, conditions: false}
        - c: [1, 2]
        - d: {conditions: false}
`
	g := buildRules(t, src)
	d := g.Doc
	js := func(v *Value) string { return yamlsrc.JSON(v) }
	require.Equal(t, `[{"file":"a.yaml"},{"file":"b.yaml","conditions":false}]`, js(d.Get("imports")))
	require.Equal(t, `{"derived_from":"tosca.nodes.Root"}`, js(d.Get("node_types").Get("app")))
	require.Equal(t, `{"derived_from":"tosca.nodes.Root"}`, js(d.Get("node_types").Get("base")))
	// Quirk: the relationship root is misspelt (§3.2).
	require.Equal(t, `{"derived_from":"tosca.relationship.Root"}`, js(d.Get("relationship_types").Get("rt")))
	require.Equal(t, `{"derived_from":"tosca.artifacts.Root"}`, js(d.Get("artifact_types").Get("zip")))
	// technology_required is deleted, and so are the then empty options
	// and variability.
	require.Nil(t, g.Topology().Get("variability"))

	nodes := g.Topology().Get("node_templates")
	require.True(t, nodes.IsList())
	n := nodes.List()[0].Get("n")
	require.Equal(t, `[{"app":{}}]`, js(n.Get("type")))
	// Map form: nothing is conditional; every value is wrapped.
	require.Equal(t, `[{"a":{"value":1}},{"b":{"value":{"value":5}}},{"c":{"value":{"expression":{"concat":["x"]}}}},{"d":{"value":{"conditions":false}}},`+
		`{"a":{"value":"VINTNER_UNDEFINED","default_alternative":true,"implied":true,"pruning":true}},`+
		`{"b":{"value":"VINTNER_UNDEFINED","default_alternative":true,"implied":true,"pruning":true}},`+
		`{"c":{"value":"VINTNER_UNDEFINED","default_alternative":true,"implied":true,"pruning":true}},`+
		`{"d":{"value":"VINTNER_UNDEFINED","default_alternative":true,"implied":true,"pruning":true}}]`, js(n.Get("properties")))
	require.Equal(t, `[{"host":{"node":"m"}},{"conn":{"node":"m"}}]`, js(n.Get("requirements")))
	require.Equal(t, `[{"f":{"file":"./f.sh","type":[{"tosca.artifacts.File":{}}]}},{"z":{"file":"z.zip","type":[{"zip":{}}]}},{"u":{"file":"u.txt","type":[{"tosca.artifacts.File":{}}]}}]`, js(n.Get("artifacts")))
	// Technology names are lower-cased and get an assign of the first type.
	require.Equal(t, `[{"ansible":{"assign":"app~app::ansible"}}]`, js(n.Get("technology")))
	m := nodes.List()[1].Get("m")
	// List form: a map with value or expression is an assignment; a
	// map with neither is a value.
	props := m.Get("properties").List()
	require.Equal(t, `{"a":{"value":1}}`, js(props[0]))
	require.Equal(t, `{"b":{"value":2,"conditions":false}}`, js(props[1]))
	require.Equal(t, `{"c":{"value":[1,2]}}`, js(props[2]))
	require.Equal(t, `{"d":{"value":{"conditions":false}}}`, js(props[3]))
	// Every node gets an empty technology list.
	require.Equal(t, `[]`, js(m.Get("technology")))

	// Normalising again changes nothing (§3).
	before := js(d)
	g2, err := Build(d, "t.yaml")
	require.NoError(t, err)
	require.Equal(t, before, js(g2.Doc))

	// Conditions of the elements read from the raw entries.
	mb := g.NodeByName("m").PropertiesNamed("b")
	require.Len(t, mb, 2)
	require.Equal(t, `[false]`, condJSON(mb[0]))
	require.Equal(t, `[false]`, condJSON(mb[1]), "a fallback has default_alternative")
	require.True(t, mb[1].DefaultAlternative)
	require.Equal(t, "VINTNER_UNDEFINED", mb[1].Value.Str())
	require.Equal(t, `[false]`, condJSON(g.Imports[1]))
	require.Equal(t, []string{"import.0@0", "import.1@1"}, ids(g.Imports))
}

// TestElementAttributeRules: §3.4.2, the initial condition list and the
// default-alternative flag per element kind.
func TestElementAttributeRules(t *testing.T) {
	src := v1 + `topology_template:
  variability:
    options: {bratans_unknown: true}
  inputs:
    - i: {type: string, default_alternative: false, conditions: x}
    - i: {type: string, default_alternative: true}
  outputs:
    - o: {value: 1, default_alternative: true, conditions: [a, b]}
  node_templates:
    n:
      type: [{t: {default_alternative: false}}, {u: {conditions: x}}]
      default_alternative: true
      conditions: [a, b]
      properties:
        - p: {value: 1, default_alternative: true, conditions: c}
        - p: {value: 2, conditions: d}
      requirements:
        - host: {node: m, default_alternative: false, conditions: e}
        - conn: {node: m, conditions: [f], implies: []}
      artifacts:
        - a: {file: f, default_alternative: true}
      technology: [{ansible: {default_alternative: null, conditions: g}}]
      weight: 0.25
      implies: [[x, y]]
    m: {type: t, conditions: h, implies: null}
  groups:
    g: {type: gt, members: [n], default_alternative: true, conditions: i}
  policies:
    - p: {type: pt, conditions: j}
`
	g := buildRules(t, src)
	for _, tc := range []struct {
		id, conds string
		alt       bool
	}{
		// A present default_alternative key (true or false) makes the
		// list [false] for relations, properties, types, artifacts and
		// technologies.
		{"type.t@0.node.n", `[false]`, false},
		{"type.u@1.node.n", `["x"]`, false},
		{"property.p@0.node.n", `[false]`, true},
		{"property.p@1.node.n", `["d"]`, false},
		{"relation.host@0.node.m", "", false},
		{"relation.host@0.node.n", `[false]`, false},
		{"relation.conn@1.node.n", `["f"]`, false},
		{"artifact.a@0.node.n", `[false]`, true},
		// A null default_alternative is absent.
		{"technology.ansible@0.node.n", `["g"]`, false},
		// Inputs and outputs keep their conditions but know the flag.
		{"input.i@0", `["x"]`, false},
		{"input.i@1", `[]`, true},
		{"output.o@0", `["a","b"]`, true},
		// Nodes, groups and policies ignore it.
		{"node.n", `["a","b"]`, false},
		{"node.m", `["h"]`, false},
		{"group.g", `["i"]`, false},
		{"policy.p@0", `["j"]`, false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			if tc.conds == "" {
				for _, e := range g.Elements {
					require.NotEqual(t, tc.id, e.ID())
				}
				return
			}
			e := byID(t, g, tc.id)
			require.Equal(t, tc.conds, condJSON(e))
			require.Equal(t, tc.alt, e.DefaultAlternative)
		})
	}
	n := g.NodeByName("n")
	require.Equal(t, 0.25, n.Weight)
	require.Equal(t, 1.0, g.NodeByName("m").Weight)
	require.Equal(t, 1.0, n.Technologies[0].Weight)
	require.Equal(t, "t~t::ansible", n.Technologies[0].Assign)
	require.Equal(t, "manual.node.n", n.ManualID())
	require.Equal(t, "manual.property.p@1.node.n", n.Properties[1].ManualID())
	require.Equal(t, []*Element{n}, g.GroupByName("g").Members)
	require.Equal(t, []*Element{g.GroupByName("g")}, n.Groups)
	require.False(t, g.GroupByName("g").Variability)
	require.Equal(t, []*Element{g.Inputs[0], g.Inputs[1]}, g.InputsByName("i"))
	require.Equal(t, []*Element{g.Outputs[0]}, g.OutputsByName("o"))
	require.Empty(t, g.OutputsByName("i"))
	for i, e := range g.Elements {
		require.Equal(t, i, int(e.Seq), e.ID())
		// An implies entry, even null or an empty list.
		implies := e.ID() == "node.n" || e.ID() == "node.m" || e.ID() == "relation.conn@1.node.n"
		require.Equal(t, implies, e.Keys&KeyImplies != 0, "%s has implies", e.ID())
	}
}

// TestGlobalOrderRules: §3.3, types, nodes, relations, properties,
// policies, groups, inputs, artifacts, imports, technologies, outputs;
// fallbacks directly after each container's own properties.
func TestGlobalOrderRules(t *testing.T) {
	g := buildRules(t, v1+`imports: [x.yaml]
topology_template:
  inputs: {i: {type: string}}
  outputs: {o: {value: 1}}
  node_templates:
    a:
      type: ta
      properties: [{p: 1}, {q: 2}, {p: 3}]
      requirements: [{host: b}]
      artifacts: {f: {file: f, properties: {x: 1}}}
      technology: [{t1: {}}]
    b:
      type: tb
  groups:
    g: {type: gt, members: [a], properties: {y: 1}}
  policies:
    - p: {type: pt, properties: {z: 1}}
`)
	require.Equal(t, []string{
		"type.ta@0.node.a", "type.tosca.artifacts.File@0.artifact.f@0.node.a", "type.tb@0.node.b", "type.gt@0.group.g", "type.pt@0.policy.p@0",
		"node.a", "node.b",
		"relation.host@0.node.a",
		"property.p@0.node.a", "property.q@1.node.a", "property.p@2.node.a", "property.p@3.node.a", "property.q@4.node.a",
		"property.x@0.artifact.f@0.node.a", "property.x@1.artifact.f@0.node.a",
		"property.y@0.group.g", "property.y@1.group.g",
		"property.z@0.policy.p@0", "property.z@1.policy.p@0",
		"policy.p@0", "group.g", "input.i@0", "artifact.f@0.node.a", "import.0@0", "technology.t1@0.node.a", "output.o@0",
	}, ids(g.Elements))
	a := g.NodeByName("a")
	require.Equal(t, `Property "p@3" of node "a"`, a.Properties[3].DisplayUpper())
	require.Equal(t, `property "x@1" of artifact "f@0" of node "a"`, g.Artifacts[0].Properties[1].Display())
	require.Equal(t, `Policy "p@0"`, g.Policies[0].DisplayUpper())
	require.Equal(t, `Group "g"`, g.Groups[0].DisplayUpper())
	require.Equal(t, `Import "0@0"`, g.Imports[0].DisplayUpper())
	require.Equal(t, `Technology "t1@0" of node "a"`, a.Technologies[0].DisplayUpper())
	// Hosting relations and their accessors.
	r := a.Outgoing[0]
	require.Same(t, a, r.Source())
	require.Equal(t, []*Element{g.NodeByName("b")}, a.Hosts())
	require.True(t, a.HasHost())
	require.False(t, g.NodeByName("b").HasHost())
	require.Empty(t, g.NodeByName("b").Hosts())
	require.Equal(t, []*Element{r}, g.NodeByName("b").Ingoing)
}

// TestConsumerRules: §3.4.4, what a property value consumes.
func TestConsumerRules(t *testing.T) {
	head := v1 + `topology_template:
  variability:
    options: {bratans_unknown: true}
  inputs:
    - in1: {type: string}
    - in2: {type: string}
  node_templates:
    other:
      type: t
      artifacts: {art: {file: a}}
    n:
      type: t
      requirements:
        - host: other
        - host: other
      artifacts: {art: {file: a}}
      properties:
        - p: `
	tail := `
  groups:
    grp: {type: gt, members: [n]}
  policies:
    - pol: {type: pt}
`
	tests := []struct {
		value string
		want  []string
		err   string
	}{
		{value: "{get_input: in2}", want: []string{"input.in2@1"}},
		{value: "{get_input: 0}", want: []string{"input.in1@0"}},
		{value: "{get_input: in3}", err: `Input "in3" not found`},
		{value: "{get_input: [in1]}", err: `Element "["in1"]" is neither a string nor a number`},
		{value: "{get_property: [SELF, x]}", want: []string{"node.n"}},
		{value: "{get_attribute: [other, x]}", want: []string{"node.other"}},
		{value: "{get_property: [grp, x]}", want: []string{"group.grp"}},
		{value: "{get_property: [pol, x]}", want: []string{"policy.pol@0"}},
		{value: "{get_property: [nope, x]}", err: `Could not get element "nope" from context element "node "n"" and context cached "undefined"`},
		// Three items: the targets of the requirements of that name, else
		// the artifacts of that name.
		{value: "{get_property: [SELF, host, x]}", want: []string{"node.other", "node.other"}},
		{value: "{get_property: [other, art, x]}", want: []string{"artifact.art@0.node.other"}},
		{value: "{get_property: [SELF, nope, x]}", err: `Reference "[object Object]" at property property "p@0" of node "n" did not find any relation or artifact.`},
		{value: "{get_property: [SELF, x, 0]}", err: `Element "0" is not a string`},
		{value: "{get_property: SELF}", err: `Element ""SELF"" is not an array`},
		// Other lengths consume nothing.
		{value: "{get_property: [SELF]}", want: nil},
		{value: "{get_property: [SELF, a, b, c]}", want: nil},
		// Unfurl's eval: exactly two parts.
		{value: "{eval: 'other::x'}", want: []string{"node.other"}},
		{value: "{eval: '::other::x'}", want: nil},
		{value: "{eval: 5}", err: `Element "5" is not a string`},
		// Plain values and lists consume nothing.
		{value: "plain", want: nil},
		{value: "[{get_input: in1}]", want: nil},
		{value: "{concat: [a]}", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			g, err := Build(doc(t, head+tc.value+tail), "t.yaml")
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			p := g.NodeByName("n").Properties[0]
			require.Equal(t, tc.want, nilIfEmpty(ids(p.Consuming)))
			for _, c := range p.Consuming {
				if c.Kind == KindInput {
					require.Equal(t, []*Element{p}, c.Consumers)
				}
			}
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestProducerRules: §3.4.5, what an output's value refers to.
func TestProducerRules(t *testing.T) {
	head := v1 + `topology_template:
  node_templates:
    n: {type: t}
  outputs:
    o: `
	tests := []struct {
		value string
		want  []string
		err   string
	}{
		{value: "{value: {get_property: [n, x]}}", want: []string{"node.n"}},
		{value: "{value: {get_attribute: [n, x]}}", want: []string{"node.n"}},
		{value: "{value: {eval: 'n::x'}}", want: []string{"node.n"}},
		{value: `{value: "{{ '::n::x' | eval }}"}`, want: []string{"node.n"}},
		{value: `{value: "url: {{ \"::n::x\" | eval }}/path"}`, want: []string{"node.n"}},
		// Spacing exactly as shown, or nothing.
		{value: `{value: "{{'::n::x' | eval }}"}`, want: nil},
		{value: `{value: "{{ '::n::x' |eval }}"}`, want: nil},
		{value: "{value: {get_input: i}}", want: nil},
		{value: "{value: 5}", want: nil},
		{value: "{value: {get_property: [m, x]}}", err: `Node "m" not found`},
		{value: `{value: "{{ '::m::x' | eval }}"}`, err: `Node "m" not found`},
		{value: "{value: {get_property: [n, r, x]}}", err: `Not implemented`},
		{value: "{type: string}", err: `Unexpected error`},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			g, err := Build(doc(t, head+tc.value+"\n"), "t.yaml")
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, nilIfEmpty(ids(g.Outputs[0].Producers)))
		})
	}
}

// TestPopulatorErrorRules: the errors of §3.4.1 in the reference's words.
func TestPopulatorErrorRules(t *testing.T) {
	tt := "topology_template:\n"
	tests := []struct{ name, src, want string }{
		{"version missing", "topology_template: {}\n", "Unsupported TOSCA definitions version"},
		{"policies not a list", v1 + tt + "  policies: {p: {type: t}}\n", "Policies must be an array"},
		{"node twice", v1 + tt + "  node_templates:\n    - a: {type: t}\n    - a: {type: t}\n", `Node "a" defined multiple times`},
		{"node CONTAINER", v1 + tt + "  node_templates:\n    CONTAINER: {type: t}\n", `Node must not be named "CONTAINER"`},
		{"input defaults", v1 + tt + "  inputs:\n    - i: {default_alternative: true}\n    - j: {}\n    - i: {default_alternative: true}\n", `Input "i@0" has multiple defaults`},
		{"output defaults", v1 + tt + "  outputs:\n    - o: {value: 1, default_alternative: true}\n    - o: {value: 2, default_alternative: true}\n", `Output "o@0" has multiple defaults`},
		{"type defaults", v1 + tt + "  node_templates:\n    n: {type: [{a: {default_alternative: true}}, {b: {default_alternative: true}}]}\n", `Node "n" has multiple default types`},
		{"relationship template object", v1 + tt + "  node_templates:\n    n: {type: t, requirements: [{host: {node: n, relationship: {type: r}}}]}\n", `Relation "host" of "node "n"" contains a relationship template which is currently not supported`},
		{"relationship missing", v1 + tt + "  node_templates:\n    n: {type: t, requirements: [{host: {node: n, relationship: r}}]}\n", `Relationship "r" of relation "host" of node "n" does not exist!`},
		{"relationship used twice", v1 + tt + "  node_templates:\n    n: {type: t, requirements: [{a: {node: n, relationship: r}}, {b: {node: n, relationship: r}}]}\n  relationship_templates:\n    r: {type: rt}\n", `Relation "r" is used multiple times`},
		{"relation defaults", v1 + tt + "  node_templates:\n    n: {type: t, requirements: [{a: {node: n, default_alternative: true}}, {a: {node: n, default_alternative: true}}]}\n", `Relation "a@0" of node "n" has multiple defaults`},
		{"artifact defaults", v1 + tt + "  node_templates:\n    n: {type: t, artifacts: [{a: {file: x, default_alternative: true}}, {a: {file: y, default_alternative: true}}]}\n", `Artifact "a@0" of node "n" has multiple defaults`},
		{"technology defaults", v1 + tt + "  node_templates:\n    n: {type: t, technology: [{a: {default_alternative: true}}, {b: {default_alternative: true}}]}\n", `Node "n" has multiple default technologies`},
		{"technology weight not a number", v1 + tt + "  node_templates:\n    n: {type: t, technology: [{a: {weight: heavy}}]}\n", `Element ""heavy"" is not a number`},
		{"technology weight negative", v1 + tt + "  node_templates:\n    n: {type: t, technology: [{a: {weight: -0.5}}]}\n", `Weight "-0.5" of technology "a@0" of node "n" is a negative number`},
		{"technology weight above 1", v1 + tt + "  node_templates:\n    n: {type: t, technology: [{a: {weight: 2}}]}\n", `Weight "2" of technology "a@0" of node "n" is larger than 1`},
		{"node weight negative", v1 + tt + "  node_templates:\n    n: {type: t, weight: -1}\n", `Weight "-1" of node "n" is a negative number`},
		{"node weight above 1", v1 + tt + "  node_templates:\n    n: {type: t, weight: 1.5}\n", `Weight "1.5" of node "n" is larger than 1`},
		{"node weight a string", v1 + tt + "  node_templates:\n    n: {type: t, weight: heavy}\n", `Weight "heavy" of node "n" is not a number or boolean`},
		{"group twice", v1 + tt + "  groups:\n    - g: {type: t, members: []}\n    - g: {type: t, members: []}\n", `Group "g" defined multiple times`},
		{"group member unknown", v1 + tt + "  groups:\n    g: {type: t, members: [x]}\n", `Node "x" not found`},
		{"group member relation unknown", v1 + tt + "  node_templates:\n    n: {type: t}\n  groups:\n    g: {type: t, members: [[n, 0]]}\n", "Relation \"[\n    \"n\",\n    0\n]\" not found"},
		{"group member bad format", v1 + tt + "  groups:\n    g: {type: t, members: [{n: 1}]}\n", "Member \"{\n    \"n\": 1\n}\" has bad format"},
		{"variability group with types", v1 + tt + "  groups:\n    g: {type: [{variability.groups.Root: {}}, {other: {}}], members: []}\n", `Group "g" is a variability group but has conditional types`},
		{"policy target unknown", v1 + tt + "  policies:\n    - p: {type: t, targets: [x]}\n", `Policy target "x" of policy "p@0" does not exist`},
		{"persistent not a boolean", "tosca_definitions_version: tosca_variability_1_0_rc_2\n" + tt + "  node_templates:\n    n: {type: t, persistent: 'yes'}\n", `Element ""yes"" is not a boolean`},
		{"persistent V1 host mode", v1 + tt + "  variability:\n    options: {node_default_condition_mode: incomingnaive-host}\n  node_templates:\n    n: {type: t}\n", `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`},
		// RC2 checks the persistent node even for a mode without host in
		// graph #3; in one build the user's mode counts.
		{"persistent RC2 false", "tosca_definitions_version: tosca_variability_1_0_rc_2\n" + tt + "  node_templates:\n    n: {type: t, persistent: false}\n", `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`},
		{"plugins", v1 + tt + "  variability:\n    plugins: {technology: [./p.js]}\n", "technology plugins are not supported"},
		{"rules not a list", v1 + tt + "  variability:\n    qualities: 5\n", "Rules not loaded"},
		{"rule component", v1 + tt + "  variability:\n    qualities: [{technology: a, component: 5}]\n", `Element "5" is not a string`},
		{"rule hosting", v1 + tt + "  variability:\n    qualities: [{technology: a, component: c, hosting: x}]\n", `Element ""x"" is not an array`},
		{"rule hosting item", v1 + tt + "  variability:\n    qualities: [{technology: a, component: c, hosting: [x, 1]}]\n", `Element "1" is not a string`},
		{"rule conditions", v1 + tt + "  variability:\n    qualities: [{technology: a, component: c, conditions: false}]\n", `Element "false" is not an object`},
		{"rule weight", v1 + tt + "  variability:\n    qualities: [{technology: a, component: c, weight: high}]\n", `Element ""high"" is not a number`},
		{"rule assign", v1 + tt + "  variability:\n    qualities: [{technology: a, component: c, assign: 1}]\n", `Element "1" is not a string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(doc(t, tc.src), "t.yaml")
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestPersistentCheckRules: §3.4.6, when the check passes.
func TestPersistentCheckRules(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"RC3 checks are off", "tosca_definitions_version: tosca_variability_1_0_rc_3\ntopology_template:\n  node_templates:\n    n: {type: t}\n"},
		{"RC2 persistent_check off", "tosca_definitions_version: tosca_variability_1_0_rc_2\ntopology_template:\n  variability:\n    options: {persistent_check: false}\n  node_templates:\n    n: {type: t}\n"},
		{"RC2 checks off", "tosca_definitions_version: tosca_variability_1_0_rc_2\ntopology_template:\n  variability:\n    options: {checks: false}\n  node_templates:\n    n: {type: t}\n"},
		{"RC2 mode without host", "tosca_definitions_version: tosca_variability_1_0_rc_2\ntopology_template:\n  variability:\n    options: {node_default_condition_mode: incoming}\n  node_templates:\n    n: {type: t}\n"},
		{"RC2 a persistent node", "tosca_definitions_version: tosca_variability_1_0_rc_2\ntopology_template:\n  node_templates:\n    n: {type: t}\n    m: {type: t, persistent: true}\n"},
		{"V1 default mode", v1 + "topology_template:\n  node_templates:\n    n: {type: t}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := buildRules(t, tc.src)
			for _, n := range g.Nodes {
				require.Equal(t, n.Name == "m", n.Persistent(), n.Name)
			}
		})
	}
}

// TestInheritanceRules: §5.2 and §5.3, type walks and the managed flag.
func TestInheritanceRules(t *testing.T) {
	src := v1 + `node_types:
  tosca.nodes.Root: {derived_from: tosca.entity.Root}
  base:
    artifacts:
      deploy: {type: zip, file: x}
  app: {derived_from: base}
  abstract: {metadata: {vintner_abstract: 'true'}}
  notabstract: {metadata: {vintner_abstract: true}}
  orphan: {derived_from: missing}
  loop1: {derived_from: loop2}
  loop2: {derived_from: loop1}
  strdef:
    artifacts: {plain: some/file}
artifact_types:
  tosca.artifacts.Root: {derived_from: tosca.entity.Root}
  tosca.artifacts.File: {}
  zip: {derived_from: tosca.artifacts.File}
topology_template:
  node_templates:
    a: {type: app}
    b: {type: abstract}
    c: {type: notabstract}
    d: {type: undefinedtype}
    e: {type: [{app: {}}, {base: {}}]}
    f: {type: undefinedtype, managed: false}
    g: {type: undefinedtype, technology: ansible}
    h: {type: app, managed: 'no'}
`
	g := buildRules(t, src)
	names, defs, err := g.TypeChain("node_types", "app")
	require.NoError(t, err)
	require.Equal(t, []string{"app", "base", "tosca.nodes.Root"}, names)
	require.Len(t, defs, 3)
	require.Same(t, g.TypeDef("node_types", "base"), defs[1])
	require.Nil(t, g.TypeDef("node_types", "nope"))
	for _, tc := range []struct {
		key, typ, question string
		want               bool
		err                string
	}{
		{"node_types", "app", "base", true, ""},
		{"node_types", "app", "app", true, ""},
		{"node_types", "app", "tosca.nodes.Root", true, ""},
		{"node_types", "base", "app", false, ""},
		{"node_types", "app", "tosca.entity.Root", false, ""},
		{"artifact_types", "zip", "tosca.artifacts.File", true, ""},
		{"node_types", "nope", "base", false, `starting node_types "nope" has no definition`},
		{"node_types", "orphan", "base", false, `node_types "missing" has no definition`},
		// Loading rejects such loops in the reference (§2.5); the walk
		// guards against them in v4t's words.
		{"node_types", "loop1", "base", false, `node_types "loop1" is derived from itself (loop in derived_from)`},
		{"group_types", "g", "base", false, `starting group_types "g" has no definition`},
	} {
		ok, err := g.IsA(tc.key, tc.typ, tc.question)
		if tc.err != "" {
			require.EqualError(t, err, tc.err, "%s is-a %s", tc.typ, tc.question)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, ok, "%s is-a %s", tc.typ, tc.question)
	}

	for _, tc := range []struct {
		node string
		want bool
		err  string
	}{
		{"a", true, ""},
		{"b", false, ""},
		// Quirk: only the string 'true' marks an abstract type.
		{"c", true, ""},
		{"d", false, `Node type "undefinedtype" does not exist`},
		{"e", false, `Node "e" has more than one type`},
		{"f", false, ""},
		{"g", true, ""},
		{"h", false, `Element ""no"" is not a boolean`},
	} {
		m, err := g.NodeByName(tc.node).Managed()
		if tc.err != "" {
			require.EqualError(t, err, tc.err, tc.node)
			continue
		}
		require.NoError(t, err, tc.node)
		require.Equal(t, tc.want, m, tc.node)
	}

	for _, tc := range []struct {
		nodeType, artifactType string
		want                   bool
		err                    string
	}{
		{"app", "zip", true, ""},
		{"app", "tosca.artifacts.File", true, ""},
		{"base", "zip", true, ""},
		{"abstract", "zip", false, ""},
		// A string definition counts as tosca.artifacts.File.
		{"strdef", "tosca.artifacts.File", true, ""},
		{"strdef", "zip", false, ""},
		{"nope", "zip", false, `starting node_types "nope" has no definition`},
	} {
		ok, err := g.HasArtifactDefinition(tc.nodeType, tc.artifactType)
		if tc.err != "" {
			require.EqualError(t, err, tc.err, "%s has %s", tc.nodeType, tc.artifactType)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, ok, "%s has %s", tc.nodeType, tc.artifactType)
	}

	st, err := g.NodeByName("a").SingleType()
	require.NoError(t, err)
	require.Equal(t, "type.app@0.node.a", st.ID())
	_, err = (&Element{Kind: KindGroup, Name: "x", Index: -1, Graph: g, TemplateParts: &TemplateParts{}}).SingleType()
	require.EqualError(t, err, `Group "x" has no type`)

	for k, want := range map[Kind]string{KindNode: "node_types", KindArtifact: "artifact_types", KindGroup: "group_types",
		KindPolicy: "policy_types", KindRelation: "relationship_types"} {
		require.Equal(t, want, TypeKey(k))
	}
}

// TestAfterCleanupRules: graph #3 as derived from graph #2 (§5.13).
func TestAfterCleanupRules(t *testing.T) {
	src := "tosca_definitions_version: tosca_variability_1_0_rc_2\n" + `topology_template:
  variability:
    options: {node_default_condition_mode: incoming, checks: true}
  inputs:
    i: {type: string}
  node_templates:
    n: {type: t, persistent: true, properties: {p: {get_input: i}}}
  groups:
    vg:
      type: variability.groups.ConditionalMembers
      members: [n]
      conditions: x
      properties: {q: {get_input: i}}
    plain: {type: tosca.groups.Root, members: [n], properties: {r: 1}}
`
	g := buildRules(t, src)
	vg := g.GroupByName("vg")
	require.True(t, vg.Variability)
	require.Len(t, g.Inputs[0].Consumers, 2)
	before := len(g.Elements)
	require.NoError(t, AfterCleanup(g))
	require.Nil(t, g.GroupByName("vg"))
	require.Equal(t, []string{"group.plain"}, ids(g.Groups))
	require.Equal(t, []string{"property.p@0.node.n"}, ids(g.Inputs[0].Consumers))
	require.Equal(t, []*Element{g.GroupByName("plain")}, g.NodeByName("n").Groups)
	// The variability group, its type and its two properties are gone.
	require.Equal(t, before-4, len(g.Elements))
	for i, e := range g.Elements {
		require.Equal(t, i, int(e.Seq))
		require.False(t, e.DefaultAlternative, e.ID())
		require.False(t, strings.Contains(e.ID(), "group.vg"), e.ID())
	}

	// A policy targeting a variability group loses its target.
	g = buildRules(t, v1+`topology_template:
  node_templates:
    n: {type: t}
  groups:
    vg: {type: variability.groups.Root, members: [n]}
  policies:
    - p: {type: pt, targets: [vg]}
`)
	require.EqualError(t, AfterCleanup(g), `Policy target "vg" of policy "p@0" does not exist`)

	// Graph #3 checks the persistent node with the options as they are
	// now: without a persistent node RC2 fails.
	g = buildRules(t, "tosca_definitions_version: tosca_variability_1_0_rc_2\n"+`topology_template:
  variability:
    options: {persistent_check: false}
  node_templates:
    n: {type: t}
`)
	g.Variability().Get("options").Map().Delete("persistent_check")
	require.EqualError(t, AfterCleanup(g), `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`)

	// A null variability input definition fails the validator's first read.
	g = buildRules(t, v1+`topology_template:
  variability:
    inputs:
      a: {type: boolean}
      b: null
`)
	err := AfterCleanup(g)
	require.Error(t, err)
	require.Contains(t, err.Error(), `expected the variability input "b" as a map, found null`)
	// ... unless an earlier definition has a feature key.
	g = buildRules(t, v1+`topology_template:
  variability:
    inputs:
      a: {type: boolean, requires: c}
      b: null
`)
	require.NoError(t, AfterCleanup(g))
}

// TestValueHelpers: the JavaScript conversions used in messages.
func TestValueHelpers(t *testing.T) {
	for _, tc := range []struct {
		src                         string
		describe, jsString, json    string
		empty, jsEmptyOK, jsIsEmpty bool
	}{
		{"", "nothing", "undefined", "undefined", true, true, true},
		{"null", "null", "null", "null", true, true, true},
		{"{}", "an empty map", "[object Object]", "{}", true, true, true},
		{"{a: 1}", "a map", "[object Object]", `{"a":1}`, false, true, false},
		{"[]", "a list", "", "[]", true, true, true},
		{"[1, null, [2, 3]]", "a list", "1,,2,3", "[1,null,[2,3]]", false, true, false},
		{"abc", "a string", "abc", `"abc"`, false, true, false},
		{"''", "a string", "", `""`, true, true, true},
		{"1.5", "a number", "1.5", "1.5", false, false, false},
		{"true", "a boolean", "true", "true", false, false, false},
		{"2023-01-01", "a date", "", "", true, true, true},
	} {
		t.Run(tc.src, func(t *testing.T) {
			v := yv(t, tc.src)
			require.Equal(t, tc.describe, Describe(v))
			if tc.describe != "a date" {
				require.Equal(t, tc.jsString, yamlsrc.String(v))
				require.Equal(t, tc.json, JSONOf(v))
			}
			require.Equal(t, tc.empty, IsEmpty(v))
			empty, ok := JSIsEmpty(v)
			require.Equal(t, tc.jsEmptyOK, ok)
			require.Equal(t, tc.jsIsEmpty, empty)
		})
	}
	require.Equal(t, "undefined", PrettyOf(nil))
}

// TestLean: with BuildOptions.Lean, a node or relationship template's
// `type: name` stays a string whose type element has a shared empty map as
// Raw and the string as Entry, other `type: name`s (artifacts, groups,
// policies) become [{name: {}}] around the same map, and a node template
// without technologies gets no technology list. Without it, every
// `type: name` becomes [{name: {}}] with a map of its own, and every node
// template a technology list. Types written as lists and technologies
// written stay as they are either way.
func TestLean(t *testing.T) {
	const src = `tosca_definitions_version: tosca_variability_1_0
topology_template:
  node_templates:
    a: {type: t}
    b: {type: t, artifacts: {x: {type: f, file: x}}, technology: null}
    c: {type: [{u: {conditions: true}}], technology: [{Helm: {assign: x}}]}
    d: {type: v, technology: [{Ansible: {}}], requirements: [{r: {node: a, relationship: rt}}]}
  relationship_templates:
    rt: {type: w}
  groups:
    g: {type: gt, members: [a]}
`
	for _, lean := range []bool{false, true} {
		g, err := BuildWith(doc(t, src), "t.yaml", BuildOptions{Lean: lean})
		require.NoError(t, err)
		types := map[string]*Element{}
		for _, ty := range g.Types {
			types[ty.Container.Name+"/"+ty.Name] = ty
			require.Zero(t, ty.Index)
			require.Equal(t, ty.Name == "u", len(ty.Conditions) == 1, "lean %v: %s", lean, ty.Display())
		}
		require.Len(t, types, 7)
		a, b, art, c, rel, grp := types["a/t"], types["b/t"], types["x/f"], types["c/u"], types["r/w"], types["g/gt"]
		require.Equal(t, lean, a.Raw == b.Raw, "lean %v: nodes' types", lean)
		require.Equal(t, lean, a.Raw == art.Raw, "lean %v: an artifact's type", lean)
		require.Equal(t, lean, a.Raw == rel.Raw, "lean %v: a relationship's type", lean)
		require.Equal(t, lean, a.Raw == grp.Raw, "lean %v: a group's type", lean)
		require.NotSame(t, a.Raw, c.Raw, "lean %v: a written list", lean)
		for _, e := range []*Element{a, b, art, rel, grp} {
			require.True(t, e.Raw.IsMap() && e.Raw.Map().Len() == 0, "lean %v: %s", lean, e.Display())
		}
		require.Equal(t, diag.Pos{File: "t.yaml", Line: 4, Col: 15}, a.Pos(), "lean %v", lean)
		require.Equal(t, diag.Pos{File: "t.yaml", Line: 9, Col: 16}, rel.Pos(), "lean %v", lean)

		nodeType, relType := `[{"t":{}}]`, `[{"w":{}}]`
		if lean {
			nodeType, relType = `"t"`, `"w"`
		}
		require.Equal(t, nodeType, yamlsrc.JSON(g.Nodes[0].Raw.Get("type")))
		require.Equal(t, relType, yamlsrc.JSON(g.Doc.Get("topology_template").Get("relationship_templates").Get("rt").Get("type")))
		require.Equal(t, `[{"f":{}}]`, yamlsrc.JSON(g.Artifacts[0].Raw.Get("type")))
		require.Equal(t, `[{"gt":{}}]`, yamlsrc.JSON(g.Groups[0].Raw.Get("type")))

		want := map[bool][]string{false: {"[]", "[]"}, true: {"undefined", "null"}}[lean]
		for i, n := range g.Nodes[:2] {
			require.Equal(t, want[i], JSONOf(n.Raw.Get("technology")), "lean %v: %s", lean, n.Display())
			require.Empty(t, n.Technologies)
		}
		// A lean build leaves the node templates a map, in their order.
		nodes := g.Doc.Get("topology_template").Get("node_templates")
		require.Equal(t, lean, nodes.IsMap(), "lean %v: node templates", lean)
		for i, n := range g.Nodes {
			require.Equal(t, string(rune('a'+i)), n.Name)
			require.Equal(t, diag.Pos{File: "t.yaml", Line: 4 + i, Col: 8}, n.Pos(), "lean %v: %s", lean, n.Display())
		}
		require.Equal(t, `[{"helm":{"assign":"x"}}]`, yamlsrc.JSON(g.Nodes[2].Raw.Get("technology")))
		require.Len(t, g.Nodes[2].Technologies, 1)
		// A technology without assign is named after the first type.
		require.Equal(t, `[{"ansible":{"assign":"v~v::ansible"}}]`, yamlsrc.JSON(g.Nodes[3].Raw.Get("technology")))
	}
}

// TestLeanNodeErrors: a lean build, which reads the node templates from
// their map, fails on each malformed one as a full build does, at the same
// position.
func TestLeanNodeErrors(t *testing.T) {
	for _, nodes := range []string{
		"{a: null}", "{a: 5}", "{a: [x]}", "{a: {}}", "{SELF: {type: t}}", "{CONTAINER: {type: t}}",
		"{a: {type: t}, b: {type: t, requirements: [{r: {node: c}}]}}", "{a: {type: t, requirements: 5}}", "{a: {type: 5}}",
	} {
		src := "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates: " + nodes + "\n"
		_, full := BuildWith(doc(t, src), "t.yaml", BuildOptions{})
		_, lean := BuildWith(doc(t, src), "t.yaml", BuildOptions{Lean: true})
		require.Error(t, full, nodes)
		require.Equal(t, full.Error(), lean.Error(), nodes)
	}
}

// TestElementSize: a large template has tens of thousands of elements, half
// of them types, so an element's size is part of the peak memory that
// issue 19 bounds (README, Performance): a field that only some kinds need
// belongs behind one of the per-kind pointers.
func TestElementSize(t *testing.T) {
	require.LessOrEqual(t, unsafe.Sizeof(Element{}), uintptr(128), "Element")
	require.LessOrEqual(t, unsafe.Sizeof(TemplateParts{}), uintptr(96), "TemplateParts")
}

// TestRelationTargets checks that each relation gets the node its target
// names, whichever node that is: the next one after the last target, that
// one again, one before it, a far one, the relation's own node; with the
// nodes written as a map and as a list, and target names written as
// strings from another parse (not the node keys' own copies).
func TestRelationTargets(t *testing.T) {
	const n = 12
	picks := [][]int{
		{1, 2, 3, 4, 5},         // each next
		{3, 3, 3, 7, 7, 0},      // the same again
		{5, 4, 3, 2, 1, 0},      // backwards
		{11, 0, 6, 1, 10, 2, 9}, // far
		{0, 0, 1, 0, 2},         // own node and around
	}
	for _, list := range []bool{false, true} {
		for pi, pick := range picks {
			var b strings.Builder
			b.WriteString(v1 + "topology_template:\n  node_templates:\n")
			k := 0
			for i := range n {
				if list {
					b.WriteString("    - ")
				} else {
					b.WriteString("    ")
				}
				b.WriteString("n" + string(rune('a'+i)) + ":\n")
				ind := "      "
				if list {
					ind = "        "
				}
				b.WriteString(ind + "type: t\n")
				if i%3 == 0 && k < len(pick) {
					b.WriteString(ind + "requirements:\n")
					for range 2 {
						if k < len(pick) {
							b.WriteString(ind + "  - r: {node: \"n" + string(rune('a'+pick[k])) + "\"}\n")
							k++
						}
					}
				}
			}
			g := buildRules(t, b.String())
			var got []string
			for _, r := range g.Relations {
				require.Same(t, g.NodeByName(r.Target.Name), r.Target)
				got = append(got, r.Target.Name)
			}
			var want []string
			for _, p := range pick[:k] {
				want = append(want, "n"+string(rune('a'+p)))
			}
			require.Equal(t, want, got, "picks %d, list %v", pi, list)
		}
	}
}

// TestLongConditionLists builds elements whose condition lists are longer
// than the build's first list arrays (4 and 8 entries): a list of 9 to 64
// conditions as the first of its kind once sliced past its array.
func TestLongConditionLists(t *testing.T) {
	for _, n := range []int{1, 5, 9, 10, 33, 64, 65, 200} {
		conds := strings.Repeat("{variability_input: x}, ", n)
		g := buildRules(t, v1+"topology_template:\n  variability:\n    inputs:\n      x: {type: boolean}\n"+
			"  node_templates:\n    a:\n      type: t\n      conditions: ["+strings.TrimSuffix(conds, ", ")+"]\n"+
			"      properties:\n        - p: {value: 1, conditions: ["+strings.TrimSuffix(conds, ", ")+"]}\n")
		require.Len(t, g.NodeByName("a").Conditions, n, "%d conditions", n)
		require.Len(t, g.Properties[0].Conditions, n, "%d property conditions", n)
	}
}
