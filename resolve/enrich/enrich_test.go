package enrich

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// appendixA is the worked example of variability.md Appendix A.
const appendixA = `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs:
            large: {type: boolean}
        options:
            mode: semantic-loose
    node_templates:
        app:
            type: app
            persistent: true
            requirements:
                - host: vm
            properties:
                - port: 80
        vm:
            type: vm
            properties:
                - size: {value: big, conditions: {variability_input: large}}
                - size: {value: small, default_alternative: true}
`

// notation renders a condition compactly: G(...) for a generated condition,
// B(...) for a default-alternative (bratan) condition, JSON otherwise.
func notation(c *yamlsrc.Value) string {
	if c.IsMap() {
		clone := yamlsrc.Clone(c)
		gen := clone.Map().Delete("_generated")
		bratan := clone.Map().Delete("_bratan")
		s := yamlsrc.JSON(clone)
		if bratan {
			s = "B(" + s + ")"
		}
		if gen {
			s = "G(" + s + ")"
		}
		return s
	}
	return yamlsrc.JSON(c)
}

func enriched(t *testing.T, src string) (*graph.Graph, map[string]string) {
	t.Helper()
	doc, err := yamlsrc.Parse([]byte(src), "t.yaml")
	require.NoError(t, err)
	g1, err := graph.Build(doc, "t.yaml")
	require.NoError(t, err)
	changed, err := Elements(g1)
	require.NoError(t, err)
	g := g1
	if changed {
		g, err = graph.Build(doc, "t.yaml")
		require.NoError(t, err)
	}
	require.NoError(t, Conditions(g))
	require.NoError(t, Constraints(g))
	out := map[string]string{}
	for _, e := range g.Elements {
		parts := make([]string, len(e.Conditions))
		for i, c := range e.Conditions {
			parts[i] = notation(c)
		}
		out[e.ID()] = strings.Join(parts, ", ")
	}
	return g, out
}

func TestAppendixAConditions(t *testing.T) {
	g, got := enriched(t, appendixA)
	want := map[string]string{
		"type.app@0.node.app":      `G({"node_presence":"app"})`,
		"type.vm@0.node.vm":        `G({"node_presence":"vm"})`,
		"node.app":                 ``,
		"node.vm":                  `G({"has_incoming_relation":"vm"})`,
		"relation.host@0.node.app": `G({"and":[{"node_presence":"app"},{"node_presence":"vm"}]})`,
		"property.port@0.node.app": `G({"node_presence":"app"})`,
		"property.port@1.node.app": `G({"node_presence":"app"}), B({"not":{"or":[{"node_property_presence":["app",0]}]}})`,
		"property.size@0.node.vm":  `G({"node_presence":"vm"}), {"variability_input":"large"}`,
		"property.size@1.node.vm":  `G({"node_presence":"vm"}), B({"not":{"or":[{"node_property_presence":["vm",0]}]}})`,
	}
	require.Equal(t, want, got)

	// Every property is implied, fallbacks included (§5.12).
	var cs []string
	for _, c := range g.Variability().Get("constraints").List() {
		cs = append(cs, yamlsrc.JSON(c))
	}
	require.Equal(t, []string{
		`{"implies":[{"and":["node.app","manual.property.port@0.node.app"]},"property.port@0.node.app"]}`,
		`{"implies":[{"and":["node.app","manual.property.port@1.node.app"]},"property.port@1.node.app"]}`,
		`{"implies":[{"and":["node.vm","manual.property.size@0.node.vm"]},"property.size@0.node.vm"]}`,
		`{"implies":[{"and":["node.vm","manual.property.size@1.node.vm"]},"property.size@1.node.vm"]}`,
	}, cs)
}

// enrichmentErrorCase is a template the enricher rejects and the
// reference's message.
type enrichmentErrorCase struct{ name, src, want string }

var enrichmentErrorCases = []enrichmentErrorCase{
	{"unknown mode", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {node_default_condition_mode: incoming-magic}
    node_templates:
        n: {type: t}
`, `Node "n" has unknown mode "incoming-magic" as default condition`},
	{"type-specific without conditions", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        type_specific_conditions: {node_types: {t: {semantic: true}}}
    node_templates:
        n: {type: t}
`, `Node "n" holds type-specific condition without any condition`},
	{"implied target on a property", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, properties: [{p: {value: 1, implied: TARGET}}]}
`, `Property "p@0" of node "n" is not a relation`},
	{"other implied value", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, properties: [{p: {value: 1, implied: sometimes}}]}
`, `Left not defined`},
	// Every element's mode is checked, needed or not (§5.8).
	{"unknown artifact mode", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, persistent: true, artifacts: {a: {type: zip, file: f, default_condition_mode: bogus}}}
`, `Artifact "a@0" of node "n" has unknown mode "bogus" as default condition`},
	{"non-string artifact mode", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, persistent: true, artifacts: {a: {type: zip, file: f, default_condition_mode: true}}}
`, `mode.split is not a function`},
	{"unknown artifact mode option", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {artifact_default_condition_mode: other}
    node_templates:
        n: {type: t, persistent: true, artifacts: {a: {type: zip, file: f}}}
`, `Artifact "a@0" of node "n" has unknown mode "other" as default condition`},
	{"unknown technology mode", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, persistent: true, technology: [{ansible: {default_condition_mode: bogus}}]}
`, `Technology "ansible@0" of node "n" has unknown mode "bogus" as default condition`},
	{"non-string technology mode", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, persistent: true, technology: [{ansible: {default_condition_mode: 5}}]}
`, `mode.split is not a function`},
	{"unknown technology mode option", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {technology_default_condition_mode: container-bogus}
    node_templates:
        n: {type: t, persistent: true, technology: [{terraform: {}}]}
`, `Technology "terraform@0" of node "n" has unknown mode "container-bogus" as default condition`},
	// Nulls inside conditions (§5.13, §5.6).
	{"null in_range bound", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, conditions: {in_range: [1, null]}}
`, `Cannot convert undefined or null to object`},
	{"null behind a short circuit", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, conditions: {or: [true, {not: null}]}}
`, `Cannot convert undefined or null to object`},
	{"null in a nested list", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, properties: [{p: {value: 1, conditions: {and: [true, [null]]}}}]}
`, `Cannot convert undefined or null to object`},
	{"null array-index key first", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, conditions: {not: true, 5: null}}
`, `Cannot convert undefined or null to object`},
	{"null in a variability group's conditions", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n], conditions: {and: [true, {or: [null]}]}}
`, `Cannot convert undefined or null to object`},
	{"null in a simplified type-specific condition", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {node_pruning: true}
        type_specific_conditions: {node_types: {t: {conditions: {or: [true, null]}}}}
    node_templates:
        n: {type: t}
`, `Cannot read properties of null (reading 'and')`},
	{"type-specific or without a list", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {node_pruning: true}
        type_specific_conditions: {node_types: {t: {conditions: {or: true}}}}
    node_templates:
        n: {type: t}
`, `conditions.or.map is not a function`},
	// The cleanup checks whether the variability inputs are empty,
	// which the reference cannot for a number or a boolean (Cannot
	// check if object true is empty).
	{"boolean variability inputs", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: true
    node_templates:
        n: {type: t, conditions: {variability_input: big}}
`, `expected variability inputs as a map, found a boolean`},
	{"numeric variability inputs", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: 5
`, `expected variability inputs as a map, found a number`},
	// References to variability groups fail once the groups are gone.
	{"get_property of a variability group", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, properties: [{p: {value: {get_property: [vg, q]}}}]}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n], properties: [{q: 1}]}
`, `Could not get element "vg" from context element "node "n"" and context cached "undefined"`},
	{"get_attribute of a variability group in a group", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n]}
        other: {type: tosca.groups.Root, members: [n], properties: [{q: {value: {get_attribute: [vg, x]}}}]}
`, `Could not get element "vg" from context element "group "other"" and context cached "undefined"`},
}

func TestEnrichmentErrors(t *testing.T) {
	for _, tc := range enrichmentErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := yamlsrc.Parse([]byte(tc.src), "t.yaml")
			require.NoError(t, err)
			g, err := graph.Build(doc, "t.yaml")
			require.NoError(t, err)
			_, err = Elements(g)
			require.NoError(t, err)
			err = Conditions(g)
			if err == nil {
				err = Constraints(g)
			}
			if err == nil {
				err = Cleanup(g, true)
			}
			if err == nil {
				err = graph.AfterCleanup(g)
			}
			require.EqualError(t, err, tc.want)
		})
	}
}

func TestVariabilityGroupReferences(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// before and after are the numbers of consumers of the first input
		// before and after Cleanup.
		before, after int
	}{
		{"a policy of the group's name resolves the reference", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        n: {type: t, properties: [{p: {value: {get_property: [vg, x]}}}]}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n]}
    policies:
        - vg: {type: tosca.policies.Root, targets: [n]}
    inputs:
        i: {type: string}
`, 0, 0},
		{"an input consumed only by a variability group is not consumed", `tosca_definitions_version: tosca_variability_1_0_rc_3
topology_template:
    inputs:
        i: {type: string, default: x}
    node_templates:
        n: {type: t, persistent: true, managed: false}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n], properties: [{q: {value: {get_input: i}}}]}
`, 1, 0},
		{"other consumers stay", `tosca_definitions_version: tosca_variability_1_0_rc_3
topology_template:
    inputs:
        i: {type: string, default: x}
    node_templates:
        n: {type: t, persistent: true, managed: false, properties: [{p: {value: {get_input: i}}}]}
    groups:
        vg: {type: variability.groups.ConditionalMembers, members: [n], properties: [{q: {value: {get_input: i}}}]}
`, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := enriched(t, tc.src)
			require.Len(t, g.Inputs[0].Consumers, tc.before, "before cleanup")
			require.NoError(t, Cleanup(g, true))
			require.NoError(t, graph.AfterCleanup(g))
			require.Len(t, g.Inputs[0].Consumers, tc.after, "after cleanup")
		})
	}
}
