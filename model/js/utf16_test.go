package js

import (
	"github.com/stretchr/testify/require"
	"testing"
)

func TestUTF16(t *testing.T) {
	cases := []struct {
		s    string
		want int
	}{
		{"", 0}, {"abc", 3}, {"é", 1}, {"€", 1}, {"😀", 2}, {"a😀b", 4}, {"👩‍👩‍👧", 8}, {"\xed\xa0\xbd", 1}, {"\xff", 1},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, UTF16Len(tc.s), "length of %q", tc.s)
	}
	require.Equal(t, []string{"a", "\xed\xa0\xbd", "\xed\xb8\x80", "b"}, Split("a😀b", ""))
	require.Equal(t, "a😀b", Normalize("a\xed\xa0\xbd"+"\xed\xb8\x80b"))
	require.Equal(t, -1, CompareUTF16("\U0001F600", "\uff21"), "surrogates sort below U+FF21")
}
