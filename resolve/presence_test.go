package resolve

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestContainerPresence: a lean build leaves the generated presence
// conditions of type elements to the encoder (graph.Element.
// ContainerPresence). The formula, the output and the error are those of a
// build that makes the conditions (the write-back forces one), with every
// default-condition and pruning setting of types, manual type conditions,
// type-specific conditions and nodes named like the ends of a relation.
func TestContainerPresence(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n"
	const nodes = `  node_templates:
    app: {type: app, requirements: [{host: {node: vm, conditions: {variability_input: big}}}, {db: db}]}
    vm: {type: [{vm: {conditions: {variability_input: big}}}, {small: {default_alternative: true}}]}
    db: {type: db, requirements: [{host: vm}]}
`
	// The presence operators read TARGET and SOURCE as the ends of the
	// condition's relation: a generated condition that names such a node
	// fails, in both builds.
	const ends = `  node_templates:
    app: {type: app, requirements: [{host: TARGET}]}
    TARGET: {type: vm}
`
	const relationEnds = `  node_templates:
    SOURCE: {type: app, requirements: [{host: vm}]}
    vm: {type: vm}
`
	tests := []struct {
		name, variability, nodes string
		flagged                  bool
		err                      string
	}{
		{"defaults", "    inputs: {big: {type: boolean, default: true}}\n", nodes, false, ""},
		{"type default condition", "    inputs: {big: {type: boolean, default: true}}\n    options: {type_default_condition: true}\n", nodes, true, ""},
		{"type pruning", "    inputs: {big: {type: boolean, default: true}}\n    options: {type_pruning: true}\n", nodes, true, ""},
		{"pruning mode", "    inputs: {big: {type: boolean, default: true}}\n    options: {mode: consistent-loose}\n", nodes, true, ""},
		{"semantic pruning only", "    inputs: {big: {type: boolean, default: true}}\n    options: {semantic_pruning: true}\n", nodes, false, ""},
		{"type-specific conditions", "    inputs: {big: {type: boolean, default: true}}\n    options: {type_default_condition: true}\n" +
			"    type_specific_conditions: {node_types: {app: {conditions: {variability_input: big}}}}\n", nodes, true, ""},
		{"unsatisfiable", "    inputs: {big: {type: boolean, default: true}}\n    options: {type_pruning: true}\n" +
			"    constraints: [{not: {node_presence: db}}, {node_presence: db}]\n", nodes, true, "Could not solve"},
		{"a node named TARGET", "    options: {type_pruning: true}\n", ends, true, `Type "vm@0" of node "TARGET" is not a relation`},
		{"a relation of a node named SOURCE", "    options: {type_pruning: true}\n", relationEnds, true, `is not a relation`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemplate(t, head+tc.variability+tc.nodes)
			in := Input{TemplatePath: path}
			ctx := context.Background()

			p, err := prepareFor(ctx, in, Options{}, false, false, nil)
			require.NoError(t, err)
			flagged := 0
			for _, e := range p.g.Elements {
				if e.ContainerPresence {
					flagged++
					require.Empty(t, e.Conditions, "%s", e.Display())
				}
			}
			require.Equal(t, tc.flagged, flagged > 0, "flagged elements")

			var dumps [2]bytes.Buffer
			var outs [2]string
			for i, writeBack := range []bool{false, true} {
				opts := Options{writeBack: writeBack, Dump: func(f *Formula) error { return f.WriteDIMACS(&dumps[i]) }}
				res, err := Resolve(ctx, in, opts)
				if err != nil {
					outs[i] = "error: " + err.Error()
				} else {
					outs[i] = string(yamlsrc.Marshal(res.Doc))
				}
			}
			require.Equal(t, outs[1], outs[0], "output")
			require.Equal(t, dumps[1].String(), dumps[0].String(), "formula")
			if tc.err != "" {
				require.Contains(t, outs[0], tc.err)
				return
			}
			require.NotEmpty(t, dumps[0].String(), outs[0])
			require.NotContains(t, outs[0], "error")
		})
	}
}
