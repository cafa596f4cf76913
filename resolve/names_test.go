package resolve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// namesTemplate declares the input size, a preset with an input it does
// not declare, and an option the reference does not know.
const namesTemplate = `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs:
            size: {type: string, default: small}
        presets:
            big:
                inputs:
                    size: large
                    backups: true
        options:
            type_default_condition: true
            anchor_check: true
    node_templates:
        shop: {type: shop}
        large_vm: {type: vm, conditions: {equal: [{variability_input: size}, large]}}
`

// TestUnknownNames: every name the reference ignores is one warning, with
// where it was written and the known name it may be a typo of, and the
// result is what resolving without the name gives.
func TestUnknownNames(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "template.yaml")
	require.NoError(t, os.WriteFile(tmpl, []byte(namesTemplate), 0o644))
	inputs := filepath.Join(dir, "inputs.yaml")
	require.NoError(t, os.WriteFile(inputs, []byte("size: small\nsise: large\n"), 0o644))
	xml := filepath.Join(dir, "inputs.xml")
	require.NoError(t, os.WriteFile(xml, []byte(`<extendedConfiguration><feature name="Root" manual="selected"/></extendedConfiguration>`), 0o644))
	const anchor = `DIR/template.yaml:13:13: unknown variability option "anchor_check"`
	str := yamlsrc.NewString
	tests := []struct {
		name string
		in   Input
		opts Options
		// env is the environment, KEY=VALUE.
		env []string
		// want are the warnings; DIR/ stands for the directory of the
		// template.
		want []string
	}{
		{name: "the template's own option", want: []string{anchor}},
		{
			name: "--input",
			in:   Input{Inputs: []Assignment{{Name: "siz", Value: str("large"), Origin: "--input siz=large"}}},
			want: []string{anchor, `--input siz=large: the template declares no variability input "siz" (did you mean "size"?)`},
		},
		{
			name: "an input without origin",
			in:   Input{Inputs: []Assignment{{Name: "colour", Value: str("red")}}},
			want: []string{anchor, `the template declares no variability input "colour"`},
		},
		{
			name: "--option",
			opts: Options{Overrides: []Assignment{{Name: "optimisation_topology", Value: str("max"), Origin: "--option optimisation_topology=max"}}},
			want: []string{anchor, `--option optimisation_topology=max: unknown variability option "optimisation_topology" (did you mean "optimization_topology"?)`},
		},
		{
			name: "a known option and a declared input",
			in:   Input{Inputs: []Assignment{{Name: "size", Value: str("large")}}},
			opts: Options{Overrides: []Assignment{{Name: "optimization_topology", Value: str("max")}}},
			want: []string{anchor},
		},
		{
			name: "an applied preset",
			in:   Input{Presets: []string{"big"}},
			want: []string{anchor, `DIR/template.yaml:10:21: preset "big": the template declares no variability input "backups"`},
		},
		{
			name: "the inputs file and the environment read with it",
			in:   Input{InputsPath: inputs},
			env:  []string{"OPENTOSCA_VINTNER_VARIABILITY_INPUT_SIZ=large", "OPENTOSCA_VINTNER_VARIABILITY_INPUT_SIZE=small"},
			want: []string{anchor,
				`OPENTOSCA_VINTNER_VARIABILITY_INPUT_SIZ: the template declares no variability input "siz" (did you mean "size"?)`,
				`DIR/inputs.yaml:2:1: the template declares no variability input "sise" (did you mean "size"?)`},
		},
		{
			name: "the environment without an inputs file is not read",
			env:  []string{"OPENTOSCA_VINTNER_VARIABILITY_INPUT_SIZ=large"},
			want: []string{anchor},
		},
		{
			name: "a FeatureIDE configuration lists every feature",
			in:   Input{InputsPath: xml},
			want: []string{anchor},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TemplatePath = tmpl
			var got []string
			opts := tc.opts
			opts.Warn = func(d *diag.Diagnostic) {
				assert.Equal(t, diag.SeverityWarning, d.Severity, tc.name)
				got = append(got, filepath.ToSlash(d.Line()))
			}
			opts.Environ = func() []string { return tc.env }
			opts.LookupEnv = func(string) (string, bool) { return "", false }
			out, err := Resolve(context.Background(), in, opts)
			require.NoError(t, err, tc.name)
			want := make([]string, len(tc.want))
			for i, w := range tc.want {
				want[i] = strings.Replace(w, "DIR/", filepath.ToSlash(dir)+"/", 1)
			}
			assert.Equal(t, want, got, tc.name)

			// The same result without the warnings' sink.
			opts.Warn = nil
			plain, err := Resolve(context.Background(), in, opts)
			require.NoError(t, err, tc.name)
			assert.Equal(t, string(yamlsrc.Marshal(plain.Doc)), string(yamlsrc.Marshal(out.Doc)), tc.name)
		})
	}
}

// TestUnknownNamesChangeNothing: an input or option the template does not
// know gives the result of resolving without it.
func TestUnknownNamesChangeNothing(t *testing.T) {
	tmpl := writeTemplate(t, namesTemplate)
	resolveWith := func(in Input, opts Options) string {
		in.TemplatePath = tmpl
		out, err := Resolve(context.Background(), in, opts)
		require.NoError(t, err)
		return string(yamlsrc.Marshal(out.Doc))
	}
	plain := resolveWith(Input{}, Options{})
	typos := resolveWith(Input{Inputs: []Assignment{{Name: "siz", Value: yamlsrc.NewString("large")}}},
		Options{Overrides: []Assignment{{Name: "optimisation_topology", Value: yamlsrc.NewString("max")}}, Warn: func(*diag.Diagnostic) {}})
	right := resolveWith(Input{Inputs: []Assignment{{Name: "size", Value: yamlsrc.NewString("large")}}}, Options{})
	assert.Equal(t, plain, typos)
	assert.NotEqual(t, plain, right, "the right name changes the result")
}

// TestTemplateData: a template and inputs given as bytes resolve as the
// files do, are named by their paths in positions, and find their side
// files relative to the directory of that path.
func TestTemplateData(t *testing.T) {
	tmpl := writeTemplate(t, namesTemplate)
	data, err := os.ReadFile(tmpl)
	require.NoError(t, err)
	inputs := []byte("size: large\n")
	inputsFile := filepath.Join(filepath.Dir(tmpl), "inputs.yaml")
	require.NoError(t, os.WriteFile(inputsFile, inputs, 0o644))

	fromFiles, err := Resolve(context.Background(), Input{TemplatePath: tmpl, InputsPath: inputsFile}, Options{})
	require.NoError(t, err)
	fromData, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: data, InputsPath: inputsFile}, Options{})
	require.NoError(t, err)
	assert.Equal(t, string(yamlsrc.Marshal(fromFiles.Doc)), string(yamlsrc.Marshal(fromData.Doc)))
	fromInputsData, err := Resolve(context.Background(), Input{TemplatePath: tmpl, InputsPath: "<stdin>", InputsData: inputs}, Options{})
	require.NoError(t, err)
	assert.Equal(t, string(yamlsrc.Marshal(fromFiles.Doc)), string(yamlsrc.Marshal(fromInputsData.Doc)))

	t.Run("positions name the given path", func(t *testing.T) {
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte("tosca_definitions_version: tosca_variability_1_0\ntopology_template: {node_templates: {a: {type: a, requirements: [{host: b}]}}}\n")}, Options{})
		d, ok := diag.As(err)
		require.True(t, ok, "a diagnostic: %v", err)
		assert.Equal(t, "<stdin>", d.Pos.File)
		assert.Equal(t, 2, d.Pos.Line)
	})
	t.Run("empty data is an empty template, not a file to read", func(t *testing.T) {
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte{}}, Options{})
		d, ok := diag.As(err)
		require.True(t, ok, "a diagnostic: %v", err)
		assert.Equal(t, "<stdin>:1:1: expected a service template (a map), found null", d.Line())
	})
	t.Run("side files relative to the working directory", func(t *testing.T) {
		t.Chdir(filepath.Dir(tmpl))
		side := "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability: {type_specific_conditions: nothere.yaml}\n  node_templates: {a: {type: a}}\n"
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte(side)}, Options{})
		d, ok := diag.As(err)
		require.True(t, ok, "a diagnostic: %v", err)
		assert.Contains(t, d.Line(), `<stdin>:3:43: type_specific_conditions "nothere.yaml": cannot read`)
		require.NoError(t, os.WriteFile("nothere.yaml", []byte("{}\n"), 0o644))
		_, err = Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte(side)}, Options{})
		assert.NoError(t, err, "the side file in the working directory")
	})
}
