package suite_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

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
		assert.Positive(t, perGroup[g], "testdata/vintner/%s has no case", g)
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
	assert.Equal(t, vintnerGroups, groups)
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
