package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeSections are the README sections whose code blocks TestReadme runs
// (those of analyze, sample, configuration spaces and batch have tests of
// their own).
var readmeSections = []string{
	"## Install", "## Quick start", "### `v4t resolve`", "### `v4t validate`", "### `v4t enumerate`",
	"### `v4t graph`", "### `v4t test`", "### `v4t version`, `v4t help`", "### Global flags",
	"### Conformance corpora",
}

// TestReadme runs the code blocks of the README's sections on installing,
// the quick start, resolve, validate, enumerate, graph, test, version, the
// global flags and the conformance corpora, from a directory laid out like
// the repository's root:
// "$ " sessions with their output (standard output and error together, as
// on a terminal), and every command line of the other blocks (the usage
// blocks aside). go install runs with GOBIN in a temporary directory and
// its binary must be static; go test is not run by a test; dot runs when
// Graphviz is installed. A line the test does not know how to run fails
// it, so that every example stays checked. In -short mode the go command
// and the timing examples, which take seconds, are left out, and the timing
// examples under the race detector too.
func TestReadme(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	all := map[string][]block{}
	for _, h := range readmeSections {
		all[h] = readmeBlocks(t, h)
	}
	shared := withRepoLayout(t)
	sessions, lines := 0, 0
	for _, h := range readmeSections {
		for _, b := range all[h] {
			if len(b.lines) == 0 || b.info != "" {
				continue
			}
			if strings.HasPrefix(b.lines[0], "$ ") {
				sessions++
				readmeSession(t, h, b.lines)
				continue
			}
			if isUsage(b.lines[0]) {
				continue
			}
			for _, line := range exampleLines(strings.Join(b.lines, "\n")) {
				lines++
				readmeLine(t, h, line, repo, shared)
			}
		}
	}
	require.Equal(t, 7, sessions, "the README's sessions")
	require.Equal(t, 22, lines, "the README's command lines")
}

// isUsage recognises the first line of a usage block.
func isUsage(line string) bool {
	return strings.HasPrefix(line, "v4t ") && (strings.Contains(line, "[--") || strings.Contains(line, " FILE") || strings.Contains(line, "DIR..."))
}

// readmeLine runs one command line of the README section h.
func readmeLine(t *testing.T, h, line, repo string, shared bool) {
	t.Helper()
	words, err := splitWords(line)
	require.NoError(t, err, "%s: %s", h, line)
	require.NotEmpty(t, words, "%s: an empty line", h)
	if words[0] == "time" {
		words = words[1:]
	}
	if n := len(words); n > 0 && words[n-1] == ">/dev/null" {
		words = words[:n-1]
	}
	cmd := strings.Join(words, " ")
	switch {
	case cmd == "CGO_ENABLED=0 go install ./cmd/v4t":
		if testing.Short() {
			t.Logf("%s: not run in -short mode: %s", h, line)
			return
		}
		gobin := t.TempDir()
		c := exec.Command("go", "install", "./cmd/v4t")
		c.Dir = repo
		c.Env = append(os.Environ(), "CGO_ENABLED=0", "GOBIN="+gobin)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s: %s\n%s", h, line, out)
		assertStatic(t, filepath.Join(gobin, "v4t"))
	case strings.HasPrefix(cmd, "go run ./cmd/v4t "):
		if (testing.Short() || raceEnabled) && strings.Contains(cmd, " bench ") {
			t.Logf("%s: not run in -short mode or under the race detector: %s", h, line)
			return
		}
		runReadmeV4T(t, h, line, words[3:])
	case strings.HasPrefix(cmd, "go test ") || strings.Contains(cmd, " go test "):
		t.Logf("%s: not run by a test: %s", h, line)
	case words[0] == "v4t":
		if strings.Contains(cmd, "../shared/") && !shared {
			t.Logf("%s: the shared corpora are absent: %s", h, line)
			parseOnly(t, words[1:])
			return
		}
		if (testing.Short() || raceEnabled) && (strings.Contains(cmd, "vb/ring-10000") || (len(words) > 1 && words[1] == "test")) {
			t.Logf("%s: not run in -short mode or under the race detector: %s", h, line)
			parseOnly(t, words[1:])
			return
		}
		runReadmeV4T(t, h, line, words[1:])
	case words[0] == "dot":
		if _, err := exec.LookPath("dot"); err != nil {
			t.Logf("%s: Graphviz is not installed: %s", h, line)
			return
		}
		out, err := exec.Command("sh", "-c", line).CombinedOutput()
		require.NoError(t, err, "%s: %s\n%s", h, line, out)
	default:
		t.Errorf("%s: the test does not know how to run %q: run it here, or mark it as not run", h, line)
	}
}

// runReadmeV4T runs a v4t command line of the README, which must succeed:
// exit status 0, or 1 for validate, whose problems are its output. A line
// that ends in "< FILE" reads FILE as its standard input.
func runReadmeV4T(t *testing.T, h, line string, args []string) {
	t.Helper()
	args, in := cutStdin(args)
	stdin := []byte{}
	if in != "" {
		var err error
		stdin, err = os.ReadFile(in)
		require.NoError(t, err, "%s: %s: standard input", h, line)
	}
	out, code := runTerminalInput(t, args, stdin)
	if len(args) > 0 && args[0] == "validate" && code == exitRejected {
		require.NotContains(t, out, "error:", "%s: %s", h, line)
		return
	}
	require.Equal(t, exitOK, code, "%s: %s\noutput:\n%.2000s", h, line, out)
}

// readmeSession runs the commands of a "$ " session and compares their
// output with the lines that follow each. A command fails (a non-zero exit
// status) when its output has an error line, and validate also when it has
// any output; every other command succeeds.
func readmeSession(t *testing.T, h string, lines []string) {
	t.Helper()
	for i := 0; i < len(lines); {
		line := strings.TrimPrefix(lines[i], "$ ")
		var want strings.Builder
		failing := false
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			want.WriteString(lines[i] + "\n")
			failing = failing || strings.HasPrefix(lines[i], "error: ")
		}
		_, args, err := parseCommand(line)
		require.NoError(t, err, "%s: %s", h, line)
		failing = failing || (args[0] == "validate" && want.Len() > 0)
		got, code := runTerminal(t, args)
		if failing {
			require.NotEqual(t, exitOK, code, "%s: %s: exit status", h, line)
		} else {
			require.Equal(t, exitOK, code, "%s: %s: exit status", h, line)
		}
		require.Equal(t, want.String(), got, "%s: %s", h, line)
	}
}

// runTerminal runs v4t with standard output and error going to one file,
// as on a terminal, and returns what it wrote and its exit status.
func runTerminal(t *testing.T, args []string) (string, int) {
	t.Helper()
	return runTerminalInput(t, args, nil)
}

// runTerminalInput is runTerminal with stdin as standard input.
func runTerminalInput(t *testing.T, args []string, stdin []byte) (string, int) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "out")
	require.NoError(t, err)
	defer f.Close()
	code := run(args, bytes.NewReader(stdin), f, f)
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	return string(data), code
}

// assertStatic checks that the ELF binary at path needs no dynamic loader
// and no shared libraries.
func assertStatic(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Skipf("%s: not an ELF binary on this system: %v", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		require.NotEqual(t, elf.PT_INTERP, p.Type, "%s: a static binary has no interpreter", path)
	}
	libs, err := f.ImportedLibraries()
	require.NoError(t, err)
	require.Empty(t, libs, "%s: a static binary needs no shared libraries", path)
}
