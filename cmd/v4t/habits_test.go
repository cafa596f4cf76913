package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersionText(t *testing.T) {
	settings := []debug.BuildSetting{
		{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "true"},
	}
	info := func(v string, s []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "v4t", Version: v}, Settings: s}
	}
	const details = "commit 0123456789ab (modified)\nbuilt with go1.26.1 for linux/amd64\nfollows OpenTOSCA Vintner " + referenceVersion + "\n"
	tests := []struct {
		name    string
		info    *debug.BuildInfo
		ok      bool
		line    string
		details string
	}{
		{"a build from a clone", info("(devel)", settings), true, "v4t " + version, details},
		{"a release tag", info("v0.18.0", settings), true, "v4t 0.18.0", details},
		{"a modified release tag", info("v0.18.0+dirty", settings), true, "v4t 0.18.0+dirty", details},
		{"a pseudo-version holds the commit", info("v0.0.0-20261101120000-0123456789ab+dirty", settings), true, "v4t " + version, details},
		{"a pseudo-version after a tag", info("v0.18.1-0.20261101120000-0123456789ab", settings), true, "v4t " + version, details},
		{"no VCS information", info("", nil), true, "v4t " + version, "built with go1.26.1\nfollows OpenTOSCA Vintner " + referenceVersion + "\n"},
		{"no build information", nil, false, "v4t " + version, "follows OpenTOSCA Vintner " + referenceVersion + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.line+"\n", versionText(tc.info, tc.ok, false), "--version of %s", tc.name)
			full := versionText(tc.info, tc.ok, true)
			require.Equal(t, tc.line+"\n"+tc.details, full, "v4t version of %s", tc.name)
			require.LessOrEqual(t, strings.Count(full, "0123456789ab"), 1, "the commit at most once: %q", full)
		})
	}
}

// TestVersionAndHelpHabits checks --version and -V before and after a
// command, v4t version's first line, and that v4t alone prints the help.
func TestVersionAndHelpHabits(t *testing.T) {
	code, version, _ := runCLI("version")
	require.Equal(t, exitOK, code)
	first, _, _ := strings.Cut(version, "\n")
	require.Regexp(t, `^v4t \d+\.\d+\.\d+`, first, "v4t version")
	for _, args := range [][]string{{"--version"}, {"-V"}, {"resolve", "--version"}, {"enumerate", "--template", "missing.yaml", "-V"}, {"--debug", "-V", "validate"}} {
		code, stdout, stderr := runCLI(args...)
		require.Equal(t, exitOK, code, "v4t %s", strings.Join(args, " "))
		require.Equal(t, first+"\n", stdout, "v4t %s", strings.Join(args, " "))
		require.Empty(t, stderr, "v4t %s", strings.Join(args, " "))
	}
	code, help, _ := runCLI("--help")
	require.Equal(t, exitOK, code)
	code, alone, stderr := runCLI()
	require.Equal(t, exitOK, code, "v4t alone")
	require.Equal(t, help, alone, "v4t alone prints the help of v4t --help")
	require.Empty(t, stderr, "v4t alone")
	require.Contains(t, help, "-V, --version")
}

func TestSpreadPresets(t *testing.T) {
	tests := []struct {
		args, want []string
	}{
		{[]string{"--presets", "a", "b", "c"}, []string{"--presets", "a", "--presets", "b", "--presets", "c"}},
		{[]string{"--template", "t.yaml", "--presets", "a", "b", "--input", "x=1"}, []string{"--template", "t.yaml", "--presets", "a", "--presets", "b", "--input", "x=1"}},
		{[]string{"--presets", "a,b", "c"}, []string{"--presets", "a,b", "--presets", "c"}},
		{[]string{"--presets=a", "b"}, []string{"--presets=a", "b"}},
		{[]string{"--preset", "a", "b"}, []string{"--preset", "a", "b"}},
		{[]string{"--presets", "a", "-", "b"}, []string{"--presets", "a", "-", "b"}},
		{[]string{"--presets", "a", "--", "b"}, []string{"--presets", "a", "--", "b"}},
		{[]string{"--", "--presets", "a", "b"}, []string{"--", "--presets", "a", "b"}},
		{[]string{"--presets"}, []string{"--presets"}},
		{[]string{"--presets", "--x", "b"}, []string{"--presets", "--x", "--presets", "b"}},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, spreadPresets(tc.args), "args %q", tc.args)
	}
}

// TestDidYouMean checks the suggestions for mistyped commands and flags.
func TestDidYouMean(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"resolv"}, `error: unknown command "resolv" (did you mean "resolve"?)` + "\nrun 'v4t --help' for usage\n"},
		{[]string{"enumrate", "--template", "t.yaml"}, `error: unknown command "enumrate" (did you mean "enumerate"?)` + "\nrun 'v4t --help' for usage\n"},
		{[]string{"frobnicate"}, `error: unknown command "frobnicate"` + "\nrun 'v4t --help' for usage\n"},
		{[]string{"help", "valdiate"}, `error: unknown command "valdiate" (did you mean "validate"?)` + "\nrun 'v4t help --help' for usage\n"},
		{[]string{"resolve", "--tempalte", "t.yaml"}, "error: unknown flag: --tempalte (did you mean --template?)\nrun 'v4t resolve --help' for usage\n"},
		{[]string{"resolve", "--tempalte=t.yaml"}, "error: unknown flag: --tempalte (did you mean --template?)\nrun 'v4t resolve --help' for usage\n"},
		{[]string{"validate", "--presets", "a", "t.yaml"}, "error: unknown flag: --presets (did you mean --preset?)\nrun 'v4t validate --help' for usage\n"},
		{[]string{"resolve", "--timout", "1s"}, "error: unknown flag: --timout (did you mean --timeout?)\nrun 'v4t resolve --help' for usage\n"},
		{[]string{"--debg", "resolve"}, "error: unknown flag: --debg (did you mean --debug?)\nrun 'v4t --help' for usage\n"},
		{[]string{"resolve", "--timings-jsn", "x"}, "error: unknown flag: --timings-jsn\nrun 'v4t resolve --help' for usage\n"},
		{[]string{"resolve", "--zzzzzz"}, "error: unknown flag: --zzzzzz\nrun 'v4t resolve --help' for usage\n"},
		{[]string{"resolve", "-Q"}, "error: unknown shorthand flag: 'Q' in -Q\nrun 'v4t resolve --help' for usage\n"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(tc.args...)
		require.Equal(t, exitUsage, code, "v4t %s", strings.Join(tc.args, " "))
		require.Equal(t, tc.stderr, stderr, "v4t %s", strings.Join(tc.args, " "))
	}
}

// TestOneFailureOneLine: a failure about a template with one real error
// among many undefined node types is at most two lines on standard error,
// the error and one hint, for every command that resolves the template;
// --problems lists the problems instead.
func TestOneFailureOneLine(t *testing.T) {
	t.Chdir(t.TempDir())
	var b strings.Builder
	b.WriteString("tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n    node_templates:\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "        n%d:\n            type: my.Type%d\n", i, i)
	}
	b.WriteString("        app:\n            type: tosca.nodes.SoftwareComponent\n            requirements:\n                - host: nowhere\n")
	require.NoError(t, os.WriteFile("many.yaml", []byte(b.String()), 0o644))
	const errLine = `error: many.yaml:67:25: Target "nowhere" of relation "host@0" of node "app" does not exist`
	for _, args := range [][]string{
		{"resolve"}, {"enumerate"}, {"enumerate", "--count"}, {"analyze"}, {"sample", "--uniform", "2"}, {"graph"}, {"graph", "--variant"},
	} {
		name := strings.Join(args, " ")
		args = append(args, "--template", "many.yaml")
		var stdout, stderr bytes.Buffer
		require.Equal(t, exitRejected, run(args, strings.NewReader(""), &stdout, &stderr), "v4t %s", name)
		require.Equal(t, errLine+"\nhint: v4t validate many.yaml lists 30 more problems\n", stderr.String(), "v4t %s", name)
		require.Empty(t, stdout.String(), "v4t %s", name)

		stderr.Reset()
		require.Equal(t, exitRejected, run(append(args, "--problems"), strings.NewReader(""), &stdout, &stderr), "v4t %s --problems", name)
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		require.Len(t, lines, 31, "v4t %s --problems: the error and every problem", name)
		require.Equal(t, errLine, lines[0], "v4t %s --problems", name)
		require.Equal(t, `  problem: many.yaml:63:19: node type "my.Type30" not found`, lines[30], "v4t %s --problems", name)
	}
}

// TestShippedExamplesValidate: the example templates validate clean, so
// that a user's first v4t validate of them finds nothing, and the error
// examples of the README fail only as the README says.
func TestShippedExamplesValidate(t *testing.T) {
	tests := []struct {
		file     string
		problems int
	}{
		{"testdata/examples/webshop/template.yaml", 0},
		{"testdata/examples/motivation/variable-service-template.yaml", 0},
		{"testdata/examples/boutique/variable-service-template.yaml", 0},
		{"testdata/examples/featureide/template.yaml", 0},
		{"testdata/examples/errors/conflict.yaml", 0},
		{"testdata/examples/errors/hosting.yaml", 0},
		{"testdata/examples/errors/preset.yaml", 0},
		{"testdata/examples/errors/typo.yaml", 2},
	}
	withTestdata(t)
	files, err := filepath.Glob("testdata/examples/*/*.yaml")
	require.NoError(t, err)
	var listed []string
	for _, tc := range tests {
		listed = append(listed, tc.file)
	}
	require.ElementsMatch(t, listed, files, "every shipped example template is checked")
	for _, tc := range tests {
		code, stdout, stderr := runCLI("validate", tc.file)
		lines := strings.Count(stdout, "\n")
		require.Equal(t, tc.problems, lines, "problems of %s:\n%s", tc.file, stdout)
		if tc.problems == 0 {
			require.Equal(t, exitOK, code, "v4t validate %s: %s", tc.file, stderr)
		}
	}
}
