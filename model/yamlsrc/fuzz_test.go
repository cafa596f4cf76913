package yamlsrc

import (
	"bytes"
	"os"
	"testing"
	"unicode/utf8"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// fuzzSeeds are small documents that reach the loader's and the emitter's
// special cases.
var fuzzSeeds = []string{
	"",
	"a: 1\n",
	"a: yes\nb: no\nc: ~\nd: 1.0\ne: 0x1F\nf: .inf\ng: -.inf\nh: .nan\ni: -0.0\nj: -0\n",
	"a: 2023-01-01\nb: 2023-01-01T10:20:30.123+02:00\nc: 0001-01-01\nd: 9999-99-99\n",
	"base: &b {a: 1}\nx:\n  <<: *b\n  b: 2\ny:\n  <<: [*b, {c: 3}]\n",
	"x: &a [1, 2]\ny: *a\n",
	"? [1, 2]\n: x\n? {a: 1}\n: y\n",
	"1: a\n2: b\n01: c\n",
	"a: !!str 1\nb: !!float -0\nc: !!set {x}\nd: !!omap [a: 1]\ne: !!pairs [a: 1]\n",
	"- - - x\n  - null\n-\n- k:\n",
	"a: |\n  line\n   more\n\nb: >-\n  folded\n  text\nc: |+\n  keep\n\n",
	"a: ' lead'\nb: 'trail '\nc: \"tab\\there\"\nd: \"\\x01\\u2028\\ufeff\"\n",
	"a: \" a\\nb\"\nb: \"x\\ny \"\nc: \"\\n\\n\"\n",
	"'...': 1\n'... x': 2\n'---': 3\nx---: 4\n",
	"a: '1_000'\nb: '2023-1-1'\nc: 'y'\nd: '<<'\ne: '='\n",
	"\"a\\nb\": 1\n'': 2\n'a: b': 3\n'#': 4\n",
	"...\n",
	"---\na: 1\n...\n",
	"a: 1\n---\nb: 2\n",
	"a: [1, 2\n",
	"a: &x [*x]\n",
	"\xff",
}

// fuzzCorpus adds the seeds and, when present, the conformance corpus.
func fuzzCorpus(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if _, ok := testkit.LookupCorpus(f, "vintner"); !ok {
		return
	}
	for _, path := range conformanceFiles(f) {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
}

// FuzzParse: Parse never panics, and a rejected document gets a positioned
// diagnostic.
func FuzzParse(f *testing.F) {
	fuzzCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, "fuzz.yaml")
		if err != nil {
			d, ok := diag.As(err)
			if !ok {
				t.Fatalf("error is not a diagnostic: %v", err)
			}
			if d.Pos.Line < 1 || d.Pos.File != "fuzz.yaml" {
				t.Fatalf("diagnostic without a position: %v (%+v)", err, d.Pos)
			}
			return
		}
		if v == nil {
			t.Fatal("nil document without an error")
		}
	})
}

// FuzzRoundTrip: a document that Parse accepts is written by Marshal so
// that Parse reads it back deeply equal, and writing that again gives the
// same text.
func FuzzRoundTrip(f *testing.F) {
	fuzzCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, "fuzz.yaml")
		if err != nil || !writable(v) {
			return
		}
		out := Marshal(v)
		back, err := Parse(out, "out.yaml")
		if err != nil {
			t.Fatalf("output does not parse: %v\ninput:\n%q\noutput:\n%q", err, data, out)
		}
		if !DeepEqual(v, back) {
			t.Fatalf("output reads back differently:\ninput:\n%q\noutput:\n%q\nwant %s\ngot  %s", data, out, JSON(v), JSON(back))
		}
		if again := Marshal(back); !bytes.Equal(out, again) {
			t.Fatalf("writing is not stable:\nfirst:\n%q\nsecond:\n%q", out, again)
		}
	})
}

// writable reports whether v round-trips by design: no date outside the
// years 0100 to 9999 (which no YAML timestamp spells), and not so much
// sharing that writing it out in full explodes.
func writable(v *Value) bool {
	const maxNodes = 100000
	sizes := map[*Value]int{}
	var size func(v *Value) int
	size = func(v *Value) int {
		if n, ok := sizes[v]; ok {
			return n
		}
		n := 1
		switch v.Kind {
		case KindTime:
			if v.Num < minWritableDate || v.Num > maxWritableDate {
				n = maxNodes + 1
			}
		case KindList:
			for _, x := range v.List {
				n += size(x)
			}
		case KindMap:
			for _, x := range v.Map.vals {
				n += size(x)
			}
		}
		if n > maxNodes {
			n = maxNodes + 1
		}
		sizes[v] = n
		return n
	}
	return size(v) <= maxNodes
}

// The epoch milliseconds of 0100-01-01T00:00:00Z and the end of year 9999.
const (
	minWritableDate = -59011459200000
	maxWritableDate = 253402300799999
)

// FuzzMarshalString: any string, in any position of a document, reads back
// as itself.
func FuzzMarshalString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // documents never hold other strings
		}
		v := NewString(s)
		docs := []*Value{
			v,
			MapOf("k", v),
			MapOf(s, v),
			NewList(v, NewList(v), NewNull()),
			MapOf("a", NewList(MapOf(s, NewList(v)), MapOf("b", v, s, NewNull()))),
			NewList(NewList(MapOf(s, v))),
		}
		for _, doc := range docs {
			out := Marshal(doc)
			back, err := Parse(out, "out.yaml")
			if err != nil {
				t.Fatalf("string %q: output does not parse: %v\n%q", s, err, out)
			}
			if !DeepEqual(doc, back) {
				t.Fatalf("string %q: output reads back differently:\n%q\ngot %s", s, out, JSON(back))
			}
		}
	})
}
