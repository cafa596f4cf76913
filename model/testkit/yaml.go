package testkit

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// YAMLSeeds are small YAML documents that reach the special cases of a
// reader and a writer (scalars that look typed, dates, merge keys, aliases,
// complex keys, tags, block scalars, quoting, document markers, broken
// input). The fuzz targets of yamlsrc and of SD's dialect start from them.
var YAMLSeeds = []string{
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

// NotRegularFiles checks that load refuses what is not a regular file
// (/dev/zero, /dev/null, a named pipe) with the diagnostic
// "PATH: cannot read: not a regular file" of code, instead of reading a
// device without end or waiting for a pipe's writer.
func NotRegularFiles(t *testing.T, code string, load func(path string) error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "pipe.yaml")
	haveFifo := Mkfifo(fifo) == nil
	for _, path := range []string{"/dev/zero", os.DevNull, fifo} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if _, err := os.Stat(path); err != nil || (path == fifo && !haveFifo) {
				t.Skipf("no %s here", path)
			}
			done := make(chan error, 1)
			go func() { done <- load(path) }()
			select {
			case err := <-done:
				require.Error(t, err, path)
				d, ok := diag.As(err)
				require.True(t, ok, "%s: a diagnostic", path)
				require.Equal(t, path+": cannot read: not a regular file", d.Message, path)
				require.Equal(t, code, d.Code, path)
			case <-time.After(10 * time.Second):
				t.Fatalf("reading %s does not return", path)
			}
		})
	}
}
