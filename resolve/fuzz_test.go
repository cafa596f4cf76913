package resolve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// FuzzResolve runs the whole pipeline on small templates: whatever the
// input, Resolve returns a document or a diagnostic, never an internal
// error (a recovered panic).
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n    node_templates:\n        a: {type: a}\n",
		`tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: {big: {type: boolean, default: true}}
        options: {type_default_condition: true, mode: semantic-loose}
        expressions: {e: {not: {variability_input: big}}}
        constraints: [{implies: [node.a, node.b]}]
    node_templates:
        a: {type: a, conditions: {variability_input: big}, properties: [{p: {value: 1, conditions: false}}, {p: {value: 2, default_alternative: true}}]}
        b: {type: b, conditions: {logic_expression: e}, requirements: [{host: {node: a, conditions: true}}]}
        c: {type: c, artifacts: {x: {type: f, file: x, conditions: {node_presence: a}}}}
    groups:
        g: {type: variability.groups.ConditionalMembers, members: [a, c], conditions: true}
`,
		"tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n    variability:\n        options: {optimization_topology: max, optimization_topology_unique: true}\n    node_templates:\n        a: {type: a, conditions: x}\n        b: {type: b, conditions: {not: x}}\n",
		"tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n    t: {derived_from: tosca.nodes.Root, properties: {p: {type: integer}}}\n",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "template.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := Resolve(ctx, Input{TemplatePath: path}, Options{})
		if err != nil {
			if d, ok := diag.As(err); ok && d.Code == "internal" {
				t.Fatalf("internal error on %q: %v", data, err)
			}
			return
		}
		yamlsrc.Marshal(res.Doc)
	})
}
