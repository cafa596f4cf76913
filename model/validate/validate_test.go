package validate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/validate"
)

// fixtures is the directory of the validation fixtures: valid templates
// (no problems) and broken ones, each pinned to its problems.golden.
var fixtures = filepath.Join("..", "..", "testdata", "validate")

func caseDirs(t *testing.T, group string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(fixtures, group, "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no fixtures in %s", group)
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		require.NoError(t, err)
		dirs[i] = abs
	}
	return dirs
}

// validateIn validates template.yaml from within dir, so that positions are
// relative to the case.
func validateIn(t *testing.T, dir string) diag.List {
	t.Helper()
	t.Chdir(dir)
	return validate.File(context.Background(), "template.yaml", validate.Options{})
}

func render(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Line())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestValid(t *testing.T) {
	for _, dir := range caseDirs(t, "valid") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := validateIn(t, dir)
			require.Empty(t, render(got), "problems of valid template %s", dir)
		})
	}
}

func TestBroken(t *testing.T) {
	for _, dir := range caseDirs(t, "broken") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := validateIn(t, dir)
			require.NotEmpty(t, got, "broken template %s gave no problems", dir)
			for _, d := range got {
				require.True(t, d.Pos.File != "" && d.Pos.Line > 0, "%s: problem without a line: %s", dir, d.Line())
				require.NotEqual(t, "internal", d.Code, "%s: %s", dir, d.Line())
			}
			testkit.Golden(t, filepath.Join(dir, "problems.golden"), []byte(render(got)))
		})
	}
}

// TestBytes validates a template given as bytes, with its suggestions.
func TestBytes(t *testing.T) {
	dir := filepath.Join(fixtures, "broken", "missing-type")
	data, err := os.ReadFile(filepath.Join(dir, "template.yaml"))
	require.NoError(t, err)
	got := validate.Bytes(context.Background(), data, filepath.Join(dir, "template.yaml"), validate.Options{})
	require.Len(t, got, 2, "problems of %s", dir)
	require.Contains(t, got[0].Message, `node type "my.nodes.Applicaton" not found (did you mean "my.nodes.Application"?)`)
	require.Contains(t, got[1].Message, `node type "tosca.capabilities.Compute" not found: "tosca.capabilities.Compute" is a capability type`)
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		opts validate.Options
		want string
	}{
		{"outside rejected", validate.Options{}, "leaves the directory tree"},
		{"outside allowed", validate.Options{AllowOutside: true}, "cannot read"},
		{"embedded URL", validate.Options{Embedded: map[string]validate.Embedded{
			"https://example.com/types.yaml": {Name: "<example>", Data: []byte("tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n    x.Y: {derived_from: nowhere}\n")},
		}}, `<example>:3:25: node type "x.Y" derives from unknown node type "nowhere"`},
	}
	dir, err := filepath.Abs(filepath.Join(fixtures, "broken", "import-escape"))
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(dir)
			got := render(validate.File(context.Background(), "template.yaml", tc.opts))
			require.Contains(t, got, tc.want, "problems of %s with %+v", dir, tc.opts)
		})
	}
}

// FuzzValidate: any input gives problems with positions, never a panic
// (an internal error diagnostic counts as one).
func FuzzValidate(f *testing.F) {
	for _, group := range []string{"valid", "broken"} {
		files, _ := filepath.Glob(filepath.Join(fixtures, group, "*", "*.yaml"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("tosca_definitions_version: tosca_variability_1_0\ntopology_template: {node_templates: [a, {b: null}]}"))
	f.Add([]byte("node_types: {a: {derived_from: a, properties: {p: {type: a}}}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		file := filepath.Join(dir, "t.yaml")
		for _, d := range validate.Bytes(context.Background(), data, file, validate.Options{NoLib: true}) {
			if d.Code == "internal" {
				t.Fatalf("internal error on %q: %s", data, d.Message)
			}
			if !d.Pos.Known() {
				t.Fatalf("problem without position on %q: %s", data, d.Message)
			}
		}
	})
}

// TestTreeLinks checks that a symbolic link cannot take an import or a lib/
// type file out of the template's directory tree, while a template reached
// through a linked directory, and a link that stays inside, are fine. Each
// case builds the template tree t/ and a directory out/ beside it.
func TestTreeLinks(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\n"
	const types = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Secret: {derived_from: tosca.nodes.Root}\n"
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string // link name → target, as written
		opts  validate.Options
		want  string // the problems, rendered
	}{
		{name: "import through a link to a file outside",
			files: map[string]string{"t/template.yaml": head + "imports: [types.yaml]\n", "out/types.yaml": types},
			links: map[string]string{"t/types.yaml": "../out/types.yaml"},
			want:  "t/template.yaml:2:11: import \"types.yaml\" leaves the directory tree of the template through a symbolic link\n"},
		{name: "import through a linked directory",
			files: map[string]string{"t/template.yaml": head + "imports: [sub/types.yaml]\n", "out/types.yaml": types},
			links: map[string]string{"t/sub": "../out"},
			want:  "t/template.yaml:2:11: import \"sub/types.yaml\" leaves the directory tree of the template through a symbolic link\n"},
		{name: "import through a link, allowed",
			files: map[string]string{"t/template.yaml": head + "imports: [types.yaml]\n", "out/types.yaml": types},
			links: map[string]string{"t/types.yaml": "../out/types.yaml"},
			opts:  validate.Options{AllowOutside: true}},
		{name: "import through a link that stays inside",
			files: map[string]string{"t/template.yaml": head + "imports: [types.yaml]\n", "t/defs/types.yaml": types},
			links: map[string]string{"t/types.yaml": "defs/types.yaml"}},
		{name: "the same file through a link and directly",
			files: map[string]string{"t/template.yaml": head + "imports: [types.yaml, defs/types.yaml]\n", "t/defs/types.yaml": types},
			links: map[string]string{"t/types.yaml": "defs/types.yaml"}},
		{name: "template in a linked directory",
			files: map[string]string{"out/template.yaml": head + "imports: [types.yaml]\n", "out/types.yaml": types, "out/lib/more.yaml": strings.ReplaceAll(types, "Secret", "Other")},
			links: map[string]string{"t": "out"}},
		{name: "lib type file through a link",
			files: map[string]string{"t/template.yaml": head, "out/types.yaml": types},
			links: map[string]string{"t/lib/types.yaml": "../../out/types.yaml"},
			want:  "t/lib/types.yaml:1:1: type file \"lib/types.yaml\" leaves the directory tree of the template through a symbolic link\n"},
		{name: "import outside without a link",
			files: map[string]string{"t/template.yaml": head + "imports: [../out/types.yaml]\n", "out/types.yaml": types},
			want:  "t/template.yaml:2:11: import \"../out/types.yaml\" leaves the directory tree of the template\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteFiles(t, dir, tc.files)
			testkit.Symlinks(t, dir, tc.links)
			t.Chdir(dir)
			got := validate.File(context.Background(), filepath.Join("t", "template.yaml"), tc.opts)
			require.Equal(t, tc.want, filepath.ToSlash(render(got)), "problems of %s", tc.name)
		})
	}
}

// TestPresets checks the problems of variability presets that the resolver
// cannot apply as meant: a preset that is not a map, inputs that are not
// one.
func TestPresets(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n" +
		"    inputs: {x: {type: boolean, default: false}}\n    presets:\n"
	tests := []struct {
		name, presets, want string
	}{
		{"fine", "      a: {inputs: {x: true}}\n      b: {name: B, description: the b one, inputs: {}}\n", ""},
		{"a string", "      a: hello\n", "t.yaml:6:10: expected a map for variability preset \"a\", found a string\n"},
		{"null", "      a:\n      b: {inputs: {x: true}}\n", "t.yaml:6:9: expected a map for variability preset \"a\", found null\n"},
		{"inputs a string", "      a: {inputs: world}\n", "t.yaml:6:19: expected a map for \"inputs\" in variability preset \"a\", found a string\n"},
		{"inputs a list", "      a:\n        inputs: [x]\n", "t.yaml:7:17: expected a map for \"inputs\" in variability preset \"a\", found a list\n"},
		{"unknown key", "      a:\n        input: {x: true}\n", "t.yaml:7:9: unknown field \"input\" in variability preset \"a\" (did you mean \"inputs\"?)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := validate.Bytes(context.Background(), []byte(head+tc.presets), "t.yaml", validate.Options{NoLib: true})
			require.Equal(t, tc.want, render(got), "problems of %s", tc.presets)
		})
	}
}

// TestFoundKinds: the validator names the kind of a wrong value in the
// resolver's words (graph.Describe): "an empty map", "a date".
func TestFoundKinds(t *testing.T) {
	const src = "tosca_definitions_version: tosca_simple_yaml_1_3\n" +
		"node_types:\n  my.N:\n    properties: {s: {type: string}}\n" +
		"topology_template:\n  node_templates:\n" +
		"    a: {type: {}}\n" +
		"    b: {type: my.N, properties: {s: 2024-01-01}}\n" +
		"    c: {type: 2024-01-01}\n"
	got := validate.Bytes(context.Background(), []byte(src), "t.yaml", validate.Options{NoLib: true})
	require.Equal(t, "t.yaml:7:15: expected a string for \"type\" in node template \"a\", found an empty map\n"+
		"t.yaml:8:37: expected a string for property \"s\" of node template \"b\" of type \"string\", found a date\n"+
		"t.yaml:9:15: expected a string for \"type\" in node template \"c\", found a date\n", render(got))
}

// TestImportDepth: a chain of imports ends at tosca.MaxImportDepth, with
// one problem at the import that goes too deep.
func TestImportDepth(t *testing.T) {
	files := map[string]string{}
	for i := 0; i <= 100; i++ {
		files[fmt.Sprintf("f%d.yaml", i)] = fmt.Sprintf("tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [f%d.yaml]\n", i+1)
	}
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, files)
	t.Chdir(dir)
	got := validate.File(context.Background(), "f0.yaml", validate.Options{NoLib: true})
	require.Equal(t, "f99.yaml:2:11: import \"f100.yaml\": imports nested deeper than 100 levels\n", render(got))
}
