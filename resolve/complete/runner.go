package complete

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// The TosKeriser conformance case format (conformance/toskeriser/README.md;
// completion.md §15). A case directory holds args.yaml, the input
// (input.yaml or input.csar), and either expected.yaml with
// expected-name.txt or errors.txt. The catalog named by args.yaml is
// catalogs/<name> in the case's directory or the nearest parent that has
// one. stdout.txt and queries.txt are informative; this package's tests
// compare them too.

// CaseMarker is the file that marks a case directory.
const CaseMarker = "args.yaml"

// CaseArgs is a case's args.yaml.
type CaseArgs struct {
	Input   string
	Catalog string
	// Policy and Constraints are nil when the flag is not given.
	Policy      *string
	Constraints *string
	Force       bool
	Components  []string
}

// ReadCaseArgs reads dir/args.yaml.
func ReadCaseArgs(dir string) (*CaseArgs, error) {
	file := filepath.Join(dir, CaseMarker)
	v, err := yamlsrc.LoadFile(file)
	if err != nil {
		return nil, err
	}
	if v.Kind != yamlsrc.KindMap {
		return nil, fmt.Errorf("%s: expected a map", file)
	}
	a := &CaseArgs{}
	str := func(key string, required bool) (*string, error) {
		x := v.Get(key)
		switch {
		case x.IsNull() && !required:
			return nil, nil
		case x.IsNull():
			return nil, fmt.Errorf("%s: %s is required", file, key)
		case x.Kind != yamlsrc.KindString:
			return nil, fmt.Errorf("%s: %s must be a string", file, key)
		}
		s := x.Str()
		return &s, nil
	}
	input, err := str("input", true)
	if err != nil {
		return nil, err
	}
	catalog, err := str("catalog", true)
	if err != nil {
		return nil, err
	}
	a.Input, a.Catalog = *input, *catalog
	if a.Policy, err = str("policy", false); err != nil {
		return nil, err
	}
	if a.Constraints, err = str("constraints", false); err != nil {
		return nil, err
	}
	switch f := v.Get("force"); {
	case f.IsNull():
	case f.Kind == yamlsrc.KindBool:
		a.Force = f.Bool
	default:
		return nil, fmt.Errorf("%s: force must be true or false", file)
	}
	if c := v.Get("components"); !c.IsNull() {
		if c.Kind != yamlsrc.KindList {
			return nil, fmt.Errorf("%s: components must be a list", file)
		}
		for _, x := range c.List() {
			if x.Kind != yamlsrc.KindString {
				return nil, fmt.Errorf("%s: components must be a list of names", file)
			}
			a.Components = append(a.Components, x.Str())
		}
	}
	if !filepath.IsLocal(a.Input) || !filepath.IsLocal(a.Catalog) {
		return nil, fmt.Errorf("%s: input and catalog must be local file names", file)
	}
	return a, nil
}

// FindCatalog returns the path of catalogs/<name> in dir or the nearest
// parent directory that has it.
func FindCatalog(dir, name string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "catalogs", name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("catalogs/%s not found in %s or its parents", name, dir)
		}
	}
}

// CaseRun is what running a case produced.
type CaseRun struct {
	Args *CaseArgs
	// Messages are the reported errors, in order; nil when an output was
	// written.
	Messages []string
	// Progress holds the progress lines.
	Progress []string
	// Result is the completion's result, when there is one.
	Result *Result
	// NewFiles lists the files that appeared in the run directory, sorted.
	NewFiles []string
	// Output is the content of the single new file, if there is one.
	Output []byte
}

// ExecCase runs a case in a fresh temporary directory, as a user would:
// the input is copied there under its name and the output, if any, is
// written next to it. source turns the case's catalog into the image
// source; nil uses the catalog itself. An error means the case itself is
// broken (its args or catalog file cannot be found).
func ExecCase(ctx context.Context, dir string, source func(*Catalog) (Source, error)) (*CaseRun, error) {
	args, err := ReadCaseArgs(dir)
	if err != nil {
		return nil, err
	}
	run := &CaseRun{Args: args}
	catPath, err := FindCatalog(dir, args.Catalog)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, args.Input))
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "v4t-complete-case-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	input := filepath.Join(tmp, args.Input)
	if err := os.WriteFile(input, data, 0o644); err != nil {
		return nil, err
	}

	policy := TopRated
	if args.Policy != nil {
		if policy, err = ParsePolicy(*args.Policy); err != nil {
			run.Messages = []string{err.Error()}
			return run, run.collect(tmp, args.Input)
		}
	}
	cat, err := LoadCatalog(catPath)
	if err != nil {
		run.Messages = []string{err.Error()}
		return run, run.collect(tmp, args.Input)
	}
	var src Source = cat
	if source != nil {
		if src, err = source(cat); err != nil {
			return nil, err
		}
	}
	opts := Options{
		Source:     src,
		Components: args.Components,
		Force:      args.Force,
		Policy:     policy,
		Progress:   func(line string) { run.Progress = append(run.Progress, line) },
	}
	if args.Constraints != nil {
		opts.Constraints = *args.Constraints
	}
	res, err := Complete(ctx, Input{Name: input, Data: data}, opts)
	if err != nil {
		for _, d := range diag.ListOf(err) {
			run.Messages = append(run.Messages, d.Message)
		}
		return run, run.collect(tmp, args.Input)
	}
	run.Result = res
	if err := os.WriteFile(res.OutputName, res.Output, 0o644); err != nil {
		return nil, err
	}
	return run, run.collect(tmp, args.Input)
}

// collect records the files other than the input in the run directory.
func (r *CaseRun) collect(tmp, input string) error {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != input {
			r.NewFiles = append(r.NewFiles, e.Name())
		}
	}
	sort.Strings(r.NewFiles)
	if len(r.NewFiles) == 1 {
		r.Output, err = os.ReadFile(filepath.Join(tmp, r.NewFiles[0]))
	}
	return err
}

// CaseOutcome is the verdict on a case. Expected and Actual, when set, are
// texts whose diff shows the difference.
type CaseOutcome struct {
	Pass             bool
	Reason           string
	Expected, Actual string
}

// RunCase runs and checks one case against the catalog.
func RunCase(ctx context.Context, dir string) CaseOutcome {
	run, err := ExecCase(ctx, dir, nil)
	if err != nil {
		return CaseOutcome{Reason: "cannot run the case: " + err.Error()}
	}
	return CheckCase(dir, run)
}

// CheckCase compares a run with the case's expectations.
func CheckCase(dir string, run *CaseRun) CaseOutcome {
	if want, err := os.ReadFile(filepath.Join(dir, "errors.txt")); err == nil {
		wantLines := lines(string(want))
		if run.Messages == nil {
			return CaseOutcome{Reason: fmt.Sprintf("expected %d error message(s), but the run succeeded", len(wantLines)),
				Expected: strings.Join(wantLines, "\n") + "\n"}
		}
		if len(run.NewFiles) > 0 {
			return CaseOutcome{Reason: fmt.Sprintf("the run failed but created %s", strings.Join(run.NewFiles, ", "))}
		}
		if !equalStrings(wantLines, run.Messages) {
			return CaseOutcome{Reason: "the error messages differ",
				Expected: strings.Join(wantLines, "\n") + "\n", Actual: strings.Join(run.Messages, "\n") + "\n"}
		}
		return CaseOutcome{Pass: true}
	}
	if run.Messages != nil {
		return CaseOutcome{Reason: "unexpected error: " + strings.Join(run.Messages, "; ")}
	}
	wantName, err := os.ReadFile(filepath.Join(dir, "expected-name.txt"))
	if err != nil {
		return CaseOutcome{Reason: "the case has neither errors.txt nor expected-name.txt"}
	}
	name := strings.TrimSpace(string(wantName))
	if len(run.NewFiles) != 1 || run.NewFiles[0] != name {
		return CaseOutcome{Reason: fmt.Sprintf("expected the single new file %s, found [%s]", name, strings.Join(run.NewFiles, ", "))}
	}
	wantDoc, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
	if err != nil {
		return CaseOutcome{Reason: "cannot read expected.yaml: " + err.Error()}
	}
	gotDoc := run.Output
	if kind, _ := InputKind(name); kind == KindCSAR {
		input, err := os.ReadFile(filepath.Join(dir, run.Args.Input))
		if err != nil {
			return CaseOutcome{Reason: err.Error()}
		}
		if gotDoc, err = compareArchives(input, run.Output); err != nil {
			return CaseOutcome{Reason: err.Error()}
		}
	}
	want, err := parseCanonical(wantDoc)
	if err != nil {
		return CaseOutcome{Reason: "expected.yaml: " + err.Error()}
	}
	got, err := parseCanonical(gotDoc)
	if err != nil {
		return CaseOutcome{Reason: name + ": " + err.Error()}
	}
	if want != got {
		return CaseOutcome{Reason: name + " is not parsed-equal to expected.yaml", Expected: want, Actual: got}
	}
	return CaseOutcome{Pass: true}
}

// compareArchives checks that the output archive has the file members of
// the input, byte-identical except the entry template, and returns the
// output's entry template.
func compareArchives(input, output []byte) ([]byte, error) {
	in, err := tosca.ReadCSAR(input, "input", tosca.DefaultCSARLimits())
	if err != nil {
		return nil, err
	}
	out, err := tosca.ReadCSAR(output, "output", tosca.DefaultCSARLimits())
	if err != nil {
		return nil, err
	}
	files := func(c *tosca.CSAR) map[string][]byte {
		m := map[string][]byte{}
		for _, f := range c.Files {
			if !f.Dir {
				m[filepath.ToSlash(filepath.Clean(f.Name))] = f.Data
			}
		}
		return m
	}
	inFiles, outFiles := files(in), files(out)
	if out.Entry != in.Entry {
		return nil, fmt.Errorf("the output archive's entry template is %s, not %s", out.Entry, in.Entry)
	}
	for name, data := range inFiles {
		got, ok := outFiles[name]
		switch {
		case !ok:
			return nil, fmt.Errorf("the output archive lacks %s", name)
		case name != in.Entry && !bytes.Equal(got, data):
			return nil, fmt.Errorf("the output archive's %s differs from the input's", name)
		}
	}
	for name := range outFiles {
		if _, ok := inFiles[name]; !ok {
			return nil, fmt.Errorf("the output archive adds %s", name)
		}
	}
	return outFiles[out.Entry], nil
}

// parseCanonical parses a YAML document with the YAML 1.2 core schema and
// returns its canonical text (parsed-equal documents have equal texts).
func parseCanonical(data []byte) (string, error) {
	var root yaml.Node
	if err := safeUnmarshal(data, &root); err != nil {
		return "", err
	}
	if root.Kind == 0 {
		root.Kind = yaml.DocumentNode
	}
	v, err := convert(&root, yaml12, false)
	if err != nil {
		return "", err
	}
	return canonical(v), nil
}

// ParsedEqual reports whether two YAML documents are parsed-equal under
// the YAML 1.2 core schema (conformance/toskeriser/README.md).
func ParsedEqual(a, b []byte) (bool, error) {
	ca, err := parseCanonical(a)
	if err != nil {
		return false, err
	}
	cb, err := parseCanonical(b)
	if err != nil {
		return false, err
	}
	return ca == cb, nil
}

// lines splits a text file into lines, without a final empty line.
func lines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
