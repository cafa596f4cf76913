package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve/suite"
)

// TestMain says, after the tests, which corpus tests did not run for want
// of the corpora (testkit.CorporaMain).
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

// discover finds the cases at or below dirs with the default runners.
func discover(t *testing.T, dirs ...string) []suite.Case {
	t.Helper()
	cases, err := suite.Discover(dirs, suite.DefaultRunners())
	require.NoError(t, err)
	return cases
}

// runPassing runs the cases, reports every one that fails, and returns the
// results.
func runPassing(t *testing.T, cases []suite.Case) []suite.Result {
	t.Helper()
	results := suite.Run(context.Background(), cases, suite.Options{})
	for _, r := range results {
		if !r.Pass {
			t.Errorf("FAIL %s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
		}
	}
	return results
}

// knownFailures is the ratchet over the Vintner corpus (style.md §5.3),
// which is read in place wherever V4T_CONFORMANCE says.
var knownFailures = filepath.Join("..", "..", "testdata", "conformance-known-failures.txt")

// TestConformanceVintner runs the Vintner corpus and fails on every failing
// case that testdata/conformance-known-failures.txt does not list, on every
// listed case that passes (remove it from the list), and on listed Vintner
// cases that no longer exist.
func TestConformanceVintner(t *testing.T) {
	vintnerCorpus := testkit.Corpus(t, "vintner")
	known, err := suite.LoadKnownFailures(knownFailures)
	require.NoError(t, err)
	cases := discover(t, vintnerCorpus)
	require.NotEmpty(t, cases, "no cases found in %s", vintnerCorpus)

	results := suite.Run(context.Background(), cases, suite.Options{})
	byPath := map[string]suite.Result{}
	for _, r := range results {
		byPath[r.Case.Path] = r
	}
	unexpectedFail, unexpectedPass := suite.Ratchet(results, known)
	for _, p := range unexpectedFail {
		r := byPath[p]
		t.Errorf("UNEXPECTED FAIL %s: %s\n%s", p, r.Reason, r.Diff)
	}
	for _, p := range unexpectedPass {
		t.Errorf("UNEXPECTED PASS %s: it passes now; remove it from %s", p, knownFailures)
	}
	prefix := filepath.Base(vintnerCorpus) + "/"
	var stale []string
	for p := range known {
		if _, ok := byPath[p]; !ok && strings.HasPrefix(p, prefix) {
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	for _, p := range stale {
		t.Errorf("%s lists %s, which is not a case of %s", knownFailures, p, vintnerCorpus)
	}
	passed, failed := suite.Counts(results)
	t.Logf("%d passed, %d failed (%d known failures)", passed, failed, len(known))
}

// TestConformanceFormats runs the SD and TosKeriser corpora through the
// default runners, as `v4t test` does: every case goes to the runner of
// its corpus's format and passes.
func TestConformanceFormats(t *testing.T) {
	for _, format := range []string{"sd", "toskeriser"} {
		t.Run(format, func(t *testing.T) {
			cases := discover(t, testkit.Corpus(t, format))
			require.NotEmpty(t, cases)
			for _, c := range cases {
				require.Equal(t, format, c.Runner.Format(), "runner of %s", c.Path)
			}
			passed, failed := suite.Counts(runPassing(t, cases))
			t.Logf("%d passed, %d failed", passed, failed)
		})
	}
}

// TestFailureReports checks that a failing case of the SD and TosKeriser
// formats is reported with its reason and a diff of the expected and
// actual files.
func TestFailureReports(t *testing.T) {
	tests := []struct {
		format string
		files  map[string]string
		reason string
		diff   []string // substrings of the diff
	}{
		{
			format: "sd",
			files: map[string]string{
				"cases/wrong/params.yaml":   "env:\n  SD_SOURCE_TYPE: json\n  SD_DATA: '{\"applications\": [{\"version\": \"a:1\", \"deployPostfix\": \"ns\"}]}'\n",
				"cases/wrong/expected.yaml": "applications:\n  - version: a:2\n    deployPostfix: ns\n",
			},
			reason: "Inventory/solution-descriptor/sd.yml differs from expected.yaml",
			diff:   []string{"-  - version: a:2\n+  - version: a:1\n"},
		},
		{
			format: "toskeriser",
			files: map[string]string{
				"catalogs/c.json": `{"software": ["node"], "images": []}`,
				"case/args.yaml":  "input: input.yaml\ncatalog: c.json\npolicy: null\nconstraints: null\nforce: false\ncomponents: [ghost]\n",
				"case/input.yaml": "tosca_definitions_version: tosca_simple_yaml_1_0\n",
				"case/errors.txt": "component \"other\" not founded\n",
			},
			reason: "the error messages differ",
			diff:   []string{`-component "other" not founded`, `+component "ghost" not founded`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteFiles(t, dir, tc.files)
			cases := discover(t, dir)
			require.Len(t, cases, 1)
			require.Equal(t, tc.format, cases[0].Runner.Format())
			r := suite.Run(t.Context(), cases, suite.Options{})[0]
			require.False(t, r.Pass)
			require.Equal(t, tc.reason, r.Reason)
			for _, d := range tc.diff {
				require.Contains(t, r.Diff, d)
			}
		})
	}
}

// ownVintner holds our own cases in Vintner's case format, one directory
// per group of the reference's conformance corpus, with expected results
// that the reference produced (testdata/vintner/expect.sh). They let a
// plain clone exercise every group the third-party corpus does.
var ownVintner = filepath.Join("..", "..", "testdata", "vintner")

// vintnerGroups are the 29 groups of the Vintner conformance corpus at the
// 0.1.8 build.
var vintnerGroups = []string{
	"analytical-operators", "arithmetic-operators", "artifacts", "boolean-operators",
	"circles", "consistency", "constraint-operators", "date-operators", "groups",
	"hosting-aware-pruning", "implications", "implications-naive", "implied-default",
	"implied-host", "import", "inputs", "nodes", "other", "outputs", "persistent",
	"policies", "properties", "pruning", "relationships", "requirement-assignment",
	"scenario-complex", "scenario-worker", "technologies", "variability-inputs",
}

// TestOwnVintnerCases runs our own Vintner-format cases: every one passes,
// and every group of the corpus has at least one.
func TestOwnVintnerCases(t *testing.T) {
	cases := discover(t, ownVintner)
	perGroup := map[string]int{}
	for _, c := range cases {
		perGroup[filepath.Base(filepath.Dir(c.Dir))]++
	}
	for _, g := range vintnerGroups {
		require.Positive(t, perGroup[g], "testdata/vintner/%s has no case", g)
	}
	runPassing(t, cases)
}

// TestVintnerGroups checks the group list against the corpus, when present.
func TestVintnerGroups(t *testing.T) {
	corpus := testkit.Corpus(t, "vintner")
	entries, err := os.ReadDir(corpus)
	require.NoError(t, err)
	var groups []string
	for _, e := range entries {
		if e.IsDir() {
			groups = append(groups, e.Name())
		}
	}
	require.Equal(t, vintnerGroups, groups)
}

// TestDifferential runs the differential cases of testdata/differential:
// random templates of our own whose expected results the reference produced
// (testdata/reference). Each txtar archive is one case directory.
func TestDifferential(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "differential")
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	root := filepath.Join(t.TempDir(), "differential")
	n := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txtar") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		files := map[string]string{}
		for _, f := range testkit.ParseTxtar(data).Files {
			files[f.Name] = string(f.Data)
		}
		testkit.WriteFiles(t, filepath.Join(root, strings.TrimSuffix(e.Name(), ".txtar")), files)
		n++
	}
	require.Greater(t, n, 100, "differential cases in %s", src)
	cases := discover(t, root)
	require.Len(t, cases, n)
	runPassing(t, cases)
}

// TestExamples runs our own example templates (testdata/examples) as cases:
// EXAMPLE/tests/CASE takes the template of EXAMPLE. Their expected outputs
// were produced by the reference implementation, so the examples double as
// conformance fixtures that do not depend on the shared corpora.
func TestExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "examples")
	cases := discover(t, dir)
	require.GreaterOrEqual(t, len(cases), 5, "example cases in %s", dir)
	runPassing(t, cases)
}
