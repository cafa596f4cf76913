package suite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/resolve/suite"
)

// TestExamples runs our own example templates (testdata/examples) as cases:
// EXAMPLE/tests/CASE takes the template of EXAMPLE. Their expected outputs
// were produced by the reference implementation, so the examples double as
// conformance fixtures that do not depend on the shared corpora.
func TestExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "examples")
	cases, err := suite.Discover([]string{dir}, suite.DefaultRunners())
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cases), 5, "example cases in %s", dir)
	for _, r := range suite.Run(context.Background(), cases, suite.Options{}) {
		require.True(t, r.Pass, "%s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
	}
}
