package testkit

import (
	"github.com/stretchr/testify/require"
	"testing"
)

func TestParseTxtar(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		comment string
		files   []File
	}{
		{name: "empty", in: "", comment: ""},
		{name: "comment only", in: "v4t test .\n", comment: "v4t test .\n"},
		{
			name:    "files",
			in:      "cmd\n-- a.yaml --\nx: 1\n-- stdout --\n-- b --\nno newline",
			comment: "cmd\n",
			files:   []File{{"a.yaml", []byte("x: 1\n")}, {"stdout", []byte{}}, {"b", []byte("no newline")}},
		},
		{
			name:    "crlf and not-quite markers",
			in:      "c\r\n-- a --\r\n-- --\r\n--b --\r\n",
			comment: "c\n",
			files:   []File{{"a", []byte("-- --\n--b --\n")}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := ParseTxtar([]byte(tc.in))
			require.Equal(t, tc.comment, string(a.Comment), "comment of %q", tc.in)
			if len(tc.files) == 0 {
				require.Empty(t, a.Files, "files of %q", tc.in)
				return
			}
			require.Equal(t, tc.files, a.Files, "files of %q", tc.in)
		})
	}
}

func TestFormatTxtarRoundTrip(t *testing.T) {
	a := &Archive{Comment: []byte("v4t x"), Files: []File{{"f", []byte("1")}, {"g", []byte("")}}}
	got := FormatTxtar(a)
	require.Equal(t, "v4t x\n-- f --\n1\n-- g --\n", string(got))
	back := ParseTxtar(got)
	require.Equal(t, "v4t x\n", string(back.Comment))
	d, ok := back.Get("f")
	require.True(t, ok)
	require.Equal(t, "1\n", string(d))
	back.Set("g", []byte("2\n"))
	back.Set("h", []byte("3\n"))
	back.Delete("f")
	require.Equal(t, "v4t x\n-- g --\n2\n-- h --\n3\n", string(FormatTxtar(back)))
}

func TestNormalize(t *testing.T) {
	require.Equal(t, "a\nb\n", string(Normalize([]byte("a\r\nb\n\n\n"))))
	require.Equal(t, "", string(Normalize([]byte("\n"))))
	require.Equal(t, "x\n", string(Normalize([]byte("x"))))
}
