package complete

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestChooseOracle checks the solver's choice against the reference's
// rule, a stable sort by the policy keys over the matches in catalog order
// (completion.md §9.1, §10.1), on random pools with many ties, null fields
// and non-matching images.
func TestChooseOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	num := func() *Number {
		if rng.Intn(6) == 0 {
			return nil
		}
		return &Number{Float: float64(rng.Intn(4)), Int: true}
	}
	for round := range 300 {
		n := 1 + rng.Intn(12)
		pool := make([]*Image, n)
		match := make([]bool, n)
		var matches []*Image
		for i := range pool {
			pool[i] = &Image{Name: fmt.Sprintf("img%d", i), Size: num(), Pulls: num(), Stars: num()}
			match[i] = rng.Intn(4) != 0
			if match[i] {
				matches = append(matches, pool[i])
			}
		}
		for _, p := range []Policy{TopRated, SizePolicy, MostUsed} {
			got, err := chooseImage(context.Background(), pool, match, p.SortKeys())
			require.NoError(t, err, "round %d policy %s", round, p)
			if len(matches) == 0 {
				require.Equal(t, -1, got, "round %d policy %s: nothing matches", round, p)
				continue
			}
			sorted := append([]*Image(nil), matches...)
			sortImages(sorted, p.SortKeys())
			require.GreaterOrEqual(t, got, 0, "round %d policy %s", round, p)
			require.Equal(t, sorted[0].Name, pool[got].Name, "round %d policy %s: pool %s", round, p, describe(pool, match))
		}
	}
}

func describe(pool []*Image, match []bool) string {
	s := ""
	for i, img := range pool {
		s += fmt.Sprintf("\n  %s size=%s pulls=%s stars=%s match=%v", img.Name, img.Size.pyText(), img.Pulls.pyText(), img.Stars.pyText(), match[i])
	}
	return s
}

// TestChooseTieBreak pins the tie rule: equal on every key, the earliest
// image of the pool wins; a later, better image wins over an earlier one.
func TestChooseTieBreak(t *testing.T) {
	n := func(f float64) *Number { return &Number{Float: f, Int: true} }
	pool := []*Image{
		{Name: "first", Size: n(5), Pulls: n(5), Stars: n(5)},
		{Name: "second", Size: n(5), Pulls: n(5), Stars: n(5)},
		{Name: "third", Size: n(4), Pulls: n(5), Stars: n(5)},
	}
	tests := []struct {
		match []bool
		p     Policy
		want  string
	}{
		{[]bool{true, true, false}, TopRated, "first"},
		{[]bool{false, true, true}, TopRated, "third"},
		{[]bool{true, true, true}, SizePolicy, "third"},
		{[]bool{true, true, false}, MostUsed, "first"},
	}
	for _, tc := range tests {
		got, err := chooseImage(context.Background(), pool, tc.match, tc.p.SortKeys())
		require.NoError(t, err)
		require.GreaterOrEqual(t, got, 0)
		require.Equal(t, tc.want, pool[got].Name, "match %v policy %s", tc.match, tc.p)
	}
}

// TestEncodeChoiceShape checks the encoding's size: linear in the pool and
// the ranks, one step per sort key, every image in the tie-break.
func TestEncodeChoiceShape(t *testing.T) {
	var pool []*Image
	var match []bool
	for i := range 50 {
		v := &Number{Float: float64(i), Int: true}
		pool = append(pool, &Image{Name: fmt.Sprint(i), Size: v, Pulls: v, Stars: v})
		match = append(match, true)
	}
	p := encodeChoice(pool, match, TopRated.SortKeys())
	require.Len(t, p.steps, 3)
	require.Len(t, p.tieBreak, 50)
	require.Equal(t, 50+49+3*50, p.cnf.NumVars, "x, at-most-one auxiliaries, unary ranks")
	require.Less(t, len(p.cnf.Clauses), 1000, "clauses stay linear")
	require.True(t, p.steps[0].Objective.Maximize, "stars descending")
	require.False(t, p.steps[2].Objective.Maximize, "size ascending")
}

// TestCatalogSyntaxErrorPosition: a malformed catalog names the line and
// column of the offending byte, after a BOM and blank lines too.
func TestCatalogSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		data      string
		line, col int
	}{
		{`{"images": [`, 1, 12},
		{"{\n  \"images\": [\n    {\"name\": \"x\",}\n  ]\n}\n", 3, 18},
		{"\xef\xbb\xbf\n\n[1,,2]", 3, 4},
		{"  [\n x]", 2, 2},
	}
	for _, tc := range tests {
		path := filepath.Join(t.TempDir(), "c.json")
		require.NoError(t, os.WriteFile(path, []byte(tc.data), 0o644))
		_, err := LoadCatalog(path)
		var ce *CatalogError
		require.ErrorAs(t, err, &ce, "catalog %q", tc.data)
		require.Equal(t, [2]int{tc.line, tc.col}, [2]int{ce.Line, ce.Col}, "catalog %q: %v", tc.data, err)
		require.Contains(t, ce.Reason, "invalid JSON: ", "catalog %q", tc.data)
	}
}
