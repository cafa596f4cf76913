package suite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
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
	cache := resolve.NewTemplates()
	sameAsFresh(t, "through the cache", 0, func(ctx context.Context, in resolve.Input, o resolve.Options) (*resolve.Result, error) {
		o.Templates = cache
		if _, err := resolve.Resolve(ctx, in, o); err != nil {
			return nil, err
		}
		return resolve.Resolve(ctx, in, o)
	})
}

// TestScratch runs the same cases through one resolve.Templates cache and
// two resolve.Scratch values, as the workers of v4t batch -j 2 resolve
// their runs: each case resolves twice, with whichever Scratch is free,
// right after the resolves of other cases (other templates, other
// sizes) left their memory in it, and must come out as it does fresh. A
// resolve that kept anything of its Scratch past the next resolve, or
// that read memory it took from a Scratch without setting it, shows here
// as a different outcome.
func TestScratch(t *testing.T) {
	cache := resolve.NewTemplates()
	free := make(chan *resolve.Scratch, 2)
	free <- &resolve.Scratch{}
	free <- &resolve.Scratch{}
	sameAsFresh(t, "through a Scratch", 4, func(ctx context.Context, in resolve.Input, o resolve.Options) (*resolve.Result, error) {
		s := <-free
		defer func() { free <- s }()
		o.Templates, o.Scratch = cache, s
		if _, err := resolve.Resolve(ctx, in, o); err != nil {
			return nil, err
		}
		res, err := resolve.Resolve(ctx, in, o)
		if err != nil {
			return nil, err
		}
		// The document is the Scratch's until its next resolve, which
		// may start as soon as s is free again.
		out := *res
		out.Doc = yamlsrc.Clone(res.Doc)
		return &out, nil
	})
}

// sameAsFresh runs our Vintner-format cases, the examples and, when
// present, the Vintner corpus, with resolve.Resolve and then with resolver
// (jobs cases at a time, 0: GOMAXPROCS), and requires the same outcome of
// every case.
func sameAsFresh(t *testing.T, how string, jobs int, resolver func(context.Context, resolve.Input, resolve.Options) (*resolve.Result, error)) {
	t.Helper()
	dirs := []string{ownVintner, filepath.Join("..", "..", "testdata", "examples")}
	if corpus, ok := testkit.LookupCorpus(t, "vintner"); ok {
		dirs = append(dirs, corpus)
	}
	cases := discover(t, dirs...)
	var other []suite.Case
	for _, c := range cases {
		if c.Runner.Format() != "vintner" {
			continue
		}
		c.Runner = &suite.Vintner{Resolve: resolver}
		other = append(other, c)
	}
	require.Greater(t, len(other), 50)
	fresh := suite.Run(context.Background(), cases, suite.Options{})
	byPath := map[string]suite.Outcome{}
	for _, r := range fresh {
		byPath[r.Case.Path] = r.Outcome
	}
	for _, r := range suite.Run(context.Background(), other, suite.Options{Jobs: jobs}) {
		require.Equal(t, byPath[r.Case.Path], r.Outcome, "%s %s", r.Case.Path, how)
	}
}
