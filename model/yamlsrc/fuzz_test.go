package yamlsrc

import (
	"bytes"
	"os"
	"testing"
	"unicode/utf8"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// fuzzCorpus adds the seeds and, when present, the conformance corpus.
func fuzzCorpus(f *testing.F) {
	for _, s := range testkit.YAMLSeeds {
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
			if v.Num() < minWritableDate || v.Num() > maxWritableDate {
				n = maxNodes + 1
			}
		case KindList:
			for _, x := range v.List() {
				n += size(x)
			}
		case KindMap:
			for _, x := range v.Map().vals() {
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
