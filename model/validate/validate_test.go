package validate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
			assert.Empty(t, render(got), "problems of valid template %s", dir)
		})
	}
}

func TestBroken(t *testing.T) {
	for _, dir := range caseDirs(t, "broken") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := validateIn(t, dir)
			require.NotEmpty(t, got, "broken template %s gave no problems", dir)
			for _, d := range got {
				assert.True(t, d.Pos.File != "" && d.Pos.Line > 0, "%s: problem without a line: %s", dir, d.Line())
				assert.NotEqual(t, "internal", d.Code, "%s: %s", dir, d.Line())
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
	assert.Contains(t, got[0].Message, `node type "my.nodes.Applicaton" not found (did you mean "my.nodes.Application"?)`)
	assert.Contains(t, got[1].Message, `node type "tosca.capabilities.Compute" not found: "tosca.capabilities.Compute" is a capability type`)
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
			assert.Contains(t, got, tc.want, "problems of %s with %+v", dir, tc.opts)
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
