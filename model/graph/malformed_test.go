package graph

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// The malformed-input policy (README, "Malformed input"): where the
// reference fails, the build fails at the position of the offending value;
// where the reference's message is a JavaScript error, Message says in v4t's
// words what is wrong and Reference keeps the reference's message. Every
// case was run through the reference (Vintner 0.1.8).

const head = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n"

// malformedCase is a wrong shape that Build (or graph #3's checks)
// rejects, with v4t's line and the reference's message.
type malformedCase struct {
	name string
	src  string
	// afterCleanup runs graph #3's checks after the build.
	afterCleanup bool
	wantLine     string
	wantRef      string
}

var malformedCases = []malformedCase{
	{
		name:     "options true",
		src:      head + "  variability:\n    options: true\n  node_templates:\n    n: {type: t}\n",
		wantLine: "t.yaml:4:14: expected variability options as a map, found a boolean (the reference fails with: Cannot check if object true is empty)",
		wantRef:  "Cannot check if object true is empty",
	},
	{
		name:     "options NaN",
		src:      head + "  variability:\n    options: .nan\n",
		wantLine: "t.yaml:4:14: expected variability options as a map, found a number (the reference fails with: Cannot check if object null is empty)",
		wantRef:  "Cannot check if object null is empty",
	},
	{
		name:         "null variability input",
		src:          head + "  variability:\n    inputs:\n      a: {type: boolean}\n      b: null\n  node_templates:\n    n: {type: t}\n",
		afterCleanup: true,
		wantLine:     `t.yaml:6:10: expected the variability input "b" as a map, found null (the reference fails with: Cannot read properties of null (reading 'mandatory'))`,
		wantRef:      "Cannot read properties of null (reading 'mandatory')",
	},
	{
		name:     "members a string",
		src:      head + "  node_templates:\n    n: {type: t}\n  groups:\n    g:\n      type: tosca.groups.Root\n      members: n\n",
		wantLine: `t.yaml:8:16: expected the members of group "g" as a list, found a string (the reference fails with: raw.members.forEach is not a function)`,
		wantRef:  "raw.members.forEach is not a function",
	},
	{
		name:     "members null",
		src:      head + "  groups:\n    g:\n      type: tosca.groups.Root\n      members: null\n",
		wantLine: `t.yaml:6:16: expected the members of group "g" as a list, found null (the reference fails with: Cannot read properties of null (reading 'forEach'))`,
		wantRef:  "Cannot read properties of null (reading 'forEach')",
	},
	{
		name:     "members missing",
		src:      head + "  groups:\n    g:\n      type: tosca.groups.Root\n",
		wantLine: `t.yaml:5:7: Group "g" has no members (the reference fails with: Cannot read properties of undefined (reading 'forEach'))`,
		wantRef:  "Cannot read properties of undefined (reading 'forEach')",
	},
	{
		name:     "targets a map",
		src:      head + "  node_templates:\n    n: {type: t}\n  policies:\n    - p:\n        type: tosca.policies.Root\n        targets: {n: 1}\n",
		wantLine: `t.yaml:8:18: expected the targets of policy "p@0" as a list, found a map (the reference fails with: raw.targets?.forEach is not a function)`,
		wantRef:  "raw.targets?.forEach is not a function",
	},
	{
		name:     "imports a map",
		src:      "tosca_definitions_version: tosca_variability_1_0\nimports: {a: 1}\n",
		wantLine: "t.yaml:2:10: expected imports as a list, found a map (the reference fails with: this.serviceTemplate.imports.map is not a function)",
		wantRef:  "this.serviceTemplate.imports.map is not a function",
	},
	{
		name:     "null import",
		src:      "tosca_definitions_version: tosca_variability_1_0\nimports: [null]\n",
		wantLine: "t.yaml:2:11: expected import 0 as a map or a string, found null (the reference fails with: Cannot read properties of null (reading 'conditions'))",
		wantRef:  "Cannot read properties of null (reading 'conditions')",
	},
	{
		name:     "number in a type list",
		src:      head + "  node_templates:\n    n:\n      type: [5]\n",
		wantLine: `t.yaml:5:14: expected a type entry of node "n" as a map with one entry, found a number (the reference fails with: undefined is not iterable (cannot read property Symbol(Symbol.iterator)))`,
		wantRef:  "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
	},
	{
		name:     "null node template",
		src:      head + "  node_templates:\n    n: null\n",
		wantLine: "t.yaml:4:8: expected a node template as a map, found null (the reference fails with: Cannot read properties of null (reading 'type'))",
		wantRef:  "Cannot read properties of null (reading 'type')",
	},
	{
		name:     "string node template",
		src:      head + "  node_templates:\n    n: x\n",
		wantLine: "t.yaml:4:8: expected a node template as a map, found a string (the reference fails with: Unexpected error)",
		wantRef:  "Unexpected error",
	},
	{
		name:     "null property in list form",
		src:      head + "  node_templates:\n    n:\n      type: t\n      properties:\n        - p: null\n",
		wantLine: "t.yaml:7:14: expected a property assignment, found null (the reference fails with: Cannot read properties of null (reading 'value'))",
		wantRef:  "Cannot read properties of null (reading 'value')",
	},
	{
		name:     "technology a string",
		src:      head + "  node_templates:\n    n:\n      type: t\n      technology: [{ansible: x}]\n",
		wantLine: "t.yaml:6:30: expected a technology map, found a string (the reference fails with: Cannot create property 'assign' on string 'x')",
		wantRef:  "Cannot create property 'assign' on string 'x'",
	},
	{
		name:     "technology without a type to name",
		src:      head + "  node_templates:\n    n:\n      type: []\n      technology: ansible\n",
		wantLine: `t.yaml:5:13: the technology "ansible" has no assign and its node no first type to name the implementation (the reference fails with: Cannot convert undefined or null to object)`,
		wantRef:  "Cannot convert undefined or null to object",
	},
	{
		name:     "number artifact",
		src:      head + "  node_templates:\n    n:\n      type: t\n      artifacts:\n        a: 5\n",
		wantLine: `t.yaml:7:12: expected an artifact as a map or a string, found a number (the reference fails with: Element "5" is not an object)`,
		wantRef:  `Element "5" is not an object`,
	},
	{
		name:     "requirements a string",
		src:      head + "  node_templates:\n    n:\n      type: t\n      requirements: host\n",
		wantLine: "t.yaml:6:21: expected requirements as a list, found a string (the reference fails with: template.requirements.entries is not a function or its return value is not iterable)",
		wantRef:  "template.requirements.entries is not a function or its return value is not iterable",
	},
	{
		name:     "string requirement",
		src:      head + "  node_templates:\n    n:\n      type: t\n      requirements: [host]\n",
		wantLine: "t.yaml:6:22: expected a requirement as a map with one entry, found a string (the reference fails with: Cannot assign to read only property '0' of string 'host')",
		wantRef:  "Cannot assign to read only property '0' of string 'host'",
	},
	{
		name:     "null requirement",
		src:      head + "  node_templates:\n    n:\n      type: t\n      requirements: [null]\n",
		wantLine: "t.yaml:6:22: expected a requirement as a map with one entry, found null (the reference fails with: Cannot convert undefined or null to object)",
		wantRef:  "Cannot convert undefined or null to object",
	},
	{
		name:     "number requirement",
		src:      head + "  node_templates:\n    n:\n      type: t\n      requirements: [5]\n",
		wantLine: "t.yaml:6:22: expected a requirement as a map with one entry, found a number (the reference fails with: undefined is not iterable (cannot read property Symbol(Symbol.iterator)))",
		wantRef:  "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
	},
	{
		name:     "null requirement assignment",
		src:      head + "  node_templates:\n    n:\n      type: t\n      requirements: [{host: null}]\n",
		wantLine: `t.yaml:6:29: expected the requirement assignment "host" of node "n" as a map or a string, found null (the reference fails with: Cannot read properties of null (reading 'relationship'))`,
		wantRef:  "Cannot read properties of null (reading 'relationship')",
	},
	{
		name:     "string policy entry",
		src:      head + "  policies: [p]\n",
		wantLine: "t.yaml:3:14: expected a policy entry as a map with one entry, found a string (the reference fails with: Unexpected error)",
		wantRef:  "Unexpected error",
	},
	{
		name:     "number node entry",
		src:      head + "  node_templates: [5]\n",
		wantLine: "t.yaml:3:20: expected a node template entry as a map with one entry, found a number (the reference fails with: Cannot read properties of undefined (reading 'type'))",
		wantRef:  "Cannot read properties of undefined (reading 'type')",
	},
	{
		name:     "string property entry",
		src:      head + "  node_templates:\n    n:\n      type: t\n      properties: [p]\n",
		wantLine: "t.yaml:6:20: expected a property as a map with one entry, found a string (the reference fails with: Cannot assign to read only property '0' of string 'p')",
		wantRef:  "Cannot assign to read only property '0' of string 'p'",
	},
	{
		name:     "null technology entry after a good one",
		src:      head + "  node_templates:\n    n:\n      type: t\n      technology: [{ansible: x}, null]\n",
		wantLine: "t.yaml:6:34: expected a technology as a map with one entry, found null (the reference fails with: Cannot convert undefined or null to object)",
		wantRef:  "Cannot convert undefined or null to object",
	},
	{
		name:     "empty output entry",
		src:      head + "  outputs: [{}]\n",
		wantLine: "t.yaml:3:13: expected an output as a map with one entry, found an empty map (the reference fails with: undefined is not iterable (cannot read property Symbol(Symbol.iterator)))",
		wantRef:  "undefined is not iterable (cannot read property Symbol(Symbol.iterator))",
	},
	{
		name:     "group types not a list",
		src:      head + "  groups:\n    g: {type: {a: 1}, members: []}\n",
		wantLine: `t.yaml:4:15: Element "{"a":1}" is not an array`,
		wantRef:  `Element "{"a":1}" is not an array`,
	},
	{
		name:     "group without types",
		src:      head + "  groups:\n    g: {type: [], members: []}\n",
		wantLine: `t.yaml:4:15: expected the types of group "g" to start with a type, found none (the reference fails with: Cannot convert undefined or null to object)`,
		wantRef:  "Cannot convert undefined or null to object",
	},
}

func TestMalformedRejected(t *testing.T) {
	for _, tc := range malformedCases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Build(doc(t, tc.src), "t.yaml")
			if tc.afterCleanup {
				require.NoError(t, err, "build of %s", tc.name)
				err = AfterCleanup(g)
			}
			testkit.ErrorLine(t, err, tc.wantLine, tc.wantRef, tc.name)
		})
	}
}

// TestNullInputAfterFeature pins where the check of graph #3 stops: after
// an input with a feature constraint, the validator reads the definitions
// (and fails on the null one) in its own order.
func TestNullInputAfterFeature(t *testing.T) {
	g, err := Build(doc(t, head+"  variability:\n    inputs:\n      a: {requires: b}\n      b: null\n"), "t.yaml")
	require.NoError(t, err)
	require.NoError(t, AfterCleanup(g))
	d := NullInputDefinition("t.yaml", "b", g.Variability().Get("inputs").Get("b"))
	require.Equal(t, `t.yaml:6:10: expected the variability input "b" as a map, found null (the reference fails with: Cannot read properties of null (reading 'mandatory'))`, d.Line())
}

func TestMalformedCoerced(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, g *Graph)
		want  []string
	}{
		{
			name: "string properties",
			src:  head + "  node_templates:\n    n:\n      type: t\n      properties: ab\n",
			check: func(t *testing.T, g *Graph) {
				var got []string
				for _, p := range g.NodeByName("n").Properties {
					got = append(got, p.Name+"="+JSONOf(p.Value))
				}
				require.Equal(t, []string{`0="a"`, `1="b"`, `0="VINTNER_UNDEFINED"`, `1="VINTNER_UNDEFINED"`}, got)
			},
			want: []string{"t.yaml:6:19: expected properties as a map or a list, found a string: read as a map from each character's position to the character, as the reference does"},
		},
		{
			name: "number properties",
			src:  head + "  node_templates:\n    n:\n      type: t\n      properties: 5\n",
			check: func(t *testing.T, g *Graph) {
				require.Empty(t, g.NodeByName("n").Properties)
			},
			want: []string{"t.yaml:6:19: expected properties as a map or a list, found a number: read as no properties, as the reference does"},
		},
		{
			name: "string in a type list",
			src:  head + "  node_templates:\n    n:\n      type: [abc, {u: {conditions: false}}]\n      technology: ansible\n",
			check: func(t *testing.T, g *Graph) {
				n := g.NodeByName("n")
				require.Len(t, n.Types, 2)
				require.Equal(t, "type.0@0.node.n", n.Types[0].ID())
				require.Empty(t, n.Types[0].Conditions)
				require.Equal(t, "0~0::ansible", n.Technologies[0].Assign)
			},
			want: []string{`t.yaml:5:14: expected a type entry of node "n" as a map, found a string: read as type "0", as the reference does`},
		},
		{
			name: "scalar type assignment",
			src:  head + "  node_templates:\n    n:\n      type: [{t: abc}]\n",
			check: func(t *testing.T, g *Graph) {
				require.Equal(t, "type.t@0.node.n", g.NodeByName("n").Types[0].ID())
			},
			want: []string{`t.yaml:5:18: expected the type assignment "t" of node "n" as a map, found a string: read as one without conditions, as the reference does`},
		},
		{
			name: "number outputs",
			src:  head + "  node_templates:\n    n: {type: t}\n  outputs: 5\n",
			check: func(t *testing.T, g *Graph) {
				require.Empty(t, g.Outputs)
				require.True(t, g.Topology().Get("outputs").IsList(), "outputs become an empty list")
			},
			want: []string{"t.yaml:5:12: expected outputs as a map or a list, found a number: read as no outputs, as the reference does"},
		},
		{
			name: "string inputs",
			src:  head + "  inputs: xy\n",
			check: func(t *testing.T, g *Graph) {
				require.Len(t, g.Inputs, 2)
				require.Equal(t, "input.1@1", g.Inputs[1].ID())
			},
			want: []string{
				"t.yaml:3:11: expected inputs as a map or a list, found a string: read as a map from each character's position to the character, as the reference does",
				`t.yaml:3:11: expected the input "0" as a map, found a string: kept as it is, without conditions, as the reference does`,
				`t.yaml:3:11: expected the input "1" as a map, found a string: kept as it is, without conditions, as the reference does`,
			},
		},
		{
			name: "list in imports",
			src:  "tosca_definitions_version: tosca_variability_1_0\nimports:\n  - [a, b]\n  - c\n",
			check: func(t *testing.T, g *Graph) {
				require.Len(t, g.Imports, 2)
				require.True(t, g.Imports[0].Raw.IsList())
				require.Empty(t, g.Imports[0].Conditions)
			},
			want: []string{"t.yaml:3:5: expected import 0 as a map or a string, found a list: kept as it is, without conditions, as the reference does"},
		},
		{
			name: "list entries of requirements, artifacts and properties",
			src:  head + "  node_templates:\n    n:\n      type: t\n      requirements: [[m]]\n      artifacts: [[f.zip]]\n      properties: [[1]]\n    m: {type: t}\n",
			check: func(t *testing.T, g *Graph) {
				n := g.NodeByName("n")
				require.Equal(t, "relation.0@0.node.n", n.Outgoing[0].ID())
				require.Equal(t, g.NodeByName("m"), n.Outgoing[0].Target)
				require.Equal(t, "artifact.0@0.node.n", n.Artifacts[0].ID())
				require.Equal(t, `"f.zip"`, JSONOf(n.Artifacts[0].Raw.Get("file")))
				require.Equal(t, "property.0@0.node.n", n.Properties[0].ID())
				require.Equal(t, "1", JSONOf(n.Properties[0].Value))
			},
			want: []string{
				`t.yaml:8:20: expected a property as a map with one entry, found a list: read as "0" with its first item, as the reference does`,
				`t.yaml:6:22: expected a requirement as a map with one entry, found a list: read as "0" with its first item, as the reference does`,
				`t.yaml:7:19: expected an artifact as a map with one entry, found a list: read as "0" with its first item, as the reference does`,
			},
		},
		{
			name: "string entry of inputs",
			src:  head + "  inputs: [ab]\n",
			check: func(t *testing.T, g *Graph) {
				require.Len(t, g.Inputs, 1)
				require.Equal(t, "input.0@0", g.Inputs[0].ID())
			},
			want: []string{`t.yaml:3:12: expected an input as a map with one entry, found a string: read as "0" with its first character, as the reference does`},
		},
		{
			name: "date options",
			src:  head + "  variability:\n    options: 2020-01-01\n",
			check: func(t *testing.T, g *Graph) {
				require.Nil(t, g.Topology().Get("variability"), "an object without keys is empty")
			},
			want: []string{"t.yaml:4:14: expected variability options as a map, found a date: read as no options, as the reference does"},
		},
		{
			name: "list options",
			src:  head + "  variability:\n    options: [{mode: strict}]\n",
			check: func(t *testing.T, g *Graph) {
				require.Equal(t, "manual", g.Options.Mode, "the default mode of the version, not strict")
			},
			want: []string{"t.yaml:4:14: expected variability options as a map, found a list: read as no options, as the reference does"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sunk []string
			g, err := BuildWarn(doc(t, tc.src), "t.yaml", func(d *diag.Diagnostic) { sunk = append(sunk, d.Line()) })
			require.NoError(t, err, "build of %s", tc.name)
			tc.check(t, g)
			var got []string
			for _, w := range g.Warnings {
				require.Equal(t, diag.SeverityWarning, w.Severity, "severity of %q", w.Message)
				got = append(got, w.Line())
			}
			require.Equal(t, tc.want, got, "warnings of %s", tc.name)
			require.Equal(t, tc.want, sunk, "warnings sunk for %s", tc.name)
		})
	}
}

// TestNonBMPStringProperties: the reference splits a character outside
// the Basic Multilingual Plane into lone surrogates, which v4t cannot
// write; it refuses instead of writing something else.
func TestNonBMPStringProperties(t *testing.T) {
	_, err := Build(doc(t, head+"  node_templates:\n    n:\n      type: t\n      properties: \"a\U0001F600\"\n"), "t.yaml")
	require.Error(t, err)
	require.Contains(t, err.Error(), "outside the Basic Multilingual Plane")
}

func TestWeightPos(t *testing.T) {
	g, err := Build(doc(t, head+"  node_templates:\n    n:\n      type: t\n      weight: .nan\n      technology: [{ansible: {weight: .nan}}]\n    m: {type: t}\n"), "t.yaml")
	require.NoError(t, err)
	require.Equal(t, "t.yaml:6:15", g.NodeByName("n").WeightPos().String(), "node weight")
	require.Equal(t, "t.yaml:7:39", g.Technologies[0].WeightPos().String(), "technology weight")
	require.Equal(t, "t.yaml:8:8", g.NodeByName("m").WeightPos().String(), "no weight: the element")
	// A technology that enrichment adds has no position of its own.
	added := &Element{Kind: KindTechnology, Name: "x", Index: 1, Container: g.NodeByName("m"), Raw: yamlsrc.MapOf("weight", g.NodeByName("n").Raw.Get("weight")), Graph: g}
	require.Equal(t, "t.yaml:8:8", added.WeightPos().String(), "added technology: its node")
}
