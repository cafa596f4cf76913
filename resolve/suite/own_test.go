package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve/suite"
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
	cases, err := suite.Discover([]string{ownVintner}, suite.DefaultRunners())
	require.NoError(t, err)
	perGroup := map[string]int{}
	for _, c := range cases {
		perGroup[filepath.Base(filepath.Dir(c.Dir))]++
	}
	for _, g := range vintnerGroups {
		assert.Positive(t, perGroup[g], "testdata/vintner/%s has no case", g)
	}
	for _, r := range suite.Run(context.Background(), cases, suite.Options{}) {
		if !r.Pass {
			t.Errorf("FAIL %s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
		}
	}
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
