package suite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// fakeResolve returns a resolver that records its input and yields the
// parsed document out, or err.
func fakeResolve(t *testing.T, out string, err error, got *resolve.Input) func(context.Context, resolve.Input, resolve.Options) (*resolve.Result, error) {
	return func(_ context.Context, in resolve.Input, opts resolve.Options) (*resolve.Result, error) {
		require.Nil(t, opts.LookupEnv, "the runner must not pass an environment")
		if got != nil {
			*got = in
		}
		if err != nil {
			return nil, err
		}
		v, perr := yamlsrc.Parse([]byte(out), "fake")
		require.NoError(t, perr, "fake output %q", out)
		return &resolve.Result{Doc: v}, nil
	}
}

func TestVintnerRun(t *testing.T) {
	const doc = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a: {type: t}\n"
	tests := []struct {
		name       string
		files      map[string]string
		out        string
		err        error
		wantPass   bool
		wantReason string
		wantDiff   []string
	}{
		{
			name:     "expected error matches",
			files:    map[string]string{"c/template.yaml": "", "c/test.yaml": "error: Could not solve"},
			err:      diag.At(diag.Pos{File: "c/template.yaml", Line: 3}, diag.StageSolve, "Could not solve"),
			wantPass: true,
		},
		{
			name:       "expected error differs",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "error: Could not solve"},
			err:        diag.New(diag.StageCheck, `Node "one" has more than one hosting relations`),
			wantReason: `expected error "Could not solve" but got "Node "one" has more than one hosting relations"`,
		},
		{
			name:     "the reference's message of a worded JavaScript error matches",
			files:    map[string]string{"c/template.yaml": "", "c/test.yaml": "error: Cannot check if object true is empty"},
			err:      diag.AtRef(diag.Pos{File: "c/template.yaml", Line: 4}, diag.StageLoad, "expected variability options as a map, found a boolean", "Cannot check if object true is empty"),
			wantPass: true,
		},
		{
			name:       "v4t's own wording of a JavaScript error does not match",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "error: expected variability options as a map, found a boolean"},
			err:        diag.AtRef(diag.Pos{File: "c/template.yaml", Line: 4}, diag.StageLoad, "expected variability options as a map, found a boolean", "Cannot check if object true is empty"),
			wantReason: `expected error "expected variability options as a map, found a boolean" but got "expected variability options as a map, found a boolean (the reference fails with: Cannot check if object true is empty)"`,
		},
		{
			name:       "expected error but success",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "error: Could not solve"},
			out:        doc,
			wantReason: `expected error "Could not solve" but resolving succeeded`,
		},
		{
			name:       "a non-string error never matches",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "error: 42"},
			err:        errors.New("42"),
			wantReason: `expected error 42 but got "42"`,
		},
		{
			name:       "error messages keep to one line",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "error: x"},
			err:        errors.New("a\nb"),
			wantReason: `expected error "x" but got "a\nb"`,
		},
		{
			name:     "equal output, other key order and number form",
			files:    map[string]string{"c/template.yaml": "", "c/expected.yaml": "topology_template: {node_templates: {a: {type: t}}}\ntosca_definitions_version: tosca_simple_yaml_1_3\n"},
			out:      doc,
			wantPass: true,
		},
		{
			name:       "different output",
			files:      map[string]string{"c/template.yaml": "", "c/expected.yaml": "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a: {type: u}\n"},
			out:        doc,
			wantReason: "resolved template differs from expected",
			wantDiff:   []string{"--- expected\n+++ actual\n@@ ", "\n-            type: u\n+            type: t\n"},
		},
		{
			name:       "types count",
			files:      map[string]string{"c/template.yaml": "", "c/expected.yaml": "a: '1'\n"},
			out:        "a: 1\n",
			wantReason: "resolved template differs from expected",
		},
		{
			name:       "unexpected error",
			files:      map[string]string{"c/template.yaml": "", "c/expected.yaml": doc},
			err:        diag.New(diag.StageSolve, "Could not solve"),
			wantReason: `unexpected error "Could not solve"`,
		},
		{
			name:       "missing expected file",
			files:      map[string]string{"c/template.yaml": ""},
			out:        doc,
			wantReason: `harness: Did not find expected service template in directory "` + filepath.Join("ROOT", "c") + `"`,
		},
		{
			name:       "missing template is a resolve error",
			files:      map[string]string{"c/test.yaml": "error: nope", "c/expected.yaml": ""},
			wantReason: `expected error "nope" but got "Did not find variable service template in directory "` + filepath.Join("ROOT", "c") + `""`,
		},
		{
			name:       "invalid test.yaml",
			files:      map[string]string{"c/template.yaml": "", "c/test.yaml": "- a\n- b\n"},
			wantReason: "harness: " + filepath.Join("ROOT", "c", "test.yaml") + ":1:1: expected a map of test settings, found a list",
		},
		{
			name: "replace and merge",
			files: map[string]string{
				"c/template.yaml": "",
				"c/test.yaml":     "replace: [[SECRET, 'x$$y'], [absent, z]]\nmerge: {extra: {list: [9]}, a: null}\n",
				"c/expected.yaml": "value: x$y\nextra: {list: [1, 2]}\na: 5\n",
			},
			out:      "value: SECRET\nextra: {list: [9, 2]}\na: null\n",
			wantPass: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			v := &Vintner{Resolve: fakeResolve(t, tc.out, tc.err, nil)}
			got := v.Run(context.Background(), Case{Path: "x/c", Dir: filepath.Join(root, "c"), Runner: v})
			got.Reason = oneLine(got.Reason)
			want := tc.wantReason
			if want != "" {
				want = replaceRoot(want, root)
			}
			require.Equal(t, tc.wantPass, got.Pass, "pass of %s (reason %q)", tc.name, got.Reason)
			require.Equal(t, want, got.Reason, "reason of %s", tc.name)
			for _, part := range tc.wantDiff {
				require.Contains(t, got.Diff, part, "diff of %s", tc.name)
			}
		})
	}
}

func replaceRoot(s, root string) string {
	return jsReplaceAll(s, "ROOT", root)
}

func TestVintnerInput(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		dir   string
		want  resolve.Input
	}{
		{
			name: "default names in the reference's order",
			files: map[string]string{
				"c/vst.yaml": "", "c/template.yaml": "", "c/service-template.yaml": "",
				"c/est.yaml": "", "c/expected.yaml": "",
				"c/inputs.yaml": "", "c/inputs.xml": "",
			},
			dir:  "c",
			want: resolve.Input{TemplatePath: "c/vst.yaml", InputsPath: "c/inputs.yaml"},
		},
		{
			name:  "later default names",
			files: map[string]string{"c/service-template.yaml": "", "c/template.yaml": "", "c/inputs.xml": "", "c/expected.yaml": ""},
			dir:   "c",
			want:  resolve.Input{TemplatePath: "c/service-template.yaml", InputsPath: "c/inputs.xml"},
		},
		{
			name: "test.yaml paths and a preset string",
			files: map[string]string{
				"g/c/test.yaml":     "template: ../shared.yaml\ninputs: ../in.yaml\nexpected: ../exp.yaml\npresets: small\nname: n\ndescription: d\nresolver: {x: 1}\n",
				"g/c/template.yaml": "",
				"g/shared.yaml":     "",
				"g/exp.yaml":        "",
				"g/c/inputs.yaml":   "",
			},
			dir:  "g/c",
			want: resolve.Input{TemplatePath: "g/shared.yaml", InputsPath: "g/in.yaml", Presets: []string{"small"}},
		},
		{
			name:  "preset list",
			files: map[string]string{"c/test.yaml": "presets: [a, 2, b]\n", "c/template.yaml": "", "c/expected.yaml": ""},
			dir:   "c",
			want:  resolve.Input{TemplatePath: "c/template.yaml", Presets: []string{"a", "2", "b"}},
		},
		{
			name: "example test takes the example's template",
			files: map[string]string{
				"ex/variable-service-template.yaml": "",
				"ex/tests/one/test.yaml":            "presets: [p]\n",
				"ex/tests/one/expected.yaml":        "",
				"ex/tests/one/inputs.yaml":          "",
			},
			dir:  "ex/tests/one",
			want: resolve.Input{TemplatePath: "ex/variable-service-template.yaml", InputsPath: "ex/tests/one/inputs.yaml", Presets: []string{"p"}},
		},
		{
			name: "example test with a template path",
			files: map[string]string{
				"ex/other.yaml":              "",
				"ex/tests/one/test.yaml":     "template: other.yaml\n",
				"ex/tests/one/expected.yaml": "",
			},
			dir:  "ex/tests/one",
			want: resolve.Input{TemplatePath: "ex/other.yaml"},
		},
		{
			name: "a group named tests with its own templates is no example",
			files: map[string]string{
				"s/template.yaml":           "",
				"s/tests/one/template.yaml": "",
				"s/tests/one/expected.yaml": "",
			},
			dir:  "s/tests/one",
			want: resolve.Input{TemplatePath: "s/tests/one/template.yaml"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			t.Chdir(root)
			var got resolve.Input
			v := &Vintner{Resolve: fakeResolve(t, "", errors.New("stop"), &got)}
			v.Run(context.Background(), Case{Path: tc.dir, Dir: filepath.FromSlash(tc.dir), Runner: v})
			want := tc.want
			want.TemplatePath = filepath.FromSlash(want.TemplatePath)
			want.InputsPath = filepath.FromSlash(want.InputsPath)
			require.Equal(t, want, got, "input of %s", tc.name)
		})
	}
}
