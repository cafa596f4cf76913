package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestScripts runs the CLI scenarios in ../../testdata/cli/*.txtar
// (style.md §5.4). Each archive's comment holds command lines:
//
//	v4t ARGS...      must exit 0
//	! v4t ARGS...    must exit non-zero
//	!N v4t ARGS...   must exit with status N
//
// Lines starting with # and blank lines are ignored; arguments are split at
// spaces, with '...' and "..." quoting. A command line may end in "< FILE":
// standard input is then FILE (a section), else it is empty. Every other
// section is an input file,
// written into a fresh directory in which the commands run, except:
//
//	stdout, stderr   the expected output of all commands, concatenated
//	                 (a missing section means no output)
//	want:PATH        the expected content of PATH after the commands
//
// With -update or V4T_UPDATE=1 the expected sections are rewritten from the
// actual results (exit statuses are not rewritten).
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "cli", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no CLI scripts found")
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			runScript(t, f)
		})
	}
}

func runScript(t *testing.T, file string) {
	file, err := filepath.Abs(file)
	require.NoError(t, err)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	ar := testkit.ParseTxtar(data)

	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "stdout" || f.Name == "stderr" || strings.HasPrefix(f.Name, "want:") {
			continue
		}
		require.True(t, filepath.IsLocal(f.Name), "%s: file name %q must be a local relative path", file, f.Name)
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, f.Data, 0o644))
	}
	t.Chdir(dir)

	var stdout, stderr bytes.Buffer
	ran := 0
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, args, err := parseCommand(line)
		require.NoError(t, err, "%s:%d", file, i+1)
		args, in := cutStdin(args)
		stdin := []byte{}
		if in != "" {
			stdin, err = os.ReadFile(filepath.FromSlash(in))
			require.NoError(t, err, "%s:%d: standard input", file, i+1)
		}
		code := run(args, bytes.NewReader(stdin), &stdout, &stderr)
		ran++
		switch {
		case want == -1:
			require.NotEqual(t, 0, code, "%s:%d: %s: exit status", file, i+1, line)
		default:
			require.Equal(t, want, code, "%s:%d: %s: exit status\nstderr:\n%s", file, i+1, line, stderr.String())
		}
	}
	require.NotZero(t, ran, "%s: no commands", file)

	actual := map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()}
	for _, f := range ar.Files {
		if path, ok := strings.CutPrefix(f.Name, "want:"); ok {
			got, err := os.ReadFile(filepath.FromSlash(path))
			if err != nil {
				got = []byte(fmt.Sprintf("(cannot read %s: %v)\n", path, err))
			}
			actual[f.Name] = got
		}
	}
	if testkit.Update() {
		for _, name := range []string{"stdout", "stderr"} {
			if len(actual[name]) == 0 {
				ar.Delete(name)
			} else {
				ar.Set(name, actual[name])
			}
		}
		for name, got := range actual {
			if strings.HasPrefix(name, "want:") {
				ar.Set(name, got)
			}
		}
		require.NoError(t, os.WriteFile(file, testkit.FormatTxtar(ar), 0o644))
		return
	}
	for _, name := range []string{"stdout", "stderr"} {
		want, _ := ar.Get(name)
		require.Equal(t, string(testkit.Normalize(want)), string(testkit.Normalize(actual[name])), "%s: %s (V4T_UPDATE=1 rewrites it)", file, name)
	}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want:") {
			require.Equal(t, string(testkit.Normalize(f.Data)), string(testkit.Normalize(actual[f.Name])), "%s: %s (V4T_UPDATE=1 rewrites it)", file, f.Name)
		}
	}
}

// cutStdin splits "< FILE" off the end of a command's arguments: the
// arguments before it and FILE, or the arguments and "".
func cutStdin(args []string) ([]string, string) {
	if n := len(args); n >= 2 && args[n-2] == "<" {
		return args[:n-2], args[n-1]
	}
	return args, ""
}

// parseCommand reads one command line: the expected exit status (-1 for any
// non-zero status) and the arguments after "v4t".
func parseCommand(line string) (int, []string, error) {
	want := 0
	if rest, ok := strings.CutPrefix(line, "!"); ok {
		want = -1
		status, after, _ := strings.Cut(rest, " ")
		if status != "" {
			n, err := strconv.Atoi(status)
			if err != nil || n <= 0 {
				return 0, nil, fmt.Errorf("bad expected status %q in %q", status, line)
			}
			want = n
		}
		line = strings.TrimSpace(after)
	}
	words, err := splitWords(line)
	if err != nil {
		return 0, nil, err
	}
	if len(words) == 0 || words[0] != "v4t" {
		return 0, nil, fmt.Errorf("a command must start with v4t: %q", line)
	}
	return want, words[1:], nil
}

// splitWords splits at spaces, honouring '...' and "..." (with \" and \\
// escapes inside double quotes).
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line    string
		want    int
		args    []string
		wantErr bool
	}{
		{line: "v4t test .", want: 0, args: []string{"test", "."}},
		{line: "! v4t x", want: -1, args: []string{"x"}},
		{line: "!2 v4t x", want: 2, args: []string{"x"}},
		{line: `v4t resolve --input 'a=b c' --input "x=\"y\""`, args: []string{"resolve", "--input", "a=b c", "--input", `x="y"`}},
		{line: "v4t ''", args: []string{""}},
		{line: "v4t resolve --template - < t.yaml", args: []string{"resolve", "--template", "-", "<", "t.yaml"}},
		{line: "ls", wantErr: true},
		{line: "!x v4t", wantErr: true},
		{line: "v4t 'open", wantErr: true},
	}
	for _, tc := range tests {
		want, args, err := parseCommand(tc.line)
		if tc.wantErr {
			require.Error(t, err, "line %q", tc.line)
			continue
		}
		require.NoError(t, err, "line %q", tc.line)
		require.Equal(t, tc.want, want, "status of %q", tc.line)
		require.Equal(t, tc.args, args, "args of %q", tc.line)
	}
}

func TestCutStdin(t *testing.T) {
	args, in := cutStdin([]string{"resolve", "--template", "-", "<", "t.yaml"})
	require.Equal(t, []string{"resolve", "--template", "-"}, args)
	require.Equal(t, "t.yaml", in)
	args, in = cutStdin([]string{"resolve", "--template", "t.yaml"})
	require.Equal(t, []string{"resolve", "--template", "t.yaml"}, args)
	require.Empty(t, in)
}
