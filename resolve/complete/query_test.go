package complete

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParsePolicy(t *testing.T) {
	for _, name := range []string{"top_rated", "size", "most_used"} {
		p, err := ParsePolicy(name)
		require.NoError(t, err, name)
		require.Equal(t, name, p.String())
	}
	for _, bad := range []string{"fastest", "", "Size", "top-rated"} {
		_, err := ParsePolicy(bad)
		require.Error(t, err, "policy %q", bad)
		require.Equal(t, `policy must be "top_rated", "size" or "most_used"`, err.Error())
	}
}

// TestConstraints covers completion.md §8.3 and its consequences list: the
// wire form shows which bounds were applied; msgs the unit's errors.
func TestConstraints(t *testing.T) {
	tests := []struct {
		in   string
		wire string // bounds part of the wire form after size_gt=0 (or the replaced size_gt)
		msgs []string
	}{
		{"", "size_gt=0", nil},
		{"size<=99MB pulls>30 stars>10", "size_gt=0&size_lte=99000000&pulls_gt=30&stars_gt=10", nil},
		{"size<1.5GB", "size_gt=0", nil},
		{"size<=99 MB", "size_gt=0", nil},
		{"pulls>1.5", "size_gt=0&pulls_gt=1", nil},
		{"maxsize<3GB", "size_gt=0&size_lt=3000000000", nil},
		{"size >= 2kb", "size_gt=0&size_gte=2000", nil},
		{"size >= 2 kb", "size_gt=0", nil},
		{"size>5MB", "size_gt=5000000", nil},
		{"size<10bytes", "size_gt=0&size_lt=10", nil},
		{"stars>1 stars>5", "size_gt=0&stars_gt=1", nil},
		{"size<1GB pulls>=10000", "size_gt=0&size_lt=1000000000&pulls_gte=10000", nil},
		{"size=99MB", "size_gt=0", []string{"in parsing =99MB: operator not recognise"}},
		{"size<99xb", "size_gt=0", []string{"in parsing 99xb: unit not recognise"}},
		{"size<5XMB", "size_gt=0", []string{"in parsing 5xmb: unit not recognise"}},
		{"size<5kbytes", "size_gt=0", []string{"in parsing 5kbytes: unit not recognise"}},
		{"pulls=3 stars=4 size=1MB", "size_gt=0", []string{
			"in parsing =1MB: operator not recognise", "in parsing =3: operator not recognise", "in parsing =4: operator not recognise"}},
		{"whatever", "size_gt=0", nil},
	}
	for _, tc := range tests {
		q := &Query{Bounds: []Bound{{FieldSize, OpGT, 0}}}
		msgs := ParseConstraints(tc.in).apply(q)
		require.Equal(t, tc.wire, q.Wire(), "bounds of %q", tc.in)
		require.Equal(t, tc.msgs, msgs, "messages of %q", tc.in)
	}
}

func TestVersionPatterns(t *testing.T) {
	tests := []struct {
		v            string
		valid, query bool
		prefix       string
	}{
		{"6.2.x", true, true, "6.2"},
		{"1.8.3", true, true, "1.8.3"},
		{"1.x", true, true, "1"},
		{"x", true, true, ""},
		{"6.", true, false, "6"},
		{"", true, false, ""},
		{"6-2", true, true, "6-2"},
		{"6.x.x", false, false, "6"},
		{"asv", false, false, ""},
		{"v6", false, false, ""},
	}
	for _, tc := range tests {
		require.Equal(t, tc.valid, versionValid().MatchString(tc.v), "validation of %q", tc.v)
		require.Equal(t, tc.query, versionQuery().MatchString(tc.v), "query check of %q", tc.v)
		require.Equal(t, tc.prefix, versionPrefix(tc.v), "prefix of %q", tc.v)
	}
}

// TestMatches covers DockerFinder's matching rules (completion.md §9.1).
func TestMatches(t *testing.T) {
	img := func(ver, distro string) *Image {
		i := &Image{Name: "x", Size: &Number{Float: 10, Int: true}, Pulls: &Number{Float: 5, Int: true},
			Softwares: []Software{{Name: "node", Ver: ver, VerOK: true}}}
		if distro != "-" {
			i.Distro = &distro
		}
		return i
	}
	sw := func(prefix string) *Query { q := newQuery(TopRated); q.setSoftware("node", prefix); return q }
	distro := func(d string) *Query { q := newQuery(TopRated); q.Distro, q.HasDistro = d, true; return q }
	tests := []struct {
		name string
		q    *Query
		img  *Image
		want bool
	}{
		{"prefix", sw("6.2"), img("6.2.0", ""), true},
		{"string prefix", sw("6.2"), img("6.20.1", ""), true},
		{"dot wildcard", sw("6.2"), img("6-2-9", ""), true},
		{"anchored", sw("6.2"), img("v6.2.0", ""), false},
		{"java update", sw("1.8"), img("1.8.0_151", ""), true},
		{"empty prefix", sw(""), img("anything", ""), true},
		{"software missing", func() *Query { q := newQuery(TopRated); q.setSoftware("ruby", ""); return q }(), img("1", ""), false},
		{"distro case", distro("alpine"), img("1", "ALPINE LINUX V3.6"), true},
		{"distro words in order", distro("debian jessie"), img("1", "Debian GNU/Linux 8 (jessie)"), true},
		{"distro words out of order", distro("debian jessie"), img("1", "jessie (Debian 8)"), false},
		{"null distro", distro("alpine"), img("1", "-"), false},
		{"empty distro matches any string", distro(""), img("1", "x"), true},
		{"empty distro, null distro", distro(""), img("1", "-"), false},
		{"size 0", newQuery(TopRated), func() *Image { i := img("1", ""); i.Size = &Number{Int: true}; return i }(), false},
		{"size null", newQuery(TopRated), func() *Image { i := img("1", ""); i.Size = nil; return i }(), false},
		{"null pulls fail a bound", func() *Query { q := newQuery(TopRated); q.setBound(Bound{FieldPulls, OpLT, 100}); return q }(),
			func() *Image { i := img("1", ""); i.Pulls = nil; return i }(), false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.q.Matches(tc.img), "%s: %s", tc.name, tc.q.Wire())
	}
}

func TestSortImagesStable(t *testing.T) {
	n := func(f float64) *Number { return &Number{Float: f, Int: true} }
	images := []*Image{
		{Name: "a", Size: n(3), Pulls: n(1), Stars: nil},
		{Name: "b", Size: n(1), Pulls: n(1), Stars: n(2)},
		{Name: "c", Size: n(2), Pulls: n(1), Stars: n(2)},
		{Name: "d", Size: n(1), Pulls: n(1), Stars: n(2)},
	}
	order := func(p Policy) string {
		cp := append([]*Image(nil), images...)
		sortImages(cp, p.SortKeys())
		var names []string
		for _, i := range cp {
			names = append(names, i.Name)
		}
		return strings.Join(names, "")
	}
	require.Equal(t, "bdca", order(TopRated), "null stars sort last when descending; ties keep catalog order")
	require.Equal(t, "bdca", order(SizePolicy))
	require.Equal(t, "bdca", order(MostUsed))
}

// FuzzParseConstraints checks that any --constraints value is scanned and
// applied without a panic, that every message quotes a matched text, and
// every warning an ignored part of the value.
func FuzzParseConstraints(f *testing.F) {
	for _, s := range []string{"size<=99MB pulls>30 stars>10", "size=99MB", "size<99xb", "size<5XMB", "maxsize<3GB", "pulls>1.5", "size>99999999999999999999GB", "stars<=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g := ParseConstraints(s)
		q := newQuery(SizePolicy)
		msgs := g.apply(q)
		for _, m := range msgs {
			if !strings.HasPrefix(m, "in parsing ") {
				t.Fatalf("%q: unexpected message %q", s, m)
			}
		}
		for _, b := range q.Bounds {
			if b.Value < 0 {
				t.Fatalf("%q: negative bound %v", s, b)
			}
		}
		_ = q.Wire()
		// Every warning quotes a non-empty part of the value.
		for _, w := range g.Ignored {
			rest, ok := strings.CutPrefix(w, "--constraints: ignored ")
			quoted, err := strconv.QuotedPrefix(rest)
			if !ok || err != nil {
				t.Fatalf("%q: unexpected warning %q", s, w)
			}
			part, err := strconv.Unquote(quoted)
			if err != nil || part == "" || !strings.Contains(s, part) {
				t.Fatalf("%q: warning %q quotes no part of the value", s, w)
			}
		}
	})
}
