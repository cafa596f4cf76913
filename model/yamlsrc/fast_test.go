package yamlsrc

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"v4t/benchmarks/gen"
	"v4t/model/testkit"
)

func init() { fastStrict = true }

// sameDoc compares a document read by the fast path with the one the
// yaml.v3 path reads: kinds, values (numbers bit for bit), key order,
// positions on every value and the sharing of values. It returns a
// description of the first difference, or "".
func sameDoc(want, got *Value) string {
	return sameAt(want, got, "$", map[*Value]*Value{}, map[*Value]*Value{})
}

func sameAt(want, got *Value, path string, fwd, back map[*Value]*Value) string {
	if want == nil || got == nil {
		if want != got {
			return fmt.Sprintf("%s: %v vs %v", path, want, got)
		}
		return ""
	}
	if g, ok := fwd[want]; ok || back[got] != nil {
		if g != got || back[got] != want {
			return path + ": different sharing of values"
		}
		return ""
	}
	fwd[want], back[got] = got, want
	if want.Kind != got.Kind {
		return fmt.Sprintf("%s: kind %s vs %s", path, want.Kind, got.Kind)
	}
	if want.Line != got.Line || want.Col != got.Col {
		return fmt.Sprintf("%s: position %d:%d vs %d:%d", path, want.Line, want.Col, got.Line, got.Col)
	}
	if want.Bool != got.Bool || want.Str() != got.Str() {
		return fmt.Sprintf("%s: %s vs %s", path, JSON(want), JSON(got))
	}
	if math.Float64bits(want.Num()) != math.Float64bits(got.Num()) && !(math.IsNaN(want.Num()) && math.IsNaN(got.Num())) {
		return fmt.Sprintf("%s: number %v vs %v", path, want.Num(), got.Num())
	}
	switch want.Kind {
	case KindList:
		if len(want.List()) != len(got.List()) {
			return fmt.Sprintf("%s: %d items vs %d", path, len(want.List()), len(got.List()))
		}
		for i := range want.List() {
			if d := sameAt(want.List()[i], got.List()[i], fmt.Sprintf("%s[%d]", path, i), fwd, back); d != "" {
				return d
			}
		}
	case KindMap:
		wk, gk := want.Map().Keys(), got.Map().Keys()
		if strings.Join(wk, "\x00") != strings.Join(gk, "\x00") || len(wk) != len(gk) {
			return fmt.Sprintf("%s: keys %q vs %q", path, wk, gk)
		}
		if want.Map().nInt() != got.Map().nInt() {
			return fmt.Sprintf("%s: %d index keys vs %d", path, want.Map().nInt(), got.Map().nInt())
		}
		for i, k := range wk {
			if d := sameAt(want.Map().Val(i), got.Map().Val(i), path+"."+k, fwd, back); d != "" {
				return d
			}
		}
	}
	return ""
}

// checkFast runs both paths on data. It fails the test if the fast path
// accepts the document and reads it differently from yaml.v3, and reports
// whether it accepted it. The fast path reads a copy of data that is
// overwritten before the comparison: the document must not refer to the
// bytes it was read from (the caller's, which Parse does not copy).
func checkFast(t testing.TB, name string, data []byte) bool {
	t.Helper()
	in := bytes.Clone(data)
	fast, ok := parseFast(in)
	if !ok {
		return false
	}
	for i := range in {
		in[i] = '#'
	}
	slow, _, err := parseYAML(data, name)
	if err != nil {
		t.Errorf("%s: the fast path accepts a document yaml.v3 rejects (%v):\n%q", name, err, data)
		return true
	}
	if d := sameDoc(slow, fast); d != "" {
		t.Errorf("%s: the fast path reads differently: %s\n%q", name, d, data)
	}
	return true
}

// yamlDocs returns the YAML documents under dir: YAML files and the YAML
// sections of txtar archives, by name.
func yamlDocs(t testing.TB, dir string) map[string][]byte {
	docs := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".yaml" && ext != ".yml" && ext != ".txtar" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if ext != ".txtar" {
			docs[path] = data
			return nil
		}
		for name, sec := range txtarSections(data) {
			if e := filepath.Ext(name); e == ".yaml" || e == ".yml" {
				docs[path+":"+name] = sec
			}
		}
		return nil
	})
	require.NoError(t, err)
	return docs
}

// txtarSections splits a txtar archive into its files.
func txtarSections(data []byte) map[string][]byte {
	secs := map[string][]byte{}
	name := ""
	var cur []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		l := strings.TrimRight(string(line), "\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			if name != "" {
				secs[name] = cur
			}
			name, cur = strings.TrimSpace(l[3:len(l)-3]), []byte{}
			continue
		}
		if name != "" {
			cur = append(cur, line...)
		}
	}
	if name != "" {
		secs[name] = cur
	}
	return secs
}

// fuzzCorpusFiles reads the documents of the package's fuzz corpora.
func fuzzCorpusFiles(t testing.TB) map[string][]byte {
	docs := map[string][]byte{}
	dirs, _ := filepath.Glob("testdata/fuzz/*")
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			lines := strings.Split(string(data), "\n")
			if len(lines) < 2 || lines[0] != "go test fuzz v1" {
				continue
			}
			arg := strings.TrimSpace(lines[1])
			for _, prefix := range []string{"[]byte(", "string("} {
				if q, ok := strings.CutPrefix(arg, prefix); ok {
					if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
						docs[f] = []byte(s)
					}
				}
			}
		}
	}
	return docs
}

// fastSnippets are documents at the edges of the fast path's subset; the
// differential checks run on them, and FuzzFastPath starts from them.
var fastSnippets = []string{
	"a: 1", "a: 1\n", "a:\n", "a:", "a:   \n", "a: # c\nb: 2\n", "a:\n  # c\nb:\n", "- \n-\n- x",
	"a:\n- 1\n- 2\nb: 3", "a:\n  - 1\n  -\n  - - x\n    - y\n", "- a: 1\n  b: 2\n- c: 3\n",
	"-   a: 1\n    b:\n    - x\n", "- - - x\n  - null\n-\n- k:\n", "---\na: 1\n", "--- # c\n- 1\n",
	"# c\n---\na: 1", "---\n", "...\n", "a: 1\n...\n", "a: 1\n---\nb: 2\n", "--- a\n", "---a: 1\n",
	"a: 'x''y'\nb: \"q\\\"\\\\\\n\\t\\x41\\u00e9\\U0001F600\"\nc: ''\nd: \"\"\n",
	"'a b': 1\n\"c\\td\": 2\n'': 3\n", "a: \"\\/\"\n", "a: \"\\ud800\"\n", "a: \"\\q\"\n",
	"a: [1, b, 'c', \"d\", [e, f], {g: h}]\n", "a: {x: 1, y: [a, b], 'z': {}}\n", "a: []\nb: {}\nc: [ ]\nd: { }\n",
	"a: [a, ]\n", "a: [a,b]\n", "a: [a:b, c:, -d, -]\n", "a: {a:b}\n", "a: {\"a\":b}\n", "a: {a: }\n",
	"a: [a #b]\n", "a: [a#b]\n", "a: [a?b]\n", "[1, 2]\n", "{a: 1}\n", "[a]: b\n", "a: [1]x\n",
	"a: b: c\n", "a: - b\n", "a: b #c\nd: e#f\n", "a: 'b' #c\n", "a: 'b'#c\n", "a: [b]#c\n",
	"a:b\n", "a:b: c\n", ":a: 1\n", "-a: 1\n", "?a: 1\n", "? a\n: b\n", "- -1\n- -a\n- --\n",
	"a: 1\n  b: 2\n", "a:\n  b: 1\n c: 2\n", "a:\n  b\n  c\n", "a: b\n  c\n", "- a\n  b\n", "a:\n  b\n",
	"a: b\n  c: d\n", "a: b\n   - c\n  #d\n", "a: b # c\n  d\n", "a\nb\n---\n", "a\n\n\n  b  \n c\n",
	"- a\n -\n- b\n  \n\n  c # d\n", "a: 2023-01-01\n  10:00:00\n", "a: x\n  y\n\n# c\n  z\n",
	"a: 1\na: 2\n", "1: a\n01: b\n", "b: 1\n2: x\n1: y\n", "<<: {a: 1}\n", "'<<': 1\n", "a: {<<: 1}\n",
	"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: !x 1\n", "%YAML 1.2\n---\na: 1\n", "a: @x\n", "a: `x`\n",
	"a: |\n  x\n  y\nb: 1\n", "a: |-\n  x\n\n  y\n\n\nb: 1\n", "a: |+\n  x\n\n\nb: 1\n", "a: |\n\n  x\n",
	"a: >\n  x\n  y\n\n  z\n   w\n  v\nb: 1\n", "a: >-\n  x\n", "a: >+\n  x\n\n", "a: |2\n   x\n  y\n",
	"- |\n  x\n- >\n  y\n", "|\n x\n", ">\n x\n y\n", "a: |\n", "a: |\nb: 1\n", "a: |\n  \n   \n  x\n",
	"a: |\n    \n  x\n", "a: |0\n  x\n", "a: |x\n", "a: | # c\n  x\n", "a: |#c\n  x\n", "a: |1-\n  x\n",
	"a: |\n  x\n # c\nb: 1\n", "a: |\n  x\n  # c\nb: 1\n", "a: |\n  ---\n  ...\n", "a: |\n  x\n  ",
	"a: |\n  x", "a:\n  |\n   x\n", "- a: |\n    x\n  b: 1\n", "a:\n- |\n  x\n- y\n",
	"é: ü\nü:\n  - ä\n  - {ö: [ß, 😀]}\n", "x: 'é' # ü\ny: \"é\\u00e9\"\n", "a: b\u00a0c\n",
	"a: 1\n\n\n# end\n", "  a: 1\n  b: 2\n", "  - 1\n  - 2\n", "a\n", "'a'\n", "\"a\"\n", "1\n", "~\n",
	"a: .inf\nb: -.INF\nc: .NaN\nd: 0x1F\ne: 0o17\nf: 1e3\ng: -0\nh: -0.0\ni: 2023-01-01\nj: 2023-01-01 10:00:00 +2\n",
	"null: 1\ntrue: 2\n1.5: 3\n0x10: 4\n.nan: 5\n2023-01-01: 6\n~: 7\n", "a: 1 # c\n# d\nb: 2 #e\n",
	"a:  x  \nb:    'y'   \n", "a :1\n", "a : 1\n", "'a' : 1\n", "a:\t1\n", "a: 1\r\n", "\ufeffa: 1\n",
	"a: \u0085\n", "a: x\u2028y\n", "a: \x01\n", "a: \x7f\n", "a: \xff\n", "a: [\n  1]\n", "a: 'x\n  y'\n",
	"a: \"x\\\n  y\"\n", "k: [[[[[]]]]]\n", "- [a, {b: c}]\n- {d: [e]}\n", "a: {b: [c, d], e: f}\n",
	"a: [b, c]\n  d\n", "a: [\"b\", 'c''d', \"e\\\"\"]\n", "a: {'b': 1, \"c\": 2}\n", "a: [1, -2, +3, .5]\n",
	"a:\n    - b: 1\n      c: 2\n    - d\n", "a:\n-\n- b\n-\nc: 1\n", "a:\n - b\n", "a:\n- b\n - c\n",
	"a: b\n   \n  c\n", "a: b\n\n\n  c d  \n  e\nf: g\n", "- a\n  - b\n", "- a\n\n-  b\n   c\n", "a:\n  b\n c\n",
	"a: b\n  'c'\n", "a: b\n  [c]\n", "a: b\n  c #d\n  e\n", "a: b\n  c\n---\n", "k: |\n  a\n\n  b\n  \n",
	"k: >\n  a\n   b\n  c\n\n  d\n", "k: >\n\n  a\n", "k: >2-\n    a\n   b\n", "- >+\n\n", "k: |-\n  é\nü: 1\n",
	"k: |\n  a\n b\n", "{a: [b, {c: d}], e: 'f', \"g\": h i}\n", "- {a: 1, a: 2}\n", "[1, 1]\n", "{}\n", "[]\n",
	"k:\n  - a\n  - [b, c]\n  - {d: e}\n  - 'f'\n  - |\n    g\n", "a: 'b'\n  c\n", "a:\n\n\n  b: 1\n",
	"a: 1\r\nb:\r\n  - x\r\n", "a: |\r\n  x\r\n\r\n  y\r\n", "a: >\r\n  x\r\n  y\r\n", "a: 'x\r\n y'\r\n",
	"a: b\r\n  c\r\n", "a: 1\rb: 2", "a: x\r", "a: 'x\ry'\n", "a: \"x\\\r\n y\"\n", "# é\r\né: [ü]\r\n",
	"a: 'x  \n  \n   y  z '\n", "a: \"x\\\n\n  y\"\n", "a: \"x\\\n\"\n", "a: \"x\\\n  \"\n", "- 'x\n- y'\n", "a: 'x\n---\n y'\n",
	"a: 'x\n...'\n", "a: 'x\nb: y'\n", "'x\n y': 1\n", "a: \"\\\n\"\n", "a: 'x\n\n'\n", "a: 'x\n  y' # c\n", "a: 'x\n  y'z\n",
	"a: [ 'x\n y' ]\n", "a: {'x\n y': 1}\n", "a: \"x\\ \n y\"\n", "- \"a\n\tb\"\n", "a: \"x\n\n\n\n\"\n", "a: 'é\n ü'\nb: 1\n",
}

// TestFastChars checks the word-at-a-time character check against a byte
// by byte one.
func TestFastChars(t *testing.T) {
	slow := func(data []byte) (ascii, crlf, ok bool) {
		ascii = true
		for i := 0; i < len(data); i++ {
			c := data[i]
			switch {
			case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
				crlf = true
			case c == '\n' || c >= 0x20 && c < 0x7f:
			case c < 0x80:
				return false, false, false
			default:
				r, w := utf8.DecodeRune(data[i:])
				if r == utf8.RuneError && w == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
					return false, false, false
				}
				ascii = false
				i += w - 1
			}
		}
		return ascii, crlf, true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", " ", "\n", "\r\n", "\r", "\t", "\x00", "\x1f", "\x7f", "\x80", "~", "é", "\u2028", "\ufeff", "\U0001F600", "\xff"}
	for range 20000 {
		var b []byte
		for k := rng.IntN(100); k > 0; k-- {
			if rng.IntN(4) == 0 {
				b = append(b, alphabet[rng.IntN(len(alphabet))]...)
			} else {
				b = append(b, byte(0x20+rng.IntN(0x5f)))
			}
		}
		a1, c1, ok1 := fastChars(b)
		a2, c2, ok2 := slow(b)
		require.Equal(t, [3]bool{a2, c2, ok2}, [3]bool{a1, c1, ok1}, "checking %q", b)
	}
}

// TestFastPathSnippets compares the two paths on the snippets and checks
// that the fast path takes the documents it is meant to.
func TestFastPathSnippets(t *testing.T) {
	n := 0
	for _, s := range append(append([]string{}, fastSnippets...), testkit.YAMLSeeds...) {
		if checkFast(t, "snippet", []byte(s)) {
			n++
		}
	}
	t.Logf("%d of %d snippets take the fast path", n, len(fastSnippets)+len(testkit.YAMLSeeds))

	fast := []string{
		"a: 1\n", "a:\n- 1\n- 2\nb: 3", "- a: 1\n  b: [x, {y: z}]\n", "---\na: 'x''y'\n", "a: |\n  x\n",
		"a: >-\n  x\n  y\n", "a: b\n  c\n\n  d\n", "a: 'b\n  c'\n", "a: \"b \\\n  c\\n\n\n d\"\n",
		"a: 1\r\nb:\r\n  - x\r\n", "é: [ü, 😀]\n", "a: \"\\u00e9\\n\"\n", "a:\n  b:\n    - c: 1\n      d:\n",
	}
	for _, s := range fast {
		_, ok := parseFast([]byte(s))
		require.True(t, ok, "the fast path should read %q", s)
	}
	slow := []string{
		"a: &x 1\nb: *x\n", "a: !!str 1\n", "<<: {a: 1}\n", "a: 1\na: 2\n", "'a\n  b': c\n", "a: 1\n---\nb: 2\n",
		"? a\n: b\n", "a:\t1\n", "a: 1\rb: 2\n", "\ufeffa: 1\n", "", "# c\n", "a: [b,\n  c]\n",
		"k" + strings.Repeat("x", 1100) + ": 1\n", strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
	}
	for _, s := range slow {
		_, ok := parseFast([]byte(s))
		require.False(t, ok, "the fast path should leave %q to yaml.v3", s)
	}
}

// TestFastPathCorpora runs both paths on every YAML document around: the
// shared conformance corpora, the repository's testdata, the fuzz corpora,
// and the documents the emitter writes for them.
func TestFastPathCorpora(t *testing.T) {
	sources := map[string]map[string][]byte{}
	for _, name := range testkit.Corpora {
		if dir, ok := testkit.LookupCorpus(t, name); ok {
			sources["conformance corpus "+name] = yamlDocs(t, dir)
		}
	}
	sources["repository testdata"] = map[string][]byte{}
	_ = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "testdata" {
			maps.Copy(sources["repository testdata"], yamlDocs(t, path))
			return filepath.SkipDir
		}
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		return nil
	})
	sources["fuzz corpora"] = fuzzCorpusFiles(t)
	written := map[string][]byte{}
	for _, docs := range sources {
		for name, data := range docs {
			if v, err := Parse(data, name); err == nil {
				written[name+" (written)"] = Marshal(v)
			}
		}
	}
	sources["written by Marshal"] = written
	for src, docs := range sources {
		n := 0
		for name, data := range docs {
			if checkFast(t, name, data) {
				n++
			}
		}
		t.Logf("%s: %d of %d documents take the fast path", src, n, len(docs))
		if src != "fuzz corpora" {
			// Nearly all real documents should: a drop means the fast
			// path lost something it used to read.
			require.GreaterOrEqual(t, n, len(docs)*95/100, "documents of %s that take the fast path", src)
		}
	}
}

// ringDoc is the reference's benchmark template at seed n
// (spec/benchmarks.md), as benchmarks/gen writes it.
func ringDoc(n int) []byte {
	var b bytes.Buffer
	if err := gen.Ring(&b, n); err != nil {
		panic(err) // a bytes.Buffer takes every write
	}
	return b.Bytes()
}

// TestFastPathGenerated: the generated benchmark templates, and what the
// emitter writes, take the fast path and read as with yaml.v3.
func TestFastPathGenerated(t *testing.T) {
	docs := map[string][]byte{
		"ring 2":         ringDoc(2),
		"ring 300":       ringDoc(300),
		"benchDoc 300":   Marshal(benchDoc(300)),
		"ring 300 (4→2)": bytes.ReplaceAll(ringDoc(300), []byte("    "), []byte("  ")),
		// Columns in non-ASCII text must not cost quadratic time.
		"long line": []byte("k: [" + strings.Repeat("é, ", 50000) + "ü]\n"),
	}
	for name, data := range docs {
		require.True(t, checkFast(t, name, data), "%s should take the fast path", name)
	}
}

// FuzzFastPath: whenever the fast path accepts a document, yaml.v3 accepts
// it too and reads the same values at the same positions.
func FuzzFastPath(f *testing.F) {
	fuzzCorpus(f)
	for _, s := range fastSnippets {
		f.Add([]byte(s))
	}
	for _, data := range fuzzCorpusFiles(f) {
		f.Add(data)
	}
	f.Add(ringDoc(2))
	f.Add(Marshal(benchDoc(4)))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, "fuzz.yaml", data)
	})
}

var parsePaths = []struct {
	name  string
	parse func([]byte, string) (*Value, error)
}{{"fast", Parse}, {"yaml.v3", func(data []byte, file string) (*Value, error) {
	v, _, err := parseYAML(data, file)
	return v, err
}}}

// BenchmarkParseRing times Parse (the fast path) against the yaml.v3 path
// on the reference's benchmark template; seed 10 000 is 12.8 MB.
func BenchmarkParseRing(b *testing.B) {
	for _, n := range []int{100, 10000} {
		data := ringDoc(n)
		for _, path := range parsePaths {
			b.Run(fmt.Sprintf("n=%d/%s", n, path.name), func(b *testing.B) {
				if n > 1000 && testing.Short() {
					b.Skip("large size skipped under -short")
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := path.parse(data, "ring.yaml"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkParseRingMemory reports the memory of one parse of the seed
// 10 000 template: bytes allocated, the peak heap in use while parsing
// (sampled every half millisecond) and the heap the result keeps.
func BenchmarkParseRingMemory(b *testing.B) {
	data := ringDoc(10000)
	for _, path := range parsePaths {
		b.Run(path.name, func(b *testing.B) {
			var alloc, peak, kept uint64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				stop := make(chan struct{})
				done := make(chan uint64)
				go func() {
					var top uint64
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						top = max(top, ms.HeapInuse)
						select {
						case <-stop:
							done <- top
							return
						case <-time.After(500 * time.Microsecond):
						}
					}
				}()
				v, err := path.parse(data, "ring.yaml")
				close(stop)
				top := <-done
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				alloc = after.TotalAlloc - before.TotalAlloc
				peak = max(top, after.HeapInuse) - before.HeapInuse
				runtime.GC()
				runtime.ReadMemStats(&after)
				kept = after.HeapInuse - before.HeapInuse
				runtime.KeepAlive(v)
			}
			b.ReportMetric(float64(alloc)/(1<<20), "MB-alloc")
			b.ReportMetric(float64(peak)/(1<<20), "MB-peak")
			b.ReportMetric(float64(kept)/(1<<20), "MB-kept")
		})
	}
}

// docGen writes random documents in and around the fast path's subset:
// block collections in every form, scalars of all styles, flow
// collections, block scalars, comments and blank lines, with now and then a
// misplaced line or character.
type docGen struct {
	r    *rand.Rand
	b    []byte
	mess bool // make occasional mistakes
}

var genWords = []string{
	"a", "b", "key", "x y", "é", "😀", "null", "~", "true", "False", "yes", "1", "01", "-1", "0x1F", "1.5",
	"1e3", ".inf", ".NaN", "2023-01-01", "2023-01-01 10:00:00", "1_000", "-", "-x", "a:b", "a#b", "a,b",
	"[x]", "a]", "?x", ":x", "<<", "a b  c", "http://x/y?z", "a'b", "a\"b", "0", "-0", "+1", "4294967295",
	"4294967294", "10", "2", "日本", "a\u00a0b", "--", "...x", "@", "%", "!",
}

func (g *docGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *docGen) spaces(n int) {
	for ; n > 0; n-- {
		g.b = append(g.b, ' ')
	}
}

// scalar writes a scalar in some style, on several lines only if multi,
// and reports whether it is plain.
func (g *docGen) scalar(flow, multi bool) bool {
	w := g.pick(genWords)
	switch g.r.IntN(6) {
	case 0:
		g.b = append(g.b, '\'')
		g.b = append(g.b, strings.ReplaceAll(w, "'", "''")...)
		if multi && g.r.IntN(4) == 0 {
			g.breaks()
			g.b = append(g.b, strings.ReplaceAll(g.pick(genWords), "'", "''")...)
		}
		g.b = append(g.b, '\'')
		return false
	case 1:
		g.b = append(g.b, '"')
		esc := []string{"\\n", "\\t", "\\\\", "\\\"", "\\x41", "\\u00e9", "\\U0001F600", "\\e", "\\0", "\\ ", "\\_", "\\N", "'"}
		for k := g.r.IntN(3); k >= 0; k-- {
			switch r := g.r.IntN(5); {
			case r < 2:
				g.b = append(g.b, g.pick(esc)...)
			case r == 2 && multi:
				if g.r.IntN(2) == 0 {
					g.b = append(g.b, '\\')
				}
				g.breaks()
			default:
				g.b = append(g.b, strings.ReplaceAll(strings.ReplaceAll(w, "\\", "\\\\"), "\"", "\\\"")...)
			}
		}
		g.b = append(g.b, '"')
		return false
	default:
		if flow {
			w = strings.NewReplacer(",", "", "[", "", "]", "", "{", "", "}", "", "?", "").Replace(w)
		}
		if w == "" || w == "-" || w == "!" || w == "@" || w == "%" || strings.HasPrefix(w, "[") || strings.HasPrefix(w, ":") || strings.HasPrefix(w, "?") {
			w = "w" + w
		}
		g.b = append(g.b, w...)
	}
	return true
}

// breaks writes spaces, line breaks and indentation inside a quoted
// scalar.
func (g *docGen) breaks() {
	g.spaces(g.r.IntN(2))
	for k := g.r.IntN(3); k >= 0; k-- {
		g.b = append(g.b, '\n')
		g.spaces(g.r.IntN(4))
	}
}

func (g *docGen) flow(depth int) {
	if depth > 2 || g.r.IntN(3) == 0 {
		g.scalar(true, false)
		return
	}
	open, close := byte('['), byte(']')
	isMap := g.r.IntN(2) == 0
	if isMap {
		open, close = '{', '}'
	}
	g.b = append(g.b, open)
	g.spaces(g.r.IntN(2))
	for i, n := 0, g.r.IntN(4); i < n; i++ {
		if i > 0 {
			g.b = append(g.b, ',')
			g.spaces(g.r.IntN(3))
		}
		if isMap {
			g.scalar(true, false)
			g.b = append(g.b, ':', ' ')
		}
		g.flow(depth + 1)
	}
	g.spaces(g.r.IntN(2))
	g.b = append(g.b, close)
}

// lineEnd ends a line, maybe with a comment, maybe adding blank or comment
// lines.
func (g *docGen) lineEnd() {
	if g.r.IntN(8) == 0 {
		g.spaces(1 + g.r.IntN(2))
		g.b = append(g.b, "# c"...)
	}
	g.b = append(g.b, '\n')
	for g.r.IntN(8) == 0 {
		g.spaces(g.r.IntN(6))
		if g.r.IntN(2) == 0 {
			g.b = append(g.b, "# c"...)
		}
		g.b = append(g.b, '\n')
	}
}

// value writes the value of an entry whose indicator (a dash, or else a
// colon) was just written, for a collection with entries in column ind.
func (g *docGen) value(ind, depth int, dash bool) {
	child := ind + 1 + g.r.IntN(4)
	switch c := g.r.IntN(14); {
	case c == 0 || depth > 4:
		g.lineEnd() // empty
	case c <= 4:
		g.spaces(1 + g.r.IntN(2))
		if g.scalar(false, true) && g.r.IntN(6) == 0 { // a continuation line
			g.b = append(g.b, '\n')
			g.spaces(ind + 1 + g.r.IntN(3))
			g.b = append(g.b, g.pick(genWords)...)
		}
		g.lineEnd()
	case c == 5:
		g.spaces(1)
		g.flow(0)
		g.lineEnd()
	case c == 6:
		g.spaces(1)
		h := g.pick([]string{"|", ">", "|-", ">+", "|+", "|2", ">-1", "|1-"})
		g.b = append(g.b, h...)
		g.lineEnd()
		in := ind + 1 + g.r.IntN(3)
		if k := strings.IndexAny(h, "12"); k >= 0 {
			in = ind + int(h[k]-'0')
		}
		for k := g.r.IntN(4); k >= 0; k-- {
			if g.r.IntN(4) == 0 {
				g.spaces(g.r.IntN(in + 2))
			} else {
				g.spaces(in + g.r.IntN(2))
				g.b = append(g.b, g.pick(genWords)...)
			}
			g.b = append(g.b, '\n')
		}
	case c <= 9:
		g.lineEnd()
		g.node(child, depth+1)
	case c <= 11 && dash:
		g.spaces(1)
		g.node(-1, depth+1) // compact, on this line
	case !dash:
		g.lineEnd()
		g.collection(ind, depth+1, true) // indentless
	default:
		g.lineEnd()
		g.node(child, depth+1)
	}
}

// node writes a block collection with entries in column ind, or, for ind
// -1, one that starts on the current line after "- " or a key.
func (g *docGen) node(ind, depth int) {
	g.collection(ind, depth, g.r.IntN(2) != 0)
}

func (g *docGen) col() int { return len(g.b) - 1 - bytes.LastIndexByte(g.b, '\n') }

// collection writes the entries of a block mapping, or with seq of a
// block sequence.
func (g *docGen) collection(ind, depth int, seq bool) {
	if ind < 0 {
		ind = g.col()
	} else {
		g.spaces(ind)
	}
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		if i > 0 {
			g.spaces(ind)
		}
		if seq {
			g.b = append(g.b, '-')
		} else {
			g.scalar(false, false)
			if g.r.IntN(10) == 0 {
				g.b = append(g.b, ' ')
			}
			g.b = append(g.b, ':')
		}
		g.value(ind, depth, seq)
		g.mistake()
	}
}

// mistake now and then inserts a character or a line somewhere.
func (g *docGen) mistake() {
	if !g.mess || g.r.IntN(30) != 0 || len(g.b) == 0 {
		return
	}
	i := g.r.IntN(len(g.b))
	ins := g.pick([]string{" ", "\n", "-", ":", "#", "'", "\"", "[", "]", "{", "}", ",", "|", ">", "a", "\t", "\r", "&a", "*a", "!!str ", "? ", "---\n", "\\"})
	g.b = append(g.b[:i], append([]byte(ins), g.b[i:]...)...)
}

func genDoc(seed uint64, mess bool) []byte {
	g := &docGen{r: rand.New(rand.NewPCG(seed, seed>>32|1)), mess: mess}
	if g.r.IntN(8) == 0 {
		g.b = append(g.b, "---\n"...)
	}
	g.node(g.r.IntN(2), 0)
	if g.r.IntN(4) == 0 {
		g.b = bytes.TrimRight(g.b, "\n")
	}
	return g.b
}

// TestFastPathGenerator runs both paths on random documents.
func TestFastPathGenerator(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	for _, mess := range []bool{false, true} {
		fast := 0
		for seed := 0; seed < n; seed++ {
			if checkFast(t, fmt.Sprintf("generated %d/%v", seed, mess), genDoc(uint64(seed), mess)) {
				fast++
			}
			if t.Failed() {
				return
			}
		}
		t.Logf("with mistakes %v: %d of %d documents take the fast path", mess, fast, n)
	}
}

// FuzzFastPathGenerated is FuzzFastPath on generated documents.
func FuzzFastPathGenerated(f *testing.F) {
	for seed := range uint64(64) {
		f.Add(seed, seed%2 == 0)
	}
	f.Fuzz(func(t *testing.T, seed uint64, mess bool) {
		checkFast(t, "generated", genDoc(seed, mess))
	})
}

// TestBlockStop: blockStop finds what a byte-by-byte scan finds: the first
// line feed, space or colon at or after i, or where fewer than eight bytes
// are left, an offset from which the byte scan finds it.
func TestBlockStop(t *testing.T) {
	naive := func(s string, i int) int {
		for i < len(s) && s[i] != '\n' && s[i] != ' ' && s[i] != ':' {
			i++
		}
		return i
	}
	alphabet := []byte{'a', 'Z', '0', '\n', ' ', ':', '#', 0x80, 0xff, 0x09, 0x0b, 0x1a, 0x3b, 0x21, 0x7f, 0x00, 0x01}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for j := range b {
			if rng.IntN(4) == 0 {
				b[j] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[j] = 'a' + byte(rng.IntN(26))
			}
		}
		s := string(b)
		i := rng.IntN(len(s) + 1)
		got := blockStop(s, i)
		require.GreaterOrEqual(t, got, i)
		require.LessOrEqual(t, got, naive(s, i), "%q from %d", s, i)
		require.Equal(t, naive(s, i), naive(s, got), "%q from %d", s, i)
		if got < len(s) && len(s)-got >= 8 {
			require.Equal(t, naive(s, i), got, "%q from %d", s, i)
		}
	}
}
