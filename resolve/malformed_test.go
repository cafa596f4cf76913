package resolve

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

const v10 = "tosca_definitions_version: tosca_variability_1_0\n"

// TestMalformedPipeline: wrong shapes that the reference fails on in the
// loader, the enricher's cleanup, the hot fix, graph #3 and the validator,
// with v4t's positioned message and the reference's message, in the
// reference's order of stages. Every case was run through the reference
// (Vintner 0.1.8); testdata/differential/i16c-* keep them.
func TestMalformedPipeline(t *testing.T) {
	tests := []struct {
		name, src string
		presets   []string
		wantLine  string // file name "T" stands for the template's path
		wantRef   string
	}{
		{
			name:     "variability options that are a string",
			src:      v10 + "topology_template:\n  variability:\n    options: 'x'\n  node_templates:\n    app: {type: tosca.nodes.Root}\n",
			wantLine: "T:4:14: expected variability options as a map, found a string (the reference fails with: Cannot create property 'bratans_unknown' on string 'x')",
			wantRef:  "Cannot create property 'bratans_unknown' on string 'x'",
		},
		{
			name:     "a missing preset comes before options that are a string",
			src:      v10 + "topology_template:\n  variability:\n    options: 'x'\n",
			presets:  []string{"missing"},
			wantRef:  `Did not find variability preset "missing"`,
			wantLine: "-",
		},
		{
			name:     "a boolean variability definition",
			src:      v10 + "topology_template:\n  variability: true\n",
			wantLine: "T:3:16: expected the variability definition as a map, found a boolean (the reference fails with: Cannot create property 'type_specific_conditions' on boolean 'true')",
			wantRef:  "Cannot create property 'type_specific_conditions' on boolean 'true'",
		},
		{
			name:     "a numeric variability definition",
			src:      v10 + "topology_template:\n  variability: 1.5\n",
			wantLine: "T:3:16: expected the variability definition as a map, found a number (the reference fails with: Cannot create property 'type_specific_conditions' on number '1.5')",
			wantRef:  "Cannot create property 'type_specific_conditions' on number '1.5'",
		},
		{
			name:     "an empty string as the variability definition",
			src:      v10 + "topology_template:\n  variability: ''\n",
			wantLine: "T:3:16: expected the variability definition as a map, found a string (the reference fails with: Cannot create property 'type_specific_conditions' on string '')",
			wantRef:  "Cannot create property 'type_specific_conditions' on string ''",
		},
		{
			name:     "a number as topology_template",
			src:      v10 + "topology_template: 5\n",
			wantLine: "T:2:20: expected topology_template as a map, found a number (the reference fails with: Cannot create property 'variability' on number '5')",
			wantRef:  "Cannot create property 'variability' on number '5'",
		},
		{
			name:     "a string as topology_template",
			src:      v10 + "topology_template: ab\n",
			wantLine: "T:2:20: expected topology_template as a map, found a string (the reference fails with: Cannot create property 'variability' on string 'ab')",
			wantRef:  "Cannot create property 'variability' on string 'ab'",
		},
		{
			name:     "boolean variability inputs",
			src:      v10 + "topology_template:\n  variability:\n    inputs: true\n  node_templates:\n    app: {type: tosca.nodes.Root, conditions: {variability_input: big}}\n",
			wantLine: "T:4:13: expected variability inputs as a map, found a boolean (the reference fails with: Cannot check if object true is empty)",
			wantRef:  "Cannot check if object true is empty",
		},
		{
			name:     "a null input definition after one with a feature",
			src:      v10 + "topology_template:\n  variability:\n    inputs:\n      a: {requires: b}\n      b: null\n",
			wantLine: `T:6:10: expected the variability input "b" as a map, found null (the reference fails with: Cannot read properties of null (reading 'mandatory'))`,
			wantRef:  "Cannot read properties of null (reading 'mandatory')",
		},
		{
			name: "a missing preset comes before a reference to a variability group",
			src: v10 + "topology_template:\n  node_templates:\n    n:\n      type: app\n      properties:\n        - p: {value: {get_property: [vg, q]}}\n" +
				"  groups:\n    vg: {type: variability.groups.ConditionalMembers, members: [n], properties: [{q: 1}]}\n",
			presets:  []string{"missing"},
			wantRef:  `Did not find variability preset "missing"`,
			wantLine: "-",
		},
		{
			name: "a reference to a variability group fails in graph #3",
			src: v10 + "topology_template:\n  node_templates:\n    n:\n      type: app\n      properties:\n        - p: {value: {get_property: [vg, q]}}\n" +
				"  groups:\n    vg: {type: variability.groups.ConditionalMembers, members: [n], properties: [{q: 1}]}\n",
			wantLine: `T:7:22: Could not get element "vg" from context element "node "n"" and context cached "undefined"`,
			wantRef:  `Could not get element "vg" from context element "node "n"" and context cached "undefined"`,
		},
		{
			name:     "technology rules as a map",
			src:      v10 + "topology_template:\n  variability:\n    qualities: {a: b}\n",
			wantLine: "T:4:16: expected the technology rules (qualities) as a list, found a map (the reference fails with: rules is not iterable)",
			wantRef:  "rules is not iterable",
		},
		{
			name: "a weight that is not whole after x100, at the weight",
			src: v10 + "topology_template:\n  variability:\n    options: {optimization_topology: true}\n  node_templates:\n" +
				"    a: {type: tosca.nodes.Root}\n    b: {type: tosca.nodes.Root, weight: 0.07}\n",
			wantLine: "T:7:41: 100,7.000000000000001 is not an array of a whole number (integer >= 0)",
			wantRef:  "100,7.000000000000001 is not an array of a whole number (integer >= 0)",
		},
		{
			name: "constraints that enrichment cannot append to",
			src: v10 + "topology_template:\n  variability:\n    options: {relation_source_constraint: true}\n    constraints: {a: b}\n" +
				"  node_templates:\n    a: {type: tosca.nodes.Root, requirements: [{host: b}]}\n    b: {type: tosca.nodes.Root}\n",
			wantLine: "T:5:18: expected the variability constraints as a list, found a map (the reference fails with: this.serviceTemplate.topology_template.variability.constraints.push is not a function)",
			wantRef:  "this.serviceTemplate.topology_template.variability.constraints.push is not a function",
		},
		{
			// The cleanup writes the type's pruning condition back into
			// objects only: graph #3 reads none from the string entry.
			name: "a string in a type list has no conditions in graph #3",
			src: v10 + "topology_template:\n  variability:\n    options: {type_pruning: true}\n  node_templates:\n" +
				"    b:\n      type: tosca.nodes.Root\n      artifacts:\n        - a: {type: [zz], file: f, conditions: false}\n",
			wantLine: `T:9:22: Container of type "0@0" of artifact "a@0" of node "b" does not exist`,
			wantRef:  `Container of type "0@0" of artifact "a@0" of node "b" does not exist`,
		},
		{
			name:     "choices with an empty name",
			src:      v10 + "topology_template:\n  variability:\n    inputs:\n      x: {choices: [a, '']}\n      a: {type: boolean}\n",
			wantLine: "T: a, is not an array of a Formula or Term",
			wantRef:  "a, is not an array of a Formula or Term",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemplate(t, tc.src)
			_, err := Resolve(context.Background(), Input{TemplatePath: path, Presets: tc.presets}, Options{})
			require.Error(t, err, tc.name)
			d := testkit.Diagnostic(t, err, "%s: a diagnostic, got %v", tc.name, err)
			require.Equal(t, tc.wantRef, d.ReferenceMessage(), tc.name)
			if tc.wantLine != "-" {
				require.Equal(t, tc.wantLine, "T"+d.Line()[len(path):], tc.name)
			}
		})
	}
}

// TestMalformedOutputs: shapes the reference resolves, with the same
// output and a warning.
func TestMalformedOutputs(t *testing.T) {
	tests := []struct {
		name, src, want string
		warnings        []string
	}{
		{
			name:     "a list as topology_template is written back",
			src:      v10 + "description: d\ntopology_template: [a, b]\n",
			want:     "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: d\ntopology_template:\n    - a\n    - b\n",
			warnings: []string{"T:3:20: expected topology_template as a map, found a list: read as an empty topology template and written back as it is, as the reference does"},
		},
		{
			name:     "an empty list as topology_template is dropped",
			src:      v10 + "topology_template: []\n",
			want:     "tosca_definitions_version: tosca_simple_yaml_1_3\n",
			warnings: []string{"T:2:20: expected topology_template as a map, found a list: read as an empty topology template, as the reference does"},
		},
		{
			name:     "a date as topology_template is dropped",
			src:      v10 + "topology_template: 2020-01-01\n",
			want:     "tosca_definitions_version: tosca_simple_yaml_1_3\n",
			warnings: []string{"T:2:20: expected topology_template as a map, found a date: read as an empty topology template, as the reference does"},
		},
		{
			name: "a null topology_template is dropped",
			src:  v10 + "topology_template: null\n",
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\n",
		},
		{
			name: "null policy targets are dropped",
			src:  v10 + "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Root}\n  policies:\n    - p: {type: tosca.policies.Root, targets: null}\n",
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: tosca.nodes.Root\n    policies:\n        - p:\n              type: tosca.policies.Root\n",
		},
		{
			name:     "a list as the variability definition",
			src:      v10 + "topology_template:\n  variability: [a]\n  node_templates:\n    a: {type: tosca.nodes.Root}\n",
			want:     "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: tosca.nodes.Root\n",
			warnings: []string{"T:3:16: expected the variability definition as a map, found a list: read as an empty one, as the reference does"},
		},
		{
			name: "an empty string as variability options",
			src:  v10 + "topology_template:\n  variability:\n    options: ''\n  node_templates:\n    a: {type: tosca.nodes.Root}\n",
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: tosca.nodes.Root\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemplate(t, tc.src)
			var warnings []string
			warn := func(d *diag.Diagnostic) { warnings = append(warnings, "T"+d.Line()[len(path):]) }
			res, err := Resolve(context.Background(), Input{TemplatePath: path}, Options{Warn: warn})
			require.NoError(t, err, tc.name)
			require.Equal(t, tc.want, string(yamlsrc.Marshal(res.Doc)), tc.name)
			require.Equal(t, tc.warnings, warnings, tc.name)
		})
	}
}

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
	// One Scratch for every input of this process, as a batch worker
	// hands its memory from one run to the next whatever their templates.
	scratch := &Scratch{}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "template.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := Resolve(ctx, Input{TemplatePath: path}, Options{})
		if d, ok := diag.As(err); ok && d.Code == "internal" {
			t.Fatalf("internal error on %q: %v", data, err)
		}
		requireSameWithWriteBack(t, ctx, Input{TemplatePath: path}, res, err)
		requireSameThroughScratch(t, Input{TemplatePath: path}, scratch, res, err)
	})
}

// requireSameThroughScratch resolves in twice as a batch worker does,
// through a template cache and scratch, which holds the memory of whatever
// the worker resolved before, and requires each time the result, res or
// err, of a resolve without them: a resolve that read memory it took from
// the Scratch without setting it, or a copy of the cached template that
// shares what a resolve changes, comes out different.
func requireSameThroughScratch(t *testing.T, in Input, scratch *Scratch, res *Result, err error) {
	t.Helper()
	// A cache of its own: the fuzzer writes every input to one path.
	opts := Options{Templates: NewTemplates(), Scratch: scratch}
	for i := range 2 {
		// A time limit of its own: a slow input that ran out of a shared
		// one here only would fail the comparison for nothing.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res2, err2 := Resolve(ctx, in, opts)
		cancel()
		if err != nil || err2 != nil {
			require.Equal(t, fmt.Sprint(err), fmt.Sprint(err2), "%s: the error through a Scratch, resolve %d", in.TemplatePath, i+1)
			continue
		}
		require.Equal(t, string(yamlsrc.Marshal(res.Doc)), string(yamlsrc.Marshal(res2.Doc)), "%s: the output through a Scratch, resolve %d", in.TemplatePath, i+1)
	}
}

// requireSameWithWriteBack resolves in again with the cleanup's write-back
// forced (Options.writeBack) and requires the result, res or err, of a
// resolve without it: the final conditions written into the document are
// read by nothing that a single resolve does.
func requireSameWithWriteBack(t *testing.T, ctx context.Context, in Input, res *Result, err error) {
	t.Helper()
	res2, err2 := Resolve(ctx, in, Options{writeBack: true})
	if err != nil || err2 != nil {
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(err2), "%s: the error with the write-back", in.TemplatePath)
		return
	}
	require.Equal(t, string(yamlsrc.Marshal(res2.Doc)), string(yamlsrc.Marshal(res.Doc)), "%s: the output with the write-back", in.TemplatePath)
}

// TestWriteBackInvisible resolves every template of testdata with and
// without the cleanup's write-back (requireSameWithWriteBack).
func TestWriteBackInvisible(t *testing.T) {
	var n int
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte("tosca_variability")) {
			return err
		}
		n++
		res, rerr := Resolve(t.Context(), Input{TemplatePath: path}, Options{})
		requireSameWithWriteBack(t, t.Context(), Input{TemplatePath: path}, res, rerr)
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 20, "templates resolved")
}
