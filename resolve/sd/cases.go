package sd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Spec sd-merge.md §13 (the conformance corpus): the case format and how a
// runner uses a case.

// CaseMarker is the file that marks a case directory.
const CaseMarker = "params.yaml"

// CaseOutcome is the result of one case.
type CaseOutcome struct {
	Pass bool
	// Reason says in one line why the case failed.
	Reason string
	// WantName, Want, GotName and Got are the expected and actual texts
	// the reason is about, for a diff; empty when it is not about a text.
	WantName, Want, GotName, Got string
}

func caseFail(format string, args ...any) CaseOutcome {
	return CaseOutcome{Reason: fmt.Sprintf(format, args...)}
}

func caseDiff(reason, wantName, want, gotName, got string) CaseOutcome {
	return CaseOutcome{Reason: reason, WantName: wantName, Want: want, GotName: gotName, Got: got}
}

// caseParams is params.yaml.
type caseParams struct {
	env       map[string]string
	args      []string
	fullFile  string
	dataParam string
}

// The environment directory of a case, below the temporary directory.
const caseEnvDir = "environments/cluster-01/env-01"

// RunCase runs the case in directory dir as sd-merge.md §13.2 says, in
// process: it builds the environment directory in a temporary directory,
// runs the subcommand on it and compares the exit status, the error, the
// warnings and the files with the case's expectations.
func RunCase(ctx context.Context, dir string) CaseOutcome {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return caseFail("%v", err)
	}
	p, err := readCaseParams(abs)
	if err != nil {
		return caseFail("%s: %v", CaseMarker, err)
	}
	tmp, err := os.MkdirTemp("", "v4t-sd-case-*")
	if err != nil {
		return caseFail("%v", err)
	}
	defer os.RemoveAll(tmp)
	envDir := filepath.Join(tmp, filepath.FromSlash(caseEnvDir))
	if err := os.MkdirAll(envDir, 0o755); err != nil {
		return caseFail("%v", err)
	}
	// Step 2: the environment directory's files.
	if err := copyTree(filepath.Join(abs, "env"), envDir); err != nil {
		return caseFail("copying env/: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(abs, "full.yaml")); err == nil {
		target := filepath.Join(envDir, filepath.FromSlash(sdDir), p.fullFile)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return caseFail("%v", err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return caseFail("%v", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return caseFail("%v", err)
	}
	// Step 3: the process environment.
	vars := map[string]string{}
	for k, v := range p.env {
		vars[k] = strings.ReplaceAll(v, "{case}", abs)
	}
	if data, err := os.ReadFile(filepath.Join(abs, "delta.yaml")); err == nil {
		v, err := parseCore(data, filepath.Join(dir, "delta.yaml"))
		if err != nil {
			return caseFail("%v", err)
		}
		var b strings.Builder
		compactJSON(&b, v)
		vars[p.dataParam] = b.String()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return caseFail("%v", err)
	}
	// Step 4: record the files and run.
	before, err := snapshot(envDir)
	if err != nil {
		return caseFail("%v", err)
	}
	args := []string{"--env-dir", envDir}
	for _, a := range p.args {
		args = append(args, strings.ReplaceAll(a, "{case}", abs))
	}
	flags, err := ParseFlags(args)
	if err != nil {
		return caseFail("args: %v", err)
	}
	var warnings []string
	in := Input{
		Getenv: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		Flags:  flags,
	}
	_, runErr := Run(ctx, in, Options{Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) }})
	if d, ok := diag.As(runErr); ok && d.Code == "internal" {
		return caseFail("%s", d.Message)
	}
	after, err := snapshot(envDir)
	if err != nil {
		return caseFail("%v", err)
	}
	// Step 5 or 6.
	var out CaseOutcome
	if want, err := os.ReadFile(filepath.Join(abs, "errors.txt")); err == nil {
		out = checkFailure(string(want), runErr, before, after)
	} else {
		out = checkSuccess(abs, p, runErr, before, after)
	}
	if !out.Pass {
		return out
	}
	// Step 7: the warnings.
	wantWarnings := ""
	if data, err := os.ReadFile(filepath.Join(abs, "warnings.txt")); err == nil {
		wantWarnings = string(data)
	}
	var gotWarnings strings.Builder
	for _, w := range warnings {
		gotWarnings.WriteString(w + "\n")
	}
	if strings.TrimRight(wantWarnings, "\n") != strings.TrimRight(gotWarnings.String(), "\n") {
		return caseDiff("the warnings differ", "warnings.txt", wantWarnings, "warnings", gotWarnings.String())
	}
	return CaseOutcome{Pass: true}
}

// checkFailure is step 5: the run must fail with the expected message
// (details may follow it) and leave every file as it was.
func checkFailure(want string, runErr error, before, after map[string]string) CaseOutcome {
	want = strings.TrimSuffix(want, "\n")
	if runErr == nil {
		return caseFail("the run succeeded; expected the error %q", firstLine(want))
	}
	if got := runErr.Error(); !strings.HasPrefix(got, want) {
		return caseDiff("the error differs", "errors.txt", want+"\n", "error", got+"\n")
	}
	if diff := compareTrees(before, after, ""); diff != "" {
		return caseFail("the failing run changed files: %s", diff)
	}
	return CaseOutcome{Pass: true}
}

// checkSuccess is step 6: the run must succeed, the SD directory must hold
// exactly the expected Full SD and Delta SD files, and nothing else may
// change.
func checkSuccess(caseDir string, p caseParams, runErr error, before, after map[string]string) CaseOutcome {
	if runErr != nil {
		return caseFail("the run failed: %s", firstLine(runErr.Error()))
	}
	prefix := sdDir + "/"
	fullRel := prefix + p.fullFile
	deltaRel := prefix + "delta_sd" + filepath.Ext(p.fullFile)
	want, err := os.ReadFile(filepath.Join(caseDir, "expected.yaml"))
	if err != nil {
		return caseFail("neither errors.txt nor a readable expected.yaml: %v", err)
	}
	got, ok := after[fullRel]
	if !ok {
		return caseFail("%s was not written", fullRel)
	}
	if got != string(want) {
		return caseDiff(fullRel+" differs from expected.yaml", "expected.yaml", string(want), fullRel, got)
	}
	wantDelta, err := os.ReadFile(filepath.Join(caseDir, "expected-delta.yaml"))
	gotDelta, hasDelta := after[deltaRel]
	switch {
	case err == nil && !hasDelta:
		return caseFail("%s was not written", deltaRel)
	case err == nil && gotDelta != string(wantDelta):
		return caseDiff(deltaRel+" differs from expected-delta.yaml", "expected-delta.yaml", string(wantDelta), deltaRel, gotDelta)
	case err != nil && hasDelta:
		return caseFail("%s exists, but the case expects no Delta SD", deltaRel)
	}
	for rel := range after {
		if strings.HasPrefix(rel, prefix) && rel != fullRel && rel != deltaRel {
			return caseFail("unexpected file %s", rel)
		}
	}
	if diff := compareTrees(before, after, prefix); diff != "" {
		return caseFail("files outside %s changed: %s", sdDir, diff)
	}
	return CaseOutcome{Pass: true}
}

// compareTrees describes the first difference between two snapshots,
// ignoring paths under skip (when not empty); "" when there is none.
func compareTrees(before, after map[string]string, skip string) string {
	var paths []string
	for p := range before {
		paths = append(paths, p)
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if skip != "" && strings.HasPrefix(p, skip) {
			continue
		}
		b, inBefore := before[p]
		a, inAfter := after[p]
		switch {
		case !inAfter:
			return p + " was removed"
		case !inBefore:
			return p + " was created"
		case a != b:
			return p + " was changed"
		}
	}
	return ""
}

// snapshot returns every file under dir by slash-separated relative path.
func snapshot(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return files, err
}

// copyTree copies the files under src (if it exists) into dst.
func copyTree(src, dst string) error {
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// readCaseParams reads params.yaml (§13.1).
func readCaseParams(dir string) (caseParams, error) {
	p := caseParams{env: map[string]string{}, fullFile: "sd.yml", dataParam: "SD_DATA"}
	v, err := loadCoreFile(filepath.Join(dir, CaseMarker))
	if err != nil {
		return p, err
	}
	if !v.IsMap() {
		return p, errors.New("expected a mapping")
	}
	if env := v.Get("env"); env.IsMap() {
		for i, k := range env.Map().Keys() {
			text, ok := scalarText(env.Map().Val(i))
			if !ok {
				return p, fmt.Errorf("env.%s: expected a string", k)
			}
			p.env[k] = text
		}
	}
	if args := v.Get("args"); args.IsList() {
		for i, a := range args.List() {
			text, ok := scalarText(a)
			if !ok {
				return p, fmt.Errorf("args[%d]: expected a string", i)
			}
			p.args = append(p.args, text)
		}
	}
	for key, dst := range map[string]*string{"full_file": &p.fullFile, "data_param": &p.dataParam} {
		if x := v.Get(key); x.IsString() && x.Str() != "" {
			*dst = x.Str()
		}
	}
	return p, nil
}

// compactJSON writes v as compact JSON: keys in order, numbers with their
// literal text (§13.2 step 3).
func compactJSON(b *strings.Builder, v *yamlsrc.Value) {
	switch {
	case v.IsNull():
		b.WriteString("null")
	case v.Kind == yamlsrc.KindBool:
		fmt.Fprint(b, v.Bool)
	case v.Kind == yamlsrc.KindNumber:
		text, _ := scalarText(v)
		b.WriteString(text)
	case v.Kind == yamlsrc.KindMap:
		b.WriteByte('{')
		for i, k := range v.Map().Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			js.QuoteJSON(b, k)
			b.WriteByte(':')
			compactJSON(b, v.Map().Val(i))
		}
		b.WriteByte('}')
	case v.Kind == yamlsrc.KindList:
		b.WriteByte('[')
		for i, x := range v.List() {
			if i > 0 {
				b.WriteByte(',')
			}
			compactJSON(b, x)
		}
		b.WriteByte(']')
	default:
		text, _ := scalarText(v)
		js.QuoteJSON(b, text)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
