package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestHelpExamples runs the example of every command's --help as shown,
// from a directory laid out like the repository's root. An example that
// needs the reference (--reference, which runs Node.js) is only parsed, as
// is one that needs the shared corpora when they are absent; in -short mode
// the examples that take seconds (bench, batch, test) are only parsed too,
// and so are bench's under the race detector.
func TestHelpExamples(t *testing.T) {
	shared := withRepoLayout(t)
	// The files the examples of v4t sd name.
	require.NoError(t, os.MkdirAll(filepath.Join("environments", "cluster-01", "env-01"), 0o755))
	copyFile(t, filepath.Join("testdata", "sd", "example", "sd.yml"), "sd.yml")
	copyFile(t, filepath.Join("testdata", "sd", "example", "delta.json"), "delta.yaml") // JSON is YAML
	ran, parsed := 0, 0
	for _, c := range commands() {
		lines := exampleLines(c.example)
		require.NotEmpty(t, lines, "v4t %s --help has an example", c.name)
		for _, line := range lines {
			vars, args := exampleArgs(t, line)
			require.Equal(t, c.name, args[0], "the example of v4t %s runs it: %s", c.name, line)
			why := ""
			switch {
			case strings.Contains(line, "--reference"):
				why = "it needs the reference"
			case strings.Contains(line, "../shared/") && !shared:
				why = "the shared corpora are absent"
			case testing.Short() && slowExample[c.name]:
				why = "-short"
			case raceEnabled && c.name == "bench":
				why = "the race detector slows its child processes down too much"
			}
			if why != "" {
				parsed++
				t.Logf("parsed only (%s): %s", why, line)
				parseOnly(t, args)
				continue
			}
			ran++
			for k, v := range vars {
				t.Setenv(k, v)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			for k := range vars {
				os.Unsetenv(k)
			}
			require.Equal(t, exitOK, code, "v4t %s --help: %s\n%s", c.name, line, stderr.String())
			require.NotContains(t, stderr.String(), "error:", "v4t %s --help: %s", c.name, line)
		}
	}
	t.Logf("%d example lines run, %d parsed", ran, parsed)
	require.GreaterOrEqual(t, ran+parsed, 20, "the examples of all commands")
}

// slowExample names the commands whose examples take seconds: bench's
// families, batch's 600 runs, test's conformance corpus.
var slowExample = map[string]bool{"bench": true, "batch": true, "test": true}

// withRepoLayout makes a temporary working directory laid out like the
// repository's root, so that the paths of the examples work as shown:
// testdata is the repository's, and ../shared/conformance the conformance
// corpora, wherever V4T_CONFORMANCE says they are, when they are there (it
// reports whether they are).
func withRepoLayout(t *testing.T) (shared bool) {
	t.Helper()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	require.NoError(t, os.Mkdir(root, 0o755))
	if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(root, "testdata")); err != nil {
		t.Skipf("cannot link testdata: %v", err)
	}
	if _, ok := testkit.LookupCorpus(t, "vintner"); ok {
		require.NoError(t, os.Mkdir(filepath.Join(dir, "shared"), 0o755))
		require.NoError(t, os.Symlink(testkit.ConformanceRoot(), filepath.Join(dir, "shared", "conformance")))
		shared = true
	}
	t.Chdir(root)
	return shared
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, 0o644))
}

// exampleLines splits an example into command lines, joining lines that
// end with a backslash with the next.
func exampleLines(example string) []string {
	var lines []string
	cur := ""
	for l := range strings.SplitSeq(strings.TrimRight(example, "\n"), "\n") {
		if rest, ok := strings.CutSuffix(l, `\`); ok {
			cur += strings.TrimSpace(rest) + " "
			continue
		}
		lines = append(lines, cur+strings.TrimSpace(l))
		cur = ""
	}
	if cur != "" {
		lines = append(lines, strings.TrimSpace(cur))
	}
	return lines
}

var envAssignment = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)

// exampleArgs reads an example line, "[NAME=VALUE]... v4t ARGS...": the
// environment it sets and the arguments after v4t.
func exampleArgs(t *testing.T, line string) (map[string]string, []string) {
	t.Helper()
	words, err := splitWords(line)
	require.NoError(t, err, line)
	vars := map[string]string{}
	for len(words) > 0 && envAssignment.MatchString(words[0]) {
		name, value, _ := strings.Cut(words[0], "=")
		vars[name] = value
		words = words[1:]
	}
	require.True(t, len(words) > 1 && words[0] == "v4t", "an example runs v4t: %s", line)
	return vars, words[1:]
}

// parseOnly checks that v4t would accept the command line args: a known
// command, and flags its flag set parses.
func parseOnly(t *testing.T, args []string) {
	t.Helper()
	c := lookup(args[0])
	require.NotNil(t, c, "command %q", args[0])
	var help bool
	fs, _ := c.flags(&globals{}, &help)
	rest := args[1:]
	if fs.Lookup("presets") != nil {
		rest = spreadPresets(rest)
	}
	require.NoError(t, fs.Parse(rest), "v4t %s", strings.Join(args, " "))
}
