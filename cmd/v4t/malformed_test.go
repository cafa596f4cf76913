package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMalformedInputs feeds every subcommand input it must refuse: broken
// YAML, wrong kinds, unknown references, alias bombs, deep nesting, huge
// numbers, import cycles, imports and CSAR entries escaping their tree,
// zip bombs, invalid SD JSON, truncated files and binary garbage. Each run
// must exit with status 1 within 10 s, say why in one line on standard
// error ("error: file:line:col: message" where a position exists), besides
// warnings about input it reads as the reference does, and leave no file
// behind.
func TestMalformedInputs(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\n"
	const node = head + "topology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.Root\n"
	good := head + "topology_template:\n  variability:\n    inputs:\n      large: {type: boolean, default: false}\n" +
		"  node_templates:\n    a:\n      type: tosca.nodes.Root\n      conditions: {variability_input: large}\n"
	garbage := func(n int, seed int64) string {
		b := make([]byte, n)
		rand.New(rand.NewSource(seed)).Read(b)
		return string(b)
	}
	bomb := func(head string) string {
		s := head + `a: &a ["x","x","x","x","x","x","x","x","x","x"]` + "\n"
		prev := "a"
		for i := 1; i <= 9; i++ {
			s += fmt.Sprintf("b%d: &b%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat("*"+prev+",", 10), ","))
			prev = fmt.Sprintf("b%d", i)
		}
		return s
	}
	deepBlock := func(head string, n int) string {
		var b strings.Builder
		b.WriteString(head + "x:\n")
		for i := 1; i <= n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "k:\n")
		}
		return b.String()
	}
	const tk = "tosca_definitions_version: tosca_simple_yaml_1_0\nimports:\n" +
		"  - tosker: https://di-unipi-socc.github.io/tosker-types/1.0.0/tosker.yaml\n" +
		"topology_template:\n  node_templates:\n    app:\n      type: tosker.nodes.Software\n" +
		"      requirements:\n        - host:\n            node_filter:\n              properties:\n" +
		"                - supported_sw: [{node: 6.x}]\n"
	const meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: app.yaml\n"
	catalog, err := os.ReadFile(filepath.Join("..", "..", "testdata", "complete", "catalog.json"))
	require.NoError(t, err)
	const sdFull = "version: 2.1\ntype: solutionDeploy\napplications: []\n"

	type files map[string]string
	tests := []struct {
		name  string
		files files
		args  string
		// pos: the error names file:line:col, after "error: "; "" for
		// errors without a place in a file (a missing file, an archive as
		// a whole). v4t sd ends its message with "(at file:line:col)", as
		// its spec keeps the message right after "error: ".
		pos string
	}{
		// resolve: YAML
		{"broken YAML", files{"t.yaml": head + "topology_template:\n  node_templates: [1, 2\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:3:19"},
		{"bad indentation", files{"t.yaml": node + "     b: y\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:"},
		{"tab indentation", files{"t.yaml": head + "topology_template:\n\tnode_templates: {}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:3:1"},
		{"truncated", files{"t.yaml": good[:len(good)-20]}, "resolve --template t.yaml --output out.yaml", "t.yaml:"},
		{"truncated quote", files{"t.yaml": node + "      description: \"abc"}, "resolve --template t.yaml --output out.yaml", "t.yaml:"},
		{"binary garbage", files{"t.yaml": garbage(4096, 1)}, "resolve --template t.yaml --output out.yaml", "t.yaml:1:"},
		{"NUL byte", files{"t.yaml": head + "a: b\x00c\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:2:5"},
		{"empty file", files{"t.yaml": ""}, "resolve --template t.yaml --output out.yaml", "t.yaml:1:1"},
		{"no version", files{"t.yaml": "topology_template: {}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:1:1"},
		{"duplicate key", files{"t.yaml": node + "    a: {type: tosca.nodes.Root}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:5"},
		// resolve: kinds and references
		{"topology as a number", files{"t.yaml": head + "topology_template: 5\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:2:20"},
		{"node templates as a string", files{"t.yaml": head + "topology_template:\n  node_templates: hello\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:3:19"},
		{"condition as a number", files{"t.yaml": node + "      conditions: 42\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:5:7"},
		{"unknown target", files{"t.yaml": node + "      requirements:\n        - dependency: nowhere\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:7:23"},
		{"unknown input", files{"t.yaml": node + "      conditions: {get_variability_input: nothere}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:19"},
		{"unknown node", files{"t.yaml": node + "      conditions: {node_presence: ghost}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:5:7"},
		{"unknown operator", files{"t.yaml": node + "      conditions: {frobnicate: [1]}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:19"},
		{"unknown preset", files{"t.yaml": good}, "resolve --template t.yaml --preset nothere --output out.yaml", ""},
		{"missing template", files{}, "resolve --template nothere.yaml --output out.yaml", ""},
		// resolve: limits
		{"alias bomb", files{"t.yaml": bomb(head)}, "resolve --template t.yaml --output out.yaml", "t.yaml:"},
		{"deep flow nesting", files{"t.yaml": head + "x: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:2:"},
		{"deep block nesting", files{"t.yaml": deepBlock(head, 1100)}, "resolve --template t.yaml --output out.yaml", "t.yaml:"},
		{"deep expression", files{"t.yaml": node + "      conditions: " + strings.Repeat("{not: ", 10000) + "true" + strings.Repeat("}", 10000) + "\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:"},
		{"huge weight", files{"t.yaml": node + "      weight: 1" + strings.Repeat("0", 400) + "\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:15"},
		{"huge float", files{"t.yaml": node + "      conditions: {greater: [1e999999, 2]}\n"}, "resolve --template t.yaml --output out.yaml", "t.yaml:6:30"},
		// resolve: imports
		{"import cycle", files{"t.yaml": head + "imports: [b.yaml]\n", "b.yaml": head + "imports: [t.yaml]\n"}, "resolve --template t.yaml --output out.yaml", "b.yaml:2:11"},
		{"import escaping", files{"sub/t.yaml": head + "imports: [../../etc/passwd]\n"}, "resolve --template sub/t.yaml --output out.yaml", "sub/t.yaml:2:11"},
		{"broken import", files{"t.yaml": head + "imports: [b.yaml]\n", "b.yaml": "a: [1\n"}, "resolve --template t.yaml --output out.yaml", "b.yaml:1:4"},
		// resolve: inputs
		{"inputs broken", files{"t.yaml": good, "i.yaml": "large: [\n"}, "resolve --template t.yaml --inputs i.yaml --output out.yaml", "i.yaml:"},
		{"inputs a list", files{"t.yaml": good, "i.yaml": "- large\n"}, "resolve --template t.yaml --inputs i.yaml --output out.yaml", "i.yaml:1:1"},
		{"FeatureIDE broken XML", files{"t.yaml": good, "i.xml": "<?xml version=\"1.0\"?>\n<extendedConfiguration>\n  <feature name=\"large\" manual=\"selected\"\n</extendedConfiguration>\n"}, "resolve --template t.yaml --inputs i.xml --output out.yaml", "i.xml:4:1"},
		{"FeatureIDE garbage", files{"t.yaml": good, "i.xml": garbage(300, 4)}, "resolve --template t.yaml --inputs i.xml --output out.yaml", "i.xml:1:"},
		// other template commands
		{"validate broken YAML", files{"t.yaml": head + "a: [1\n"}, "validate t.yaml", "t.yaml:2:4"},
		{"validate import cycle", files{"t.yaml": head + "imports: [b.yaml]\n", "b.yaml": head + "imports: [t.yaml]\n"}, "validate t.yaml", "b.yaml:2:11"},
		{"validate garbage", files{"t.yaml": garbage(512, 2)}, "validate t.yaml", "t.yaml:1:"},
		{"enumerate alias bomb", files{"t.yaml": bomb(head)}, "enumerate --template t.yaml --output-dir out", "t.yaml:"},
		{"enumerate deep", files{"t.yaml": head + "x: " + strings.Repeat("{a: ", 5000) + "1" + strings.Repeat("}", 5000) + "\n"}, "enumerate --template t.yaml --output-dir out", "t.yaml:2:"},
		{"graph wrong kind", files{"t.yaml": head + "topology_template:\n  node_templates: hello\n"}, "graph --template t.yaml --output out.dot", "t.yaml:3:19"},
		{"compare broken YAML", files{"t.yaml": head + "a: [1\n"}, "compare --template t.yaml --output out.txt", "t.yaml:2:4"},
		{"batch broken space", files{"s.yaml": "templates: [t.yaml\n"}, "batch s.yaml --out out --output out.txt", "s.yaml:1:"},
		{"batch wrong kind", files{"s.yaml": "templates: 5\n"}, "batch s.yaml --out out --output out.txt", "s.yaml:1:12"},
		{"batch missing template", files{"s.yaml": "templates: [nothere.yaml]\n"}, "batch s.yaml --out out --output out.txt", "s.yaml:1:13"},
		// complete
		{"complete zip slip", files{"a.csar": zipOf(t, map[string]string{"TOSCA-Metadata/TOSCA.meta": meta, "app.yaml": tk, "../../evil.txt": "x"}), "c.json": string(catalog)}, "complete a.csar --catalog c.json --output out.csar", ""},
		{"complete zip bomb", files{"a.csar": zipOf(t, map[string]string{"TOSCA-Metadata/TOSCA.meta": meta, "app.yaml": tk, "big.bin": strings.Repeat("\x00", 65<<20)}), "c.json": string(catalog)}, "complete a.csar --catalog c.json --output out.csar", ""},
		{"complete too many entries", files{"a.csar": manyEntries(t, meta, tk, 10001), "c.json": string(catalog)}, "complete a.csar --catalog c.json --output out.csar", ""},
		{"complete truncated CSAR", files{"a.csar": zipOf(t, map[string]string{"TOSCA-Metadata/TOSCA.meta": meta, "app.yaml": tk})[:300], "c.json": string(catalog)}, "complete a.csar --catalog c.json --output out.csar", ""},
		{"complete broken YAML", files{"a.yaml": tk + "  x: [1\n", "c.json": string(catalog)}, "complete a.yaml --catalog c.json --output out.yaml", "a.yaml:"},
		{"complete alias bomb", files{"a.yaml": bomb(tk), "c.json": string(catalog)}, "complete a.yaml --catalog c.json --output out.yaml", "a.yaml:"},
		{"complete broken catalog", files{"a.yaml": tk, "c.json": `{"images": [`}, "complete a.yaml --catalog c.json --output out.yaml", "c.json:1:12"},
		// sd
		{"sd trailing comma", files{"full.yaml": sdFull, "d.json": `{"version": 2.1, "type": "solutionDeploy", "applications": [],}`}, "sd merge full.yaml d.json --output out.yaml", "(at d.json:1:"},
		{"sd truncated", files{"full.yaml": sdFull, "d.json": `{"version": 2.1, "applications": [{"version": "a:1"`}, "sd merge full.yaml d.json --output out.yaml", "(at d.json:1:"},
		{"sd wrong kind", files{"full.yaml": sdFull, "d.json": `{"version": 2.1, "type": "solutionDeploy", "applications": "x"}`}, "sd merge full.yaml d.json --output out.yaml", "(at d.json:1:"},
		{"sd garbage", files{"full.yaml": sdFull, "d.json": garbage(512, 3)}, "sd merge full.yaml d.json --output out.yaml", "(at d.json:1:"},
		{"sd deep", files{"full.yaml": sdFull, "d.json": `{"version": 2.1, "type": "solutionDeploy", "applications": [{"version": "a:1", "x": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}]}`}, "sd merge full.yaml d.json --output out.yaml", "(at d.json:1:"},
		{"sd alias bomb", files{"full.yaml": bomb(sdFull), "d.json": `{"version": 2.1, "type": "solutionDeploy", "applications": []}`}, "sd merge full.yaml d.json --output out.yaml", "(at full.yaml:"},
		{"sd invalid --sd-data", files{"env/Inventory/.keep": ""}, `sd --env-dir env --source-type json --sd-data {"applications":[`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkMalformed(t, tc.files, nil, tc.args, tc.pos)
		})
	}
}

// TestMalformedTrees feeds the subcommands template trees that symbolic
// links, named pipes or devices make hostile: links that take an import
// or a side file out of the template's tree (README, "Limits"), a pipe
// where a side file belongs, a CSAR with a link among its entries, and
// wrong kinds where the loader reads plugins. The rules are those of
// TestMalformedInputs. A link target "|fifo" makes a named pipe; a case
// is skipped where links or pipes cannot be made.
func TestMalformedTrees(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\n"
	const node = "topology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.Root\n"
	const types = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Secret: {derived_from: tosca.nodes.Root}\n"
	const tk = "tosca_definitions_version: tosca_simple_yaml_1_0\nimports:\n  - x.yaml\n" +
		"  - tosker: https://di-unipi-socc.github.io/tosker-types/1.0.0/tosker.yaml\n" +
		"topology_template:\n  node_templates:\n    app:\n      type: tosker.nodes.Software\n"
	const meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: app.yaml\n"
	catalog, err := os.ReadFile(filepath.Join("..", "..", "testdata", "complete", "catalog.json"))
	require.NoError(t, err)
	type files map[string]string
	tests := []struct {
		name  string
		files files
		links map[string]string // link name → target, as written
		args  string
		pos   string
	}{
		{"import through a link", files{"t/t.yaml": head + "imports: [x.yaml]\n" + node, "o/x.yaml": types},
			map[string]string{"t/x.yaml": "../o/x.yaml"}, "resolve --template t/t.yaml --output out.yaml", "t/t.yaml:2:11"},
		{"import through a linked directory", files{"t/t.yaml": head + "imports: [d/x.yaml]\n" + node, "o/x.yaml": types},
			map[string]string{"t/d": "../o"}, "resolve --template t/t.yaml --output out.yaml", "t/t.yaml:2:11"},
		{"side file through a link", files{"t/t.yaml": head + node, "o/tsc.yaml": "node_types: {}\n"},
			map[string]string{"t/type-specific-conditions.yaml": "../o/tsc.yaml"}, "resolve --template t/t.yaml --output out.yaml", "t/type-specific-conditions.yaml:1:1"},
		{"lib file through a link", files{"t/t.yaml": head + node, "o/x.yaml": types},
			map[string]string{"t/lib/x.yaml": "../../o/x.yaml"}, "resolve --template t/t.yaml --output out.yaml", "t/lib/x.yaml:1:1"},
		{"validate import through a link", files{"t/t.yaml": head + "imports: [x.yaml]\n", "o/x.yaml": types},
			map[string]string{"t/x.yaml": "../o/x.yaml"}, "validate t/t.yaml", "t/t.yaml:2:11"},
		{"validate lib file through a link", files{"t/t.yaml": head + node, "o/x.yaml": types},
			map[string]string{"t/lib/x.yaml": "../../o/x.yaml"}, "validate t/t.yaml", "t/lib/x.yaml:1:1"},
		{"import of itself through a link", files{"t.yaml": head + "imports: [me.yaml]\n" + node},
			map[string]string{"me.yaml": "t.yaml"}, "resolve --template t.yaml --output out.yaml", "t.yaml:2:11"},
		{"complete import through a link", files{"t/a.yaml": tk, "o/x.yaml": "node_types: {}\n", "c.json": string(catalog)},
			map[string]string{"t/x.yaml": "../o/x.yaml"}, "complete t/a.yaml --catalog c.json --output out.yaml", "t/a.yaml:3:5"},
		{"complete CSAR with a link", files{"a.csar": zipWithLink(t, map[string]string{"TOSCA-Metadata/TOSCA.meta": meta, "app.yaml": tk}, "x.yaml", "/etc/passwd"), "c.json": string(catalog)},
			nil, "complete a.csar --catalog c.json --output out.csar", ""},
		{"side file a named pipe", files{"t.yaml": head + node},
			map[string]string{"type-specific-conditions.yaml": "|fifo"}, "resolve --template t.yaml --output out.yaml", ""},
		{"validate import a named pipe", files{"t.yaml": head + "imports: [p.yaml]\n"},
			map[string]string{"p.yaml": "|fifo"}, "validate t.yaml", "t.yaml:2:11"},
		{"plugins a number", files{"t.yaml": head + "topology_template:\n  variability:\n    plugins: 5\n"},
			nil, "resolve --template t.yaml --output out.yaml", "t.yaml:4:14"},
		{"plugins.technology a map", files{"t.yaml": head + "topology_template:\n  variability:\n    plugins: {technology: {}}\n"},
			nil, "resolve --template t.yaml --output out.yaml", "t.yaml:4:27"},
		{"plugins.technology a string", files{"t.yaml": head + "topology_template:\n  variability:\n    plugins: {technology: plugin.js}\n"},
			nil, "resolve --template t.yaml --output out.yaml", "t.yaml:4:27"},
		{"unknown preset", files{"t.yaml": head + "topology_template:\n  variability:\n    presets:\n      large: {}\n" + node[len("topology_template:\n"):]},
			nil, "resolve --template t.yaml --preset larg --output out.yaml", "t.yaml:5:7"},
		{"presets a list", files{"t.yaml": head + "topology_template:\n  variability:\n    presets: [large]\n" + node[len("topology_template:\n"):]},
			nil, "resolve --template t.yaml --preset large --output out.yaml", "t.yaml:4:14"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkMalformed(t, tc.files, tc.links, tc.args, tc.pos)
		})
	}
}

// checkMalformed makes the files and links in a fresh directory, runs
// v4t with args there and checks the rules of TestMalformedInputs: exit
// status 1 within 10 s, one line "error: ..." on standard error that
// starts with the position pos (none is required where pos is empty),
// besides any positioned "warning: " lines, no stack trace, and no file
// left behind.
func checkMalformed(t *testing.T, files map[string]string, links map[string]string, args, pos string) {
	t.Helper()
	posRE := regexp.MustCompile(`^\S+:\d+:\d+$`)
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if target == "|fifo" {
			if err := exec.Command("mkfifo", p).Run(); err != nil {
				t.Skipf("cannot make a named pipe here: %v", err)
			}
			continue
		}
		if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	before := listTree(t, dir)
	t.Chdir(dir)
	words, err := splitWords(args)
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(words, strings.NewReader(""), &stdout, &stderr)
	elapsed := time.Since(start)

	require.Equal(t, 1, code, "exit status\nstderr:\n%s", stderr.String())
	require.Less(t, elapsed, 10*time.Second, "time")
	lines, warnings := splitWarnings(stderr.String())
	require.Len(t, lines, 1, "one line on standard error besides warnings, got:\n%s", stderr.String())
	for _, w := range warnings {
		require.Regexp(t, `^warning: \S+:\d+:\d+: \S`, w, "a warning names file:line:col")
	}
	line := lines[0]
	require.True(t, strings.HasPrefix(line, "error: "), "the line starts with error: %q", line)
	require.NotContains(t, stderr.String()+stdout.String(), "goroutine ", "no stack trace")
	require.NotContains(t, line, "internal error", "not an internal error")
	if at, ok := strings.CutPrefix(pos, "(at "); ok {
		require.Regexp(t, `^error: .+ \(at `+regexp.QuoteMeta(at)+`\d+(:\d+)?\)$`, line, "position at the end")
	} else if pos != "" {
		rest := strings.TrimPrefix(line, "error: ")
		require.True(t, strings.HasPrefix(rest, pos), "position %s in %q", pos, line)
		// file:line:col, then the message.
		parts := strings.SplitN(rest, ": ", 2)
		require.Len(t, parts, 2, "a message after the position in %q", line)
		require.Regexp(t, posRE, parts[0], "file:line:col in %q", line)
		require.NotEmpty(t, strings.TrimSpace(parts[1]), "a message in %q", line)
	}
	require.Equal(t, before, listTree(t, dir), "no file written")
}

// splitWarnings splits standard error into its lines, leaving out the
// "warning: " lines about malformed input that v4t accepts as the
// reference does (README, "Malformed input"), which it returns apart:
// such input may come before the problem that fails the run.
func splitWarnings(stderr string) (lines, warnings []string) {
	for l := range strings.SplitSeq(strings.TrimSuffix(stderr, "\n"), "\n") {
		if strings.HasPrefix(l, "warning: ") {
			warnings = append(warnings, l)
		} else {
			lines = append(lines, l)
		}
	}
	return lines, warnings
}

// zipWithLink builds a zip archive of the given entries, in name order,
// and a symbolic link entry name → target.
func zipWithLink(t *testing.T, entries map[string]string, name, target string) string {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		require.NoError(t, err)
		_, err = w.Write([]byte(entries[n]))
		require.NoError(t, err)
	}
	h := &zip.FileHeader{Name: name, Method: zip.Store}
	h.SetMode(os.ModeSymlink | 0o777)
	w, err := zw.CreateHeader(h)
	require.NoError(t, err)
	_, err = w.Write([]byte(target))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.String()
}

// zipOf builds a zip archive of the given entries, in name order.
func zipOf(t *testing.T, entries map[string]string) string {
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate})
		require.NoError(t, err)
		_, err = w.Write([]byte(entries[n]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.String()
}

// manyEntries builds a CSAR with n empty entries besides its definitions.
func manyEntries(t *testing.T, meta, def string, n int) string {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string]string{"TOSCA-Metadata/TOSCA.meta": meta, "app.yaml": def} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write([]byte(data))
		require.NoError(t, err)
	}
	for i := range n {
		_, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f/%d", i), Method: zip.Store})
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.String()
}
