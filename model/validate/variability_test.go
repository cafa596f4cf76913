package validate_test

import (
	"context"
	"github.com/stretchr/testify/require"
	"testing"

	"v4t/model/validate"
)

// TestVariability checks what the variability phase leaves alone: values
// that the resolver never evaluates, references relative to the element,
// and templates that are not variable; and that a condition used twice
// through an alias is reported once.
func TestVariability(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\n" +
		"node_types:\n  my.App:\n    derived_from: tosca.nodes.Root\n    properties:\n      p: {type: map, required: false}\n" +
		"topology_template:\n  variability:\n    inputs: {x: {type: boolean, default: false}}\n  node_templates:\n"
	tests := []struct {
		name, nodes, want string
	}{
		{"map-form property values are not expressions",
			"    a:\n      type: my.App\n      properties: {p: {variability_input: nope}}\n", ""},
		{"list-form property values without value or expression are values",
			"    a:\n      type: my.App\n      properties:\n        - p: {conditions: {variability_input: nope}}\n", ""},
		{"literal operands are not evaluated",
			"    a:\n      type: my.App\n      conditions: {in_range: [{variability_input: x}, [{k: 1}, {k: 2}]]}\n", ""},
		{"references relative to the element",
			"    a:\n      type: my.App\n      conditions: {and: [{node_presence: SELF}, {relation_presence: SELF}, {host_presence: CONTAINER}]}\n", ""},
		{"free variables",
			"    a:\n      type: my.App\n      conditions: [anything, -else, true]\n", ""},
		{"an alias is reported once",
			"    a:\n      type: my.App\n      conditions: &c {variability_input: nope}\n    b:\n      type: my.App\n      conditions: *c\n",
			"t.yaml:13:42: variability input \"nope\" not declared\n"},
		{"an index past the requirements",
			"    a:\n      type: my.App\n      conditions: {relation_presence: [a, 0]}\n",
			"t.yaml:13:43: requirement 0 of node template \"a\" in relation_presence not found: it has 0 requirements\n"},
		{"a relation without relationship template has no properties",
			"    a:\n      type: my.App\n      requirements:\n        - dependency: {node: a, conditions: {relation_property_presence: [a, dependency, p]}}\n",
			"t.yaml:14:90: property \"p\" of requirement \"dependency\" of node template \"a\" in relation_property_presence not found\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := validate.Bytes(context.Background(), []byte(head+tc.nodes), "t.yaml", validate.Options{NoLib: true})
			require.Equal(t, tc.want, render(got), "problems of\n%s", tc.nodes)
		})
	}
	t.Run("not a variable template", func(t *testing.T) {
		const plain = "tosca_definitions_version: tosca_simple_yaml_1_3\n" +
			"topology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.Root\n      directives: [{variability_input: nope}]\n"
		got := validate.Bytes(context.Background(), []byte(plain), "t.yaml", validate.Options{NoLib: true})
		require.Empty(t, render(got))
	})
}
