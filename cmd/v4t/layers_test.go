package main

import (
	"bufio"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The dependency rules of style.md §2: data flows model → encode → solver →
// resolve → cmd, and each third-party module has its place. TestLayers reads
// the imports of every Go file in the module and checks them here; a new
// package needs a rule before it can land.

// modelOrder is the acyclic order of the model packages: each may import
// model/diag and the ones before it. model/js, JavaScript's value semantics,
// comes first and imports nothing of ours (see its rule below).
var modelOrder = []string{"model/js", "model/reuse", "model/yamlsrc", "model/expr", "model/tosca", "model/variability", "model/graph", "model/validate"}

// thirdParty lists the allowed modules and which packages may import them
// (test files are checked separately).
var thirdParty = map[string]func(pkg string, test bool) bool{
	"gopkg.in/yaml.v3": func(pkg string, _ bool) bool {
		return (under(pkg, "model") && pkg != "model/diag" && pkg != "model/js") || under(pkg, "resolve")
	},
	"github.com/spf13/pflag":       func(pkg string, _ bool) bool { return pkg == "cmd/v4t" },
	"github.com/crillab/gophersat": func(pkg string, _ bool) bool { return under(pkg, "solver") },
	"github.com/stretchr/testify":  func(pkg string, test bool) bool { return test || pkg == "model/testkit" },
}

// under reports whether pkg is root or below it.
func under(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }

// isModel reports whether pkg is a model package other than testkit.
func isModel(pkg string) bool { return under(pkg, "model") && !under(pkg, "model/testkit") }

// resolveStage reports whether pkg is a stage package of the variability
// pipeline (resolve/enrich, check, transform and any new one), as opposed to
// the root, the conformance runner and the sibling pipelines.
func resolveStage(pkg string) bool {
	return under(pkg, "resolve") && pkg != "resolve" && !resolveDriver(pkg) &&
		!under(pkg, "resolve/complete") && !under(pkg, "resolve/sd")
}

// resolveDriver reports whether pkg drives whole resolutions through the
// root resolve package: the conformance runner, configuration spaces
// (resolve/batch) and the topology picture (resolve/picture).
func resolveDriver(pkg string) bool {
	return under(pkg, "resolve/suite") || under(pkg, "resolve/batch") || under(pkg, "resolve/picture")
}

// ourRule says whether package pkg (module-relative) may import our package
// imp; the empty string means yes, else the reason why not.
func ourRule(pkg, imp string, test bool) string {
	if imp == "model/testkit" {
		if test || pkg == "model/testkit" {
			return ""
		}
		return "model/testkit is for _test.go files only"
	}
	if test && imp == pkg {
		return "" // an external test package imports the package under test
	}
	if pkg == "benchmarks/gen" {
		return "benchmarks/gen imports nothing of ours, so that any test may import it"
	}
	if imp == "benchmarks/gen" {
		if test || under(pkg, "benchmarks") {
			return ""
		}
		return "benchmarks/gen is for the benchmarks and for _test.go files"
	}
	if under(imp, "cmd") {
		return "nothing imports cmd"
	}
	if under(pkg, "benchmarks") {
		return ""
	}
	if under(imp, pkg) && imp != pkg && pkg != "resolve" {
		return "" // a package may use its own subpackages
	}
	switch {
	case pkg == "model/diag":
		return "model/diag imports nothing of ours"
	case pkg == "model/js":
		return "model/js imports nothing of ours"
	case pkg == "model/testkit":
		if imp == "model/diag" || imp == "model/yamlsrc" {
			return ""
		}
		return "model/testkit may import only model/diag and model/yamlsrc"
	case isModel(pkg):
		if !isModel(imp) {
			return "model packages import only model packages"
		}
		if imp == "model/diag" {
			return ""
		}
		pi, ii := indexOf(modelOrder, pkg), indexOf(modelOrder, imp)
		if pi >= 0 && (ii < 0 || ii >= pi) {
			return fmt.Sprintf("%s may import only model/diag and %v", pkg, modelOrder[:pi])
		}
		return ""
	case under(pkg, "encode"):
		if isModel(imp) || under(imp, "encode") {
			return ""
		}
		return "encode imports only model packages"
	case under(pkg, "solver/logic"):
		if imp == "model/js" {
			return "" // its messages print operands as JavaScript does
		}
		return "solver/logic imports only model/js of ours"
	case under(pkg, "solver"):
		return "solver imports nothing of ours"
	case pkg == "resolve":
		if isModel(imp) || under(imp, "encode") || under(imp, "solver") || (under(imp, "resolve") && !resolveDriver(imp)) {
			return ""
		}
		return "resolve imports model, encode, solver and its stage packages, never the packages that drive it (suite, batch, picture)"
	case under(pkg, "resolve/suite"):
		if isModel(imp) || under(imp, "encode") || under(imp, "solver") || under(imp, "resolve") {
			return ""
		}
		return "resolve/suite imports model, encode, solver and resolve"
	case under(pkg, "resolve/batch"), under(pkg, "resolve/picture"):
		if isModel(imp) || imp == "resolve" {
			return ""
		}
		return pkg + " imports only model packages and resolve"
	case under(pkg, "resolve/complete"):
		if isModel(imp) || under(imp, "solver") {
			return ""
		}
		return "resolve/complete imports only model packages and solver"
	case under(pkg, "resolve/sd"):
		if imp == "model/diag" || imp == "model/js" || imp == "model/yamlsrc" {
			return ""
		}
		return "resolve/sd imports only model/diag, model/js and model/yamlsrc"
	case resolveStage(pkg):
		if isModel(imp) || under(imp, "encode") || under(imp, "solver") || resolveStage(imp) {
			return ""
		}
		return "a resolve stage imports model, encode, solver and other stages, never its parent, the runner or the sibling pipelines"
	case pkg == "cmd/v4t":
		if isModel(imp) || under(imp, "resolve") || under(imp, "benchmarks") {
			return ""
		}
		return "cmd/v4t goes through resolve (and model where a flag needs it; benchmarks for v4t bench)"
	}
	return fmt.Sprintf("no dependency rule for package %s; add one to cmd/v4t/layers_test.go", pkg)
}

// checkImport checks one import path of a file in package pkg.
func checkImport(module, pkg, imp string, test bool) string {
	if imp == module || strings.HasPrefix(imp, module+"/") {
		return ourRule(pkg, strings.TrimPrefix(strings.TrimPrefix(imp, module), "/"), test)
	}
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") {
		return "" // standard library
	}
	for mod, ok := range thirdParty {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			if ok(pkg, test) {
				return ""
			}
			return fmt.Sprintf("%s may not import %s (style.md §2)", pkg, mod)
		}
	}
	return fmt.Sprintf("third-party module %s is not allowed (style.md §2: gophersat, yaml.v3, pflag, testify)", imp)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func TestLayers(t *testing.T) {
	root, module := moduleRoot(t)
	var problems []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root && isFileAt(filepath.Join(path, "go.mod")) {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		files++
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		test := strings.HasSuffix(name, "_test.go")
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if why := checkImport(module, pkg, imp, test); why != "" {
				problems = append(problems, fmt.Sprintf("%s: imports %s: %s", filepath.ToSlash(filepath.Join(rel, name)), imp, why))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.NotZero(t, files, "no Go files found under %s", root)
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// moduleRoot finds the directory of go.mod above the working directory and
// reads the module path.
func moduleRoot(t *testing.T) (string, string) {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
			require.NoError(t, errors.Join(sc.Err(), errors.New("go.mod has no module line")))
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "go.mod not found")
		dir = parent
	}
}

func isFileAt(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// TestLayerRules pins the rules themselves, so that a broken table cannot
// pass silently.
func TestLayerRules(t *testing.T) {
	tests := []struct {
		pkg, imp string
		test     bool
		ok       bool
	}{
		{"model/diag", "fmt", false, true},
		{"model/diag", "v4t/model/yamlsrc", false, false},
		{"model/diag", "gopkg.in/yaml.v3", false, false},
		{"model/js", "math", false, true},
		{"model/js", "v4t/model/diag", false, false},
		{"model/js", "v4t/model/yamlsrc", false, false},
		{"model/js", "gopkg.in/yaml.v3", false, false},
		{"model/yamlsrc", "v4t/model/js", false, true},
		{"model/expr", "v4t/model/js", false, true},
		{"encode", "v4t/model/js", false, true},
		{"solver", "v4t/model/js", false, false},
		{"solver/logic", "v4t/model/js", false, true},
		{"solver/logic", "v4t/model/diag", false, false},
		{"resolve/sd", "v4t/model/js", false, true},
		{"model/yamlsrc", "v4t/model/diag", false, true},
		{"model/yamlsrc", "gopkg.in/yaml.v3", false, true},
		{"model/yamlsrc", "v4t/model/expr", false, false},
		{"model/tosca", "v4t/model/expr", false, true},
		{"model/expr", "v4t/model/tosca", false, false},
		{"model/graph", "v4t/model/variability", false, true},
		{"model/graph", "v4t/encode", false, false},
		{"model/graph", "v4t/resolve", false, false},
		{"model/yamlsrc", "v4t/model/testkit", false, false},
		{"model/yamlsrc", "v4t/model/testkit", true, true},
		{"model/yamlsrc", "github.com/stretchr/testify/require", false, false},
		{"model/yamlsrc", "github.com/stretchr/testify/require", true, true},
		{"model/testkit", "v4t/model/yamlsrc", false, true},
		{"model/testkit", "v4t/model/tosca", false, false},
		{"encode", "v4t/model/graph", false, true},
		{"encode", "v4t/solver", false, false},
		{"encode", "v4t/resolve", false, false},
		{"encode", "gopkg.in/yaml.v3", false, false},
		{"solver", "github.com/crillab/gophersat/solver", false, true},
		{"solver", "v4t/model/diag", false, false},
		{"resolve", "github.com/crillab/gophersat/solver", false, false},
		{"resolve", "v4t/resolve/enrich", false, true},
		{"resolve", "v4t/resolve/suite", false, false},
		{"resolve", "v4t/cmd/v4t", false, false},
		{"resolve/enrich", "v4t/resolve", false, false},
		{"resolve/enrich", "v4t/resolve/check", false, true},
		{"resolve/enrich", "v4t/resolve/complete", false, false},
		{"resolve/enrich", "v4t/encode", false, true},
		{"resolve/suite", "v4t/resolve", false, true},
		{"resolve/suite", "v4t/resolve/suite", true, true},
		{"resolve/suite", "github.com/spf13/pflag", false, false},
		{"resolve/complete", "v4t/resolve/sd", false, false},
		{"resolve/batch", "v4t/resolve", false, true},
		{"resolve/batch", "v4t/model/yamlsrc", false, true},
		{"resolve/batch", "v4t/solver", false, false},
		{"resolve/batch", "v4t/resolve/suite", false, false},
		{"resolve/picture", "v4t/resolve", false, true},
		{"resolve/picture", "v4t/encode", false, false},
		{"resolve", "v4t/resolve/batch", false, false},
		{"resolve", "v4t/resolve/picture", false, false},
		{"cmd/v4t", "v4t/resolve/batch", false, true},
		{"resolve/complete", "v4t/solver", false, true},
		{"resolve/sd", "v4t/model/tosca", false, false},
		{"resolve/sd", "v4t/model/yamlsrc", false, true},
		{"cmd/v4t", "github.com/spf13/pflag", false, true},
		{"cmd/v4t", "v4t/resolve/suite", false, true},
		{"cmd/v4t", "v4t/solver", false, false},
		{"cmd/v4t", "v4t/benchmarks", false, true},
		{"benchmarks", "v4t/solver", false, true},
		{"solver", "v4t/solver/internal/pb", false, true},
		{"benchmarks", "github.com/spf13/pflag", false, false},
		{"benchmarks", "v4t/benchmarks/gen", false, true},
		{"benchmarks/gen", "v4t/model/diag", false, false},
		{"benchmarks/gen", "v4t/model/testkit", true, true},
		{"model/yamlsrc", "v4t/benchmarks/gen", true, true},
		{"model/validate", "v4t/benchmarks/gen", true, true},
		{"model/validate", "v4t/benchmarks/gen", false, false},
		{"model/validate", "v4t/benchmarks", true, false},
		{"resolve", "v4t/benchmarks/gen", false, false},
		{"tools/gen", "v4t/model/diag", false, false},
		{"model/yamlsrc", "github.com/google/go-cmp/cmp", true, false},
	}
	for _, tc := range tests {
		why := checkImport("v4t", tc.pkg, tc.imp, tc.test)
		require.Equal(t, tc.ok, why == "", "%s imports %s (test file: %v): %s", tc.pkg, tc.imp, tc.test, why)
	}
}
