package js

import (
	"encoding/json"
	"github.com/stretchr/testify/require"
	"strings"
	"testing"
	"unicode/utf8"
)

// Expectations from Node.js: JSON.stringify(s).
func TestQuoteJSON(t *testing.T) {
	cases := []struct{ s, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"a\"b\\c\b\f\n\r\t\x01\x1f\x7f é😀\u2028", `"a\"b\\c\b\f\n\r\t\u0001\u001f` + "\x7f é😀\u2028" + `"`},
		{"x\xed\xa0\xbdy\n", `"x\ud83dy\n"`}, // a lone high surrogate
		{"\xed\xb0\x80", `"\udc00"`},         // a lone low surrogate
		{"a\xffb", "\"a\uFFFDb\""},           // not UTF-8 at all
	}
	for _, tc := range cases {
		var b strings.Builder
		b.WriteString("<")
		QuoteJSON(&b, tc.s)
		require.Equal(t, "<"+tc.want, b.String(), "JSON.stringify(%q)", tc.s)
		require.Equal(t, tc.want, Quote(tc.s), "JSON.stringify(%q)", tc.s)
	}
}

// FuzzQuoteJSON: a quoted string is valid UTF-8 and reads back through
// Go's JSON decoder as itself (for valid UTF-8 input).
func FuzzQuoteJSON(f *testing.F) {
	f.Add("a\"b\\c\b\f\n\r\t\x01\x7f é😀\u2028")
	f.Add("x\xed\xa0\xbdy")
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if !utf8.ValidString(q) {
			t.Fatalf("Quote(%q) = %q is not UTF-8", s, q)
		}
		if !utf8.ValidString(s) {
			return
		}
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Fatalf("Quote(%q) = %q reads back as %q (%v)", s, q, back, err)
		}
	})
}
