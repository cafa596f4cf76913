package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func TestHardTimeout(t *testing.T) {
	tests := []struct {
		args []string
		want time.Duration
	}{
		{nil, 0},
		{[]string{"--timeout", "5s", "test", "x"}, 5 * time.Second},
		{[]string{"test", "x", "--timeout=2m"}, 2 * time.Minute},
		{[]string{"--timeout", "1s", "--timeout", "3s"}, 3 * time.Second},
		{[]string{"--timeout", "bad"}, 0},
		{[]string{"--timeout"}, 0},
		{[]string{"--", "--timeout", "1s"}, 0},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, hardTimeout(tc.args), "args %q", tc.args)
	}
}

func TestListValue(t *testing.T) {
	split := &listValue{split: true}
	require.NoError(t, split.Set("a,b"))
	require.NoError(t, split.Set(" c ,,"))
	require.Equal(t, []string{"a", "b", "c"}, split.items)
	whole := &listValue{}
	require.NoError(t, whole.Set("x=[1, 2]"))
	require.Equal(t, []string{"x=[1, 2]"}, whole.items)
}

func TestParseAssignment(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		json    string
		wantErr string
	}{
		{in: "large=true", name: "large", json: "true"},
		{in: "mode=present", name: "mode", json: `"present"`},
		{in: "n=3", name: "n", json: "3"},
		{in: "l=[a, 2]", name: "l", json: `["a",2]`},
		{in: "s='true'", name: "s", json: `"true"`},
		{in: "e=", name: "e", json: "null"},
		{in: "eq=a=b", name: "eq", json: `"a=b"`},
		{in: "novalue", wantErr: `--input "novalue": expected NAME=VALUE`},
		{in: "=3", wantErr: `expected NAME=VALUE`},
		{in: "bad=[", wantErr: "--input bad: "},
	}
	for _, tc := range tests {
		a, err := parseAssignment("resolve", "--input", tc.in)
		if tc.wantErr != "" {
			require.Error(t, err, "input %q", tc.in)
			require.Contains(t, err.Error(), tc.wantErr, "input %q", tc.in)
			continue
		}
		require.NoError(t, err, "input %q", tc.in)
		require.Equal(t, tc.name, a.Name, "name of %q", tc.in)
		require.Equal(t, tc.json, jsonOf(a), "value of %q", tc.in)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.yaml")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
	require.NoError(t, writeFileAtomic(p, []byte("new\n")))
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "new\n", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary files left behind")

	err = writeFileAtomic(filepath.Join(dir, "missing", "out.yaml"), []byte("x"))
	require.Error(t, err)
	require.Contains(t, err.Error(), "out.yaml: cannot write: no such file or directory")
}

// TestWriteFileAtomicSpecial checks that a named pipe or device is written
// in place rather than replaced by a regular file (--output /dev/null must
// not turn /dev/null into a file; a pipe stands for the device here, so
// that a failing test cannot break the machine), and that a symbolic link
// stays a link.
func TestWriteFileAtomicSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := testkit.Mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan []byte)
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- data
	}()
	require.NoError(t, writeFileAtomic(fifo, []byte("through the pipe\n")))
	require.Equal(t, "through the pipe\n", string(<-got))
	fi, err := os.Lstat(fifo)
	require.NoError(t, err)
	require.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "the pipe is still a pipe")

	target := filepath.Join(dir, "target.yaml")
	link := filepath.Join(dir, "link.yaml")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	require.NoError(t, os.Symlink("target.yaml", link))
	require.NoError(t, writeFileAtomic(link, []byte("new")))
	fi, err = os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	require.Equal(t, "new", string(data))
}

func TestFailExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		debug  bool
		code   int
		stderr string
	}{
		{
			name:   "diagnostic with position",
			err:    diag.At(diag.Pos{File: "t.yaml", Line: 3, Col: 5}, diag.StageLoad, "bad\nthing"),
			code:   exitRejected,
			stderr: "error: t.yaml:3:5: bad\\nthing\n",
		},
		{
			name:   "diagnostic without position",
			err:    diag.New(diag.StageSolve, "Could not solve"),
			code:   exitRejected,
			stderr: "error: Could not solve\n",
		},
		{
			name:   "related positions under --debug",
			err:    &diag.Diagnostic{Message: "dup", Related: []diag.Related{{Pos: diag.Pos{File: "a", Line: 1}, Message: "first"}}},
			debug:  true,
			code:   exitRejected,
			stderr: "error: dup\n  related: a:1: first\n",
		},
		{
			name:   "internal error diagnostic",
			err:    diag.New(diag.StageSolve, "internal error: broken invariant"),
			code:   exitInternal,
			stderr: "error: internal error: broken invariant\n",
		},
		{
			name:   "deadline",
			err:    context.DeadlineExceeded,
			code:   exitInternal,
			stderr: "error: context deadline exceeded\n",
		},
		{
			name:   "usage",
			err:    usagef("resolve", "bad flag"),
			code:   exitUsage,
			stderr: "error: bad flag\nrun 'v4t resolve --help' for usage\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			e := &env{stderr: &stderr, g: &globals{debug: tc.debug}}
			require.Equal(t, tc.code, e.fail("resolve", tc.err), "exit status for %v", tc.err)
			require.Equal(t, tc.stderr, stderr.String(), "stderr for %v", tc.err)
		})
	}
}

func TestPanicIsInternalError(t *testing.T) {
	for _, debug := range []bool{false, true} {
		var stderr bytes.Buffer
		e := &env{stderr: &stderr, g: &globals{debug: debug}}
		code := e.exec(func(context.Context, *env, []string) int { panic("oops\nmore") }, nil)
		require.Equal(t, exitInternal, code)
		first, rest, _ := strings.Cut(stderr.String(), "\n")
		require.True(t, strings.HasPrefix(first, `error: internal error: oops\nmore`), "first line %q", first)
		require.Equal(t, debug, strings.Contains(rest, "goroutine"), "stack trace only with --debug, got %q", rest)
	}
}

func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	stdout, _ := runOK(t, "--cpuprofile", cpu, "version", "--memprofile", mem)
	for _, p := range []string{cpu, mem} {
		st, err := os.Stat(p)
		require.NoError(t, err, "profile %s", p)
		require.NotZero(t, st.Size(), "profile %s", p)
	}
	require.True(t, strings.HasPrefix(stdout, "v4t "), "version output %q", stdout)
}

// runCLI runs v4t with args and an empty standard input, and returns its
// exit status, standard output and standard error.
func runCLI(args ...string) (int, string, string) { return runInput("", args...) }

// runInput runs v4t like runCLI, with stdin as its standard input.
func runInput(stdin string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// runOK runs v4t like runCLI, requires exit status 0, and returns its
// standard output and standard error.
func runOK(t *testing.T, args ...string) (string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(args...)
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	return stdout, stderr
}

func jsonOf(a resolve.Assignment) string { return yamlsrc.JSON(a.Value) }
