package suite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve"
	"v4t/resolve/suite"
)

// TestCachedTemplates runs our Vintner-format cases, the examples and,
// when present, the Vintner corpus through one resolve.Templates cache, as
// v4t batch resolves its runs: each case resolves twice from the cache,
// after every other case's resolves (in parallel), and must come out as it
// does fresh. The copies of a cached template share its scalars and its
// imported type definitions (yamlsrc.Freeze); in tests every copy first
// checks that no earlier resolve changed what they share, and panics
// where one did, which fails the case with an internal error.
func TestCachedTemplates(t *testing.T) {
	dirs := []string{ownVintner, filepath.Join("..", "..", "testdata", "examples")}
	if corpus, ok := testkit.LookupCorpus(t, "vintner"); ok {
		dirs = append(dirs, corpus)
	}
	cases := discover(t, dirs...)
	cache := resolve.NewTemplates()
	twice := func(ctx context.Context, in resolve.Input, o resolve.Options) (*resolve.Result, error) {
		o.Templates = cache
		if _, err := resolve.Resolve(ctx, in, o); err != nil {
			return nil, err
		}
		return resolve.Resolve(ctx, in, o)
	}
	var cached []suite.Case
	for _, c := range cases {
		if c.Runner.Format() != "vintner" {
			continue
		}
		c.Runner = &suite.Vintner{Resolve: twice}
		cached = append(cached, c)
	}
	require.Greater(t, len(cached), 50)
	fresh := suite.Run(context.Background(), cases, suite.Options{})
	byPath := map[string]suite.Outcome{}
	for _, r := range fresh {
		byPath[r.Case.Path] = r.Outcome
	}
	for _, r := range suite.Run(context.Background(), cached, suite.Options{}) {
		require.Equal(t, byPath[r.Case.Path], r.Outcome, "%s through the cache", r.Case.Path)
	}
}
