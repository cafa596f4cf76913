package suite

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// Default file names of the Vintner case format (variability.md §14), in the
// order the reference tries them.
var (
	templateNames = []string{"vst.yaml", "variable-service-template.yaml", "service-template.yaml", "template.yaml"}
	expectedNames = []string{"est.yaml", "expected.yaml"}
	inputsNames   = []string{"inputs.yaml", "inputs.xml"}
)

// Vintner runs cases in the format of the reference's conformance suite.
//
// Spec variability.md §14 (runner procedure) and §13 (comparison); the
// reference code is tests/utils.ts and src/controller/template/test.ts.
type Vintner struct {
	// Resolve is the resolver under test; nil means resolve.Resolve.
	Resolve func(context.Context, resolve.Input, resolve.Options) (*resolve.Result, error)
}

var _ Runner = (*Vintner)(nil)

// Format implements Runner.
func (*Vintner) Format() string { return "vintner" }

// Detect implements Runner: a case holds test.yaml, an expected file or a
// template under one of the default names.
func (*Vintner) Detect(d DirInfo) bool {
	if d.Has("test.yaml") {
		return true
	}
	if slices.ContainsFunc(expectedNames, d.Has) {
		return true
	}
	return slices.ContainsFunc(templateNames, d.Has)
}

// Run implements Runner.
func (v *Vintner) Run(ctx context.Context, c Case) Outcome {
	cfg, err := loadConfig(c.Dir)
	if err != nil {
		return fail("harness: %s", errLine(err))
	}
	in, err := caseInput(c.Dir, cfg)
	var result *yamlsrc.Value
	if err == nil {
		result, err = v.resolve(ctx, in)
	}
	if want := cfg.Get("error"); !want.IsNull() {
		return checkError(want, result, err)
	}
	if err != nil {
		return fail(`unexpected error "%s"`, errText(err))
	}
	return compareResult(c.Dir, cfg, result)
}

func (v *Vintner) resolve(ctx context.Context, in resolve.Input) (*yamlsrc.Value, error) {
	fn := v.Resolve
	if fn == nil {
		fn = resolve.Resolve
	}
	// Like the reference runner: no environment (variability.md §14).
	res, err := fn(ctx, in, resolve.Options{LookupEnv: nil})
	if err != nil {
		return nil, err
	}
	return res.Doc, nil
}

// loadConfig reads test.yaml if there is one; the result is a map, or nil.
func loadConfig(dir string) (*yamlsrc.Value, error) {
	path := filepath.Join(dir, "test.yaml")
	if !isFile(path) {
		return nil, nil
	}
	cfg, err := yamlsrc.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if cfg.IsNull() {
		return nil, nil
	}
	if !cfg.IsMap() {
		return nil, diag.At(diag.Pos{File: path, Line: int(cfg.Line), Col: int(cfg.Col)}, diag.StageLoad,
			fmt.Sprintf("expected a map of test settings, found a %s", cfg.Kind))
	}
	return cfg, nil
}

// caseInput builds the resolver input of a case. Like the reference, a
// missing template is an error of the resolve step, so that it is compared
// with an expected error.
func caseInput(dir string, cfg *yamlsrc.Value) (resolve.Input, error) {
	var in resolve.Input
	templateDir := dir
	if ex, ok := exampleDir(dir, cfg); ok {
		templateDir = ex
	}
	if t := cfg.Get("template"); !t.IsNull() {
		in.TemplatePath = filepath.Join(templateDir, yamlsrc.String(t))
	} else {
		in.TemplatePath = firstFile(templateDir, templateNames)
		if in.TemplatePath == "" {
			return in, diag.New(diag.StageLoad, `Did not find variable service template in directory "`+templateDir+`"`)
		}
	}
	if i := cfg.Get("inputs"); !i.IsNull() {
		in.InputsPath = filepath.Join(dir, yamlsrc.String(i))
	} else {
		in.InputsPath = firstFile(dir, inputsNames)
	}
	in.Presets = toList(cfg.Get("presets"))
	return in, nil
}

// exampleDir recognises a test of an example, EXAMPLE/tests/CASE: the
// reference's `template test` takes the template (and a test.yaml template
// path) from EXAMPLE, the rest from CASE. It applies when the case has no
// template of its own and EXAMPLE has one.
func exampleDir(dir string, cfg *yamlsrc.Value) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Base(filepath.Dir(abs)) != "tests" {
		return "", false
	}
	example := filepath.Dir(filepath.Dir(dir))
	if firstFile(dir, templateNames) != "" {
		return "", false
	}
	if t := cfg.Get("template"); !t.IsNull() {
		name := yamlsrc.String(t)
		if isFile(filepath.Join(dir, name)) || !isFile(filepath.Join(example, name)) {
			return "", false
		}
		return example, true
	}
	return example, firstFile(example, templateNames) != ""
}

// firstFile returns the first of names that is a file in dir, or "".
func firstFile(dir string, names []string) string {
	for _, n := range names {
		if p := filepath.Join(dir, n); isFile(p) {
			return p
		}
	}
	return ""
}

// toList is the reference's utils.toList: nothing gives an empty list, a
// list stays, anything else is a one-element list.
func toList(v *yamlsrc.Value) []string {
	if v.IsNull() {
		return nil
	}
	if !v.IsList() {
		return []string{yamlsrc.String(v)}
	}
	out := make([]string, 0, len(v.List()))
	for _, item := range v.List() {
		out = append(out, yamlsrc.String(item))
	}
	return out
}

// checkError compares the outcome with the error a case expects: the
// messages must be equal strings.
func checkError(want, result *yamlsrc.Value, err error) Outcome {
	wantText := `"` + yamlsrc.String(want) + `"`
	if !want.IsString() {
		wantText = yamlsrc.JSON(want)
	}
	if err == nil {
		return fail("expected error %s but resolving succeeded", wantText)
	}
	got := message(err)
	if !want.IsString() || got != want.Str() {
		return fail(`expected error %s but got "%s"`, wantText, errText(err))
	}
	return Outcome{Pass: true}
}

// compareResult writes the result as the reference would, applies replace,
// reads it back and compares it with the expected document (with merge).
func compareResult(dir string, cfg, result *yamlsrc.Value) Outcome {
	text := string(yamlsrc.Marshal(result))
	if r := cfg.Get("replace"); !r.IsNull() {
		pairs, err := replacePairs(r)
		if err != nil {
			return fail("harness: test.yaml: %v", err)
		}
		for _, p := range pairs {
			text = jsReplaceAll(text, p[0], p[1])
		}
	}
	actual, err := yamlsrc.Parse([]byte(text), filepath.Join(dir, "<result>"))
	if err != nil {
		return fail("cannot read the written result back: %s", errLine(err))
	}
	expected, err := loadExpected(dir, cfg)
	if err != nil {
		return fail("harness: %s", errLine(err))
	}
	if m := cfg.Get("merge"); !m.IsNull() {
		lodashMerge(expected, m)
	}
	if yamlsrc.DeepEqual(actual, expected) {
		return Outcome{Pass: true}
	}
	return Outcome{
		Reason: "resolved template differs from expected",
		Diff:   DocumentDiff(expected, actual),
	}
}

// replacePairs reads test.yaml's replace: a list of [find, replace] pairs.
func replacePairs(r *yamlsrc.Value) ([][2]string, error) {
	if !r.IsList() {
		return nil, fmt.Errorf("replace: expected a list of [find, replace] pairs, found a %s", r.Kind)
	}
	out := make([][2]string, 0, len(r.List()))
	for i, e := range r.List() {
		if !e.IsList() || len(e.List()) < 2 {
			return nil, fmt.Errorf("replace[%d]: expected a [find, replace] pair", i)
		}
		out = append(out, [2]string{yamlsrc.String(e.List()[0]), yamlsrc.String(e.List()[1])})
	}
	return out, nil
}

// loadExpected reads the expected document: test.yaml's expected, else the
// first of est.yaml and expected.yaml.
func loadExpected(dir string, cfg *yamlsrc.Value) (*yamlsrc.Value, error) {
	path := ""
	if e := cfg.Get("expected"); !e.IsNull() {
		path = filepath.Join(dir, yamlsrc.String(e))
	} else {
		path = firstFile(dir, expectedNames)
		if path == "" {
			return nil, diag.New(diag.StageLoad, `Did not find expected service template in directory "`+dir+`"`)
		}
	}
	return yamlsrc.LoadFile(path)
}

// DocumentDiff renders both documents with sorted map keys (key order does
// not count in the comparison) and returns their unified diff.
func DocumentDiff(expected, actual *yamlsrc.Value) string {
	a := string(yamlsrc.Marshal(sortedKeys(expected)))
	b := string(yamlsrc.Marshal(sortedKeys(actual)))
	if a == b {
		return "(the documents print alike but differ in value types, e.g. a date and a string)\n"
	}
	return Diff("expected", a, "actual", b)
}

// sortedKeys returns a copy of v with every map's keys sorted.
func sortedKeys(v *yamlsrc.Value) *yamlsrc.Value {
	switch {
	case v.IsMap():
		keys := append([]string(nil), v.Map().Keys()...)
		sort.Strings(keys)
		out := yamlsrc.NewMap()
		for _, k := range keys {
			out.Map().Set(k, sortedKeys(v.Map().Get(k)))
		}
		return out
	case v.IsList():
		items := make([]*yamlsrc.Value, len(v.List()))
		for i, item := range v.List() {
			items[i] = sortedKeys(item)
		}
		return yamlsrc.NewList(items...)
	}
	return v
}

// message returns the message of a resolve error as the reference's
// e.message: the reference's message kept by the diagnostic (its Reference
// where v4t words a JavaScript error of the reference itself, else its
// verbatim Message).
func message(err error) string {
	if d, ok := diag.As(err); ok {
		return d.ReferenceMessage()
	}
	return err.Error()
}

// errText is the message of an error as v4t prints it (with the
// reference's message appended where v4t words it differently).
func errText(err error) string {
	if d, ok := diag.As(err); ok {
		return d.Text()
	}
	return err.Error()
}

// errLine renders an error on one line, with its position when known.
func errLine(err error) string {
	if d, ok := diag.As(err); ok {
		return d.Line()
	}
	return err.Error()
}

func fail(format string, args ...any) Outcome {
	return Outcome{Reason: fmt.Sprintf(format, args...)}
}
