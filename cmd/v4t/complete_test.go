package main

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestCompleteExample runs the worked example of the README and of
// `v4t complete --help` (testdata/complete) and compares its output and
// progress lines with the goldens next to it.
func TestCompleteExample(t *testing.T) {
	example := filepath.Join("..", "..", "testdata", "complete")
	abs, err := filepath.Abs(example)
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	stdout, stderr := runOK(t, "complete", filepath.Join(abs, "webshop.yaml"), "--catalog", filepath.Join(abs, "catalog.json"),
		"--output", "webshop.completed.yaml")
	require.Empty(t, stderr)
	out, err := os.ReadFile("webshop.completed.yaml")
	require.NoError(t, err)
	testkit.Golden(t, filepath.Join(abs, "webshop.completed.yaml"), out)
	testkit.Golden(t, filepath.Join(abs, "webshop.stdout.txt"), []byte(stdout))
	require.Contains(t, completeCommand().example, "testdata/complete/webshop.yaml --catalog testdata/complete/catalog.json",
		"the help's example is this one")
}

// TestCompleteCSAREscape checks that an archive whose entries try to
// escape is rejected with a clear one-line error, exit status 1, and that
// nothing is written anywhere.
func TestCompleteCSAREscape(t *testing.T) {
	root := t.TempDir()
	work := filepath.Join(root, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	catalog := `{"software": ["node"], "images": [{"name": "n:1", "size": 1, "pulls": 1, "stars": 1, "softwares": [{"software": "node", "ver": "6.1"}]}]}`
	require.NoError(t, os.WriteFile(filepath.Join(work, "cat.json"), []byte(catalog), 0o644))
	entry := testkit.ToskerHeader + "    a:\n      type: tosker.nodes.Software\n      requirements:\n      - host:\n"
	tests := []struct {
		name, evil, want string
	}{
		{"parent", "../escaped.sh", `error: evil.csar: archive entry "../escaped.sh" has a ".." component, which escapes the archive`},
		{"deep parent", "scripts/../../../escaped.sh", `error: evil.csar: archive entry "scripts/../../../escaped.sh" has a ".." component, which escapes the archive`},
		{"absolute", filepath.ToSlash(filepath.Join(root, "escaped.sh")), `is an absolute path, which escapes the archive`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			zw := zip.NewWriter(&b)
			for _, f := range [][2]string{{"TOSCA-Metadata/TOSCA.meta", "Entry-Definitions: app.yaml\n"}, {"app.yaml", entry}, {tc.evil, "#!/bin/sh\n"}} {
				w, err := zw.Create(f[0])
				require.NoError(t, err)
				_, err = w.Write([]byte(f[1]))
				require.NoError(t, err)
			}
			require.NoError(t, zw.Close())
			require.NoError(t, os.WriteFile(filepath.Join(work, "evil.csar"), b.Bytes(), 0o644))
			before := listTree(t, root)
			t.Chdir(work)
			code, stdout, stderr := runCLI("complete", "evil.csar", "--catalog", "cat.json")
			require.Equal(t, exitRejected, code)
			require.Contains(t, stderr, tc.want)
			require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			require.Empty(t, stdout)
			require.Equal(t, before, listTree(t, root), "nothing written")
		})
	}
}

// listTree lists every path under dir.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	require.NoError(t, filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		paths = append(paths, p)
		return err
	}))
	sort.Strings(paths)
	return paths
}

// TestConstraintsSwallow checks the reference's reading of --constraints:
// every following word up to the next option joins its value (completion.md
// §2.1), so a component after it is swallowed, and one after another
// option is not.
func TestConstraintsSwallow(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		value string
		rest  []string
	}{
		{"one word", []string{"f.yaml", "--constraints", "size<1GB"}, "size<1GB", []string{"f.yaml"}},
		{"words", []string{"f.yaml", "--constraints", "size<1GB", "pulls>10", "stars>1"}, "size<1GB pulls>10 stars>1", []string{"f.yaml"}},
		{"up to the next option", []string{"f.yaml", "--constraints", "size<1GB", "pulls>10", "-f", "app"}, "size<1GB pulls>10", []string{"f.yaml", "app"}},
		{"global flags count", []string{"f.yaml", "--constraints", "a", "b", "--debug", "app"}, "a b", []string{"f.yaml", "app"}},
		{"equals form", []string{"--constraints=size<1GB", "pulls>10", "--catalog", "c.json", "f.yaml", "app"}, "size<1GB pulls>10", []string{"f.yaml", "app"}},
		{"components first", []string{"f.yaml", "app", "--constraints", "size<1GB"}, "size<1GB", []string{"f.yaml", "app"}},
		{"dash dash", []string{"f.yaml", "--constraints", "a", "--", "app"}, "a", []string{"f.yaml", "app"}},
		{"not given", []string{"f.yaml", "app"}, "", []string{"f.yaml", "app"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var help bool
			fs, _ := completeCommand().flags(&globals{}, &help)
			require.NoError(t, fs.Parse(tc.args))
			f, ok := fs.Lookup("constraints").Value.(constraintsFlag)
			require.True(t, ok)
			rest := f.c.swallow(f.ev, fs.Args())
			require.Equal(t, tc.value, f.c.value, "args %q", tc.args)
			require.Equal(t, tc.rest, rest, "args %q", tc.args)
		})
	}
}

var cliTemplate = testkit.ToskerHeader + testkit.HostFilterNode("web", "tosker.nodes.Software", "supported_sw: [{node: 6.x}]")

const cliImages = `[{"name": "node:6-alpine", "size": 50000000, "pulls": 1000, "stars": 50, "softwares": [{"software": "node", "ver": "6.11.1"}]},
 {"name": "node:6", "size": 600000000, "pulls": 9000, "stars": 40, "softwares": [{"software": "node", "ver": "6.11.2"}]}]`

// TestCompleteInteractive answers the prompt: a bad number, then 2. The
// table's lines are Python's '{:<3}{:<30}{:>15}{:>15}{:>15}'.format(...).
func TestCompleteInteractive(t *testing.T) {
	t.Chdir(t.TempDir())
	testkit.WriteFiles(t, ".", map[string]string{"app.yaml": cliTemplate, "cat.json": cliImages})
	code, stdout, stderr := runInput("7\n2\n", "complete", "app.yaml", "--catalog", "cat.json", "-i", "-q")
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	require.Equal(t, ""+
		"#  NAME                                     SIZE          PULLS          STARS\n"+
		"1  node:6-alpine                          50.0MB           1000             50\n"+
		"2  node:6                                600.0MB           9000             40\n"+
		"select an image number must be a number between 1 and 2\n"+
		"select an image number ", stdout)
	out, err := os.ReadFile("app.completed.yaml")
	require.NoError(t, err)
	require.Contains(t, string(out), "file: node:6\n")

	code, _, stderr = runCLI("complete", "app.yaml", "--catalog", "cat.json", "-i", "-o", "eof.yaml")
	require.Equal(t, exitRejected, code)
	require.Contains(t, stderr, "error: no image chosen: the input ended\n")
	require.NoFileExists(t, "eof.yaml")
}

// TestCompleteDockerFinder completes against a DockerFinder-compatible
// service, and maps its failures to the reference's messages.
func TestCompleteDockerFinder(t *testing.T) {
	t.Chdir(t.TempDir())
	testkit.WriteFiles(t, ".", map[string]string{"app.yaml": cliTemplate})
	var queries []string
	broken := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case broken:
			w.WriteHeader(http.StatusBadGateway)
		case r.URL.Path == "/api/software":
			_, _ = w.Write([]byte(`{"count": 1, "software": [{"name": "node"}]}`))
		case r.URL.Path == "/search":
			queries = append(queries, r.URL.RawQuery)
			_, _ = w.Write([]byte(`{"count": 2, "page": 1, "limit": 20, "pages": 1, "images": ` + cliImages + `}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	stdout, _ := runOK(t, "complete", "app.yaml", "--dockerfinder", srv.URL)
	require.Equal(t, []string{"size_gt=0&sort=stars&sort=pulls&sort=-size&node=6"}, queries)
	require.Equal(t, "founded 2 images for \"web\" node\n"+
		"complete node \"web\" with image \"node:6-alpine\" (50.00 MB, 1000 pulls, 50 stars)\n", stdout)

	broken = true
	code, _, stderr := runCLI("complete", "app.yaml", "--dockerfinder", srv.URL, "-o", "x.yaml")
	require.Equal(t, exitRejected, code)
	require.Equal(t, "error: Dockerfinder software service do not respond\n", stderr)
	require.NoFileExists(t, "x.yaml")
}
