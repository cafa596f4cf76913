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
