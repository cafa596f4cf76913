package yamlsrc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
)

func TestParseJSON(t *testing.T) {
	t.Run("order, text and positions", func(t *testing.T) {
		v, err := ParseJSON([]byte("{\"b\": 2.10, \"1\": true,\n \"0\": null, \"s\": \"x\\u00e9\\ud83d\\ude00\", \"l\": [1E5, -0]}"), "$SD_DATA")
		require.NoError(t, err)
		require.Equal(t, []string{"b", "1", "0", "s", "l"}, v.Map().Keys())
		require.Equal(t, "2.10", v.Get("b").Str())
		require.Equal(t, "true", v.Get("1").Str())
		require.Equal(t, KindNull, v.Get("0").Kind)
		require.Equal(t, "xé😀", v.Get("s").Str())
		require.Equal(t, "1E5", v.Get("l").List()[0].Str())
		require.Equal(t, int32(2), v.Get("0").Line)
		require.Equal(t, int32(7), v.Get("0").Col)
	})
	errs := []struct {
		name, src, want string
		line, col       int
	}{
		{"truncated", `{"a": [1`, "unexpected end of input, expected ',' or ']' in an array", 1, 9},
		{"duplicate key", `{"a": 1, "a": 2}`, `duplicate key "a"`, 1, 10},
		{"braces around a list", `{[1]}`, "unexpected character '[', expected a string key", 1, 2},
		{"trailing", "{}\n{}", "unexpected character '{' after the JSON value", 2, 1},
		{"leading zero", `01`, "unexpected character '1' after the JSON value", 1, 2},
		{"bad literal", `tru`, "unexpected character 't', expected a JSON value", 1, 1},
		{"control character", "\"a\tb\"", `control character '\t' in a string`, 1, 3},
		{"bad escape", `"\x"`, `invalid escape '\x' in a string`, 1, 2},
		{"invalid UTF-8", "\"é\xff\"", "invalid UTF-8", 1, 3},
		{"empty", "  ", "unexpected end of input, expected a JSON value", 1, 3},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.src), "$SD_DATA")
			require.Error(t, err, "JSON %q", tc.src)
			d := testkit.Diagnostic(t, err)
			require.Equal(t, tc.want, d.Message, "JSON %q", tc.src)
			require.Equal(t, diag.Pos{File: "$SD_DATA", Line: tc.line, Col: tc.col}, d.Pos, "JSON %q", tc.src)
		})
	}
}
