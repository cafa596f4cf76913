package resolve

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
	"v4t/model/yamlsrc"
)

// TestTreeLinks checks that symbolic links cannot take an import or a side
// file out of the template's directory tree (README, "Limits"), and that a
// template reached through a linked directory still reads its own files.
// Each case builds, in a fresh directory, the template tree t/ and a
// directory out/ beside it.
func TestTreeLinks(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\n"
	const types = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  secret: {derived_from: tosca.nodes.Root}\n"
	const node = "topology_template:\n  node_templates:\n    n: {type: tosca.nodes.Root}\n"
	const tsc = "node_types:\n  tosca.nodes.Root: {conditions: false}\n"
	tests := []struct {
		name     string
		files    map[string]string // relative to the case directory
		links    map[string]string // link name → target, as written
		template string            // path of the template
		allow    bool
		err      string // "" for success; else "pos: message"
	}{
		{name: "import through a link to a file outside",
			files:    map[string]string{"t/t.yaml": head + "imports: [types.yaml]\n" + node, "out/types.yaml": types},
			links:    map[string]string{"t/types.yaml": "../out/types.yaml"},
			template: "t/t.yaml",
			err:      `t/t.yaml:2:11: import "types.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "import through a linked directory",
			files:    map[string]string{"t/t.yaml": head + "imports: [sub/types.yaml]\n" + node, "out/types.yaml": types},
			links:    map[string]string{"t/sub": "../out"},
			template: "t/t.yaml",
			err:      `t/t.yaml:2:11: import "sub/types.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "import through a link, allowed",
			files:    map[string]string{"t/t.yaml": head + "imports: [types.yaml]\n" + node, "out/types.yaml": types},
			links:    map[string]string{"t/types.yaml": "../out/types.yaml"},
			template: "t/t.yaml", allow: true},
		{name: "import through a link that stays inside",
			files:    map[string]string{"t/t.yaml": head + "imports: [types.yaml]\n" + node, "t/lib2/types.yaml": types},
			links:    map[string]string{"t/types.yaml": "lib2/types.yaml"},
			template: "t/t.yaml"},
		{name: "import cycle through a link",
			files:    map[string]string{"t/t.yaml": head + "imports: [b.yaml]\n" + node, "t/b.yaml": head + "imports: [again.yaml]\n"},
			links:    map[string]string{"t/again.yaml": "t.yaml"},
			template: "t/t.yaml",
			err:      `t/b.yaml:2:11: import cycle: t/t.yaml → t/b.yaml → t/again.yaml`},
		{name: "template in a linked directory",
			files:    map[string]string{"out/t.yaml": head + "imports: [types.yaml]\n" + node, "out/types.yaml": types, "out/lib/more.yaml": types[:strings.Index(types, "node_types")]},
			links:    map[string]string{"t": "out"},
			template: "t/t.yaml"},
		{name: "type-specific conditions file through a link",
			files:    map[string]string{"t/t.yaml": head + node, "out/tsc.yaml": tsc},
			links:    map[string]string{"t/type-specific-conditions.yaml": "../out/tsc.yaml"},
			template: "t/t.yaml",
			err:      `t/type-specific-conditions.yaml:1:1: type_specific_conditions file "type-specific-conditions.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "named qualities file through a linked directory",
			files:    map[string]string{"t/t.yaml": head + "topology_template:\n  variability:\n    qualities: sub/q.yaml\n", "out/q.yaml": "[]\n"},
			links:    map[string]string{"t/sub": "../out"},
			template: "t/t.yaml",
			err:      `t/t.yaml:4:16: qualities "sub/q.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "lib type file through a link",
			files:    map[string]string{"t/t.yaml": head + node, "out/types.yaml": types},
			links:    map[string]string{"t/lib/types.yaml": "../../out/types.yaml"},
			template: "t/t.yaml",
			err:      `t/lib/types.yaml:1:1: type file "lib/types.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "lib directory linked outside",
			files:    map[string]string{"t/t.yaml": head + node, "out/types.yaml": types},
			links:    map[string]string{"t/lib": "../out"},
			template: "t/t.yaml",
			err:      `t/lib/types.yaml:1:1: type file "lib/types.yaml" leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{name: "inputs file through a link is the caller's choice",
			files:    map[string]string{"t/t.yaml": head + node, "out/i.yaml": "x: 1\n"},
			links:    map[string]string{"t/i.yaml": "../out/i.yaml"},
			template: "t/t.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteFiles(t, dir, tc.files)
			testkit.Symlinks(t, dir, tc.links)
			t.Chdir(dir)
			in := Input{TemplatePath: filepath.FromSlash(tc.template)}
			if _, ok := tc.links["t/i.yaml"]; ok {
				in.InputsPath = filepath.Join("t", "i.yaml")
			}
			out, err := Resolve(context.Background(), in, Options{AllowOutside: tc.allow})
			if tc.err == "" {
				require.NoError(t, err, "resolving %s", tc.template)
				require.Contains(t, string(yamlsrc.Marshal(out.Doc)), "tosca.nodes.Root", "output of %s", tc.template)
				return
			}
			require.Error(t, err, "resolving %s", tc.template)
			d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
			require.Equal(t, tc.err, filepath.ToSlash(d.Line()), "error of %s", tc.template)
		})
	}
}

// TestUnknownPreset checks the position and note of an unknown preset.
func TestUnknownPreset(t *testing.T) {
	const tmpl = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n" +
		"    inputs: {x: {type: boolean, default: false}}\n    presets:\n      large: {inputs: {x: true}}\n      small: {inputs: {x: false}}\n" +
		"  node_templates:\n    n: {type: tosca.nodes.Root}\n"
	const bare = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    n: {type: tosca.nodes.Root}\n"
	one := strings.Replace(tmpl, "      small: {inputs: {x: false}}\n", "", 1)
	var ps strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&ps, "      p%02d: {inputs: {x: true}}\n", i)
	}
	many := strings.Replace(strings.Replace(tmpl, "      small: {inputs: {x: false}}\n", "", 1), "      large: {inputs: {x: true}}\n", ps.String(), 1)
	tests := []struct {
		name, src string
		presets   []string
		env       string // OPENTOSCA_VINTNER_VARIABILITY_PRESETS, "" for none
		pos, note string
	}{
		{"from the caller, close to a preset", tmpl, []string{"larg"}, "", "6:7", `from --preset; did you mean "large"?`},
		{"from the caller, far from any", tmpl, []string{"medium"}, "", "6:7", `from --preset; the template declares the presets "large" and "small"`},
		{"far from the one declared", one, []string{"medium"}, "", "6:7", `from --preset; the template declares the preset "large"`},
		{"far from many", many, []string{"medium"}, "", "6:7", `from --preset; the template declares the presets "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09", "p10" and 2 more`},
		{"from the environment", tmpl, nil, `["large", "smal"]`, "6:7", `from ` + envPresets + `; did you mean "small"?`},
		{"no presets declared", bare, []string{"large"}, "", "", `from --preset; the template declares no presets`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeTemplate(t, tc.src)
			opts := Options{LookupEnv: func(k string) (string, bool) {
				return tc.env, k == envPresets && tc.env != ""
			}}
			_, err := Resolve(context.Background(), Input{TemplatePath: p, Presets: tc.presets}, opts)
			d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
			name := tc.presets
			if name == nil {
				name = []string{"smal"}
			}
			require.Equal(t, `Did not find variability preset "`+name[0]+`"`, d.Message, "the reference's message, verbatim")
			want := p
			if tc.pos != "" {
				want += ":" + tc.pos
			}
			require.Equal(t, want, d.Pos.String(), "position of %s", tc.name)
			require.Len(t, d.Related, 1, "a note")
			require.Equal(t, tc.note, d.Related[0].Message, "note of %s", tc.name)
		})
	}
}

// TestPresetInputsMerge checks the reference's merge of preset inputs that
// are not a map: a string or a list merges under the keys "0", "1", ...
// (of which only declared inputs are kept, the only ones ever read);
// anything else adds nothing.
func TestPresetInputsMerge(t *testing.T) {
	tests := []struct {
		name, inputs, want string
	}{
		{"map", "{a: 1}", `{"a":1}`},
		{"string", "ab", `{"0":"a","1":"b"}`},
		{"string beyond the declared", "abcd", `{"0":"a","1":"b"}`},
		{"string shorter than the declared", "a", `{"0":"a"}`},
		{"long string", strings.Repeat("x", 1<<16), `{"0":"x","1":"x"}`},
		{"list", "[x, {y: 1}]", `{"0":"x","1":{"y":1}}`},
		{"number", "5", `{}`},
		{"boolean", "true", `{}`},
		{"null", "null", `{}`},
	}
	declared, err := yamlsrc.Parse([]byte("{\"0\": {type: string}, \"1\": {}, \"01\": {}, x: {}}\n"), "t.yaml")
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := yamlsrc.Parse([]byte("v: "+tc.inputs+"\n"), "p.yaml")
			require.NoError(t, err)
			dst := yamlsrc.NewMap()
			mergeAny(dst, src.Get("v"), declared)
			require.Equal(t, tc.want, yamlsrc.JSON(dst), "merge of %.20s", tc.inputs)
			dst = yamlsrc.NewMap()
			mergeAny(dst, src.Get("v"), nil)
			if tc.name == "map" {
				require.Equal(t, tc.want, yamlsrc.JSON(dst), "merge of %s with no inputs declared", tc.inputs)
			} else {
				require.Equal(t, "{}", yamlsrc.JSON(dst), "merge of %.20s with no inputs declared", tc.inputs)
			}
		})
	}
}

// TestImportDepth: a chain of imports ends at tosca.MaxImportDepth, where
// a missing file is still passed through.
func TestImportDepth(t *testing.T) {
	for _, last := range []string{"missing", "present"} {
		files := map[string]string{}
		for i := range 100 {
			files[fmt.Sprintf("f%d.yaml", i)] = fmt.Sprintf("imports: [f%d.yaml]\n", i+1)
		}
		if last == "present" {
			files["f100.yaml"] = "{}\n"
		}
		dir := t.TempDir()
		testkit.WriteFiles(t, dir, files)
		root := filepath.Join(dir, "f0.yaml")
		doc, err := yamlsrc.LoadFile(root)
		require.NoError(t, err)
		err = checkImports(root, doc, false)
		if last == "missing" {
			require.NoError(t, err, "a missing file at the end of the chain")
			continue
		}
		d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
		require.Equal(t, filepath.Join(dir, "f99.yaml")+`:1:11: import "f100.yaml": imports nested deeper than 100 levels`, d.Line())
	}
}

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
				require.Equal(t, diag.SeverityWarning, d.Severity, tc.name)
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
			require.Equal(t, want, got, tc.name)

			// The same result without the warnings' sink.
			opts.Warn = nil
			plain, err := Resolve(context.Background(), in, opts)
			require.NoError(t, err, tc.name)
			require.Equal(t, string(yamlsrc.Marshal(plain.Doc)), string(yamlsrc.Marshal(out.Doc)), tc.name)
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
	require.Equal(t, plain, typos)
	require.NotEqual(t, plain, right, "the right name changes the result")
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
	require.Equal(t, string(yamlsrc.Marshal(fromFiles.Doc)), string(yamlsrc.Marshal(fromData.Doc)))
	fromInputsData, err := Resolve(context.Background(), Input{TemplatePath: tmpl, InputsPath: "<stdin>", InputsData: inputs}, Options{})
	require.NoError(t, err)
	require.Equal(t, string(yamlsrc.Marshal(fromFiles.Doc)), string(yamlsrc.Marshal(fromInputsData.Doc)))

	t.Run("positions name the given path", func(t *testing.T) {
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte("tosca_definitions_version: tosca_variability_1_0\ntopology_template: {node_templates: {a: {type: a, requirements: [{host: b}]}}}\n")}, Options{})
		d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
		require.Equal(t, "<stdin>", d.Pos.File)
		require.Equal(t, 2, d.Pos.Line)
	})
	t.Run("empty data is an empty template, not a file to read", func(t *testing.T) {
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte{}}, Options{})
		d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
		require.Equal(t, "<stdin>:1:1: expected a service template (a map), found null", d.Line())
	})
	t.Run("side files relative to the working directory", func(t *testing.T) {
		t.Chdir(filepath.Dir(tmpl))
		side := "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability: {type_specific_conditions: nothere.yaml}\n  node_templates: {a: {type: a}}\n"
		_, err := Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte(side)}, Options{})
		d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
		require.Contains(t, d.Line(), `<stdin>:3:43: type_specific_conditions "nothere.yaml": cannot read`)
		require.NoError(t, os.WriteFile("nothere.yaml", []byte("{}\n"), 0o644))
		_, err = Resolve(context.Background(), Input{TemplatePath: "<stdin>", TemplateData: []byte(side)}, Options{})
		require.NoError(t, err, "the side file in the working directory")
	})
}
