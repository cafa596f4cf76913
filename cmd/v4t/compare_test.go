package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/resolve"
	"v4t/resolve/batch"
)

// TestCompareOutMatchesResolve runs compare --out DIR --format json on the
// examples and checks every mode: the file of a mode that resolved is,
// byte for byte, what v4t resolve writes with the same flags and --option
// NAME=VALUE for each of the mode's options; a mode that failed has no
// file (a stale one is removed) and v4t resolve fails too. Before the
// comparison, DIR holds a stale file for every mode.
func TestCompareOutMatchesResolve(t *testing.T) {
	withTestdata(t)
	for _, tc := range []struct {
		name string
		args []string // the flags that compare and resolve share
	}{
		{"compare example", []string{"--template", "testdata/compare/template.yaml"}},
		{"motivation, elastic", []string{"--template", "testdata/examples/motivation/variable-service-template.yaml", "--preset", "elastic", "--input", "premium=true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "modes")
			require.NoError(t, os.MkdirAll(out, 0o755))
			for _, m := range batch.Modes(true, true) {
				require.NoError(t, os.WriteFile(filepath.Join(out, batch.ModeFileName(m)), []byte("stale\n"), 0o644))
			}
			args := append([]string{"compare", "--out", out, "--format", "json", "-j", "2"}, tc.args...)
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "v4t %s: %s", strings.Join(args, " "), stderr.String())
			var got struct {
				Modes []struct {
					Mode    int
					Options map[string]any
					Own     bool
					Status  string
					File    string
				}
			}
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
			require.Len(t, got.Modes, 18)
			ok, failed, own := 0, 0, 0
			var files []string
			for _, m := range got.Modes {
				// The flags, then the mode's options in their order.
				rargs := append([]string{"resolve"}, tc.args...)
				for _, a := range batch.Modes(true, true)[m.Mode-1] {
					rargs = append(rargs, "--option", a.Name+"="+resolve.Flow(a.Value))
				}
				want := filepath.Join(t.TempDir(), "resolved.yaml")
				rargs = append(rargs, "--output", want)
				code, _, rerr := runCLI(rargs...)
				file := filepath.Join(out, batch.ModeFileName(batch.Modes(true, true)[m.Mode-1]))
				name := filepath.Base(file) + ": v4t " + strings.Join(rargs, " ")
				if m.Own {
					own++
				}
				if m.Status != "ok" {
					failed++
					assert.NotEqual(t, exitOK, code, "%s resolves, but the mode failed", name)
					assert.NoFileExists(t, file, "%s: the mode failed", name)
					assert.Empty(t, m.File, name)
					continue
				}
				ok++
				require.Equal(t, exitOK, code, "%s: %s", name, rerr)
				assert.Equal(t, file, m.File, name)
				wantData, err := os.ReadFile(want)
				require.NoError(t, err, name)
				gotData, err := os.ReadFile(file)
				require.NoError(t, err, name)
				assert.Equal(t, string(wantData), string(gotData), "%s: the file of the mode", name)
				files = append(files, filepath.Base(file))
			}
			assert.NotZero(t, ok, "some modes resolve")
			assert.NotZero(t, failed, "some modes fail")
			assert.Equal(t, 1, own, "one mode is the template's own")
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			sort.Strings(files)
			assert.Equal(t, files, names, "DIR holds the files of the modes that resolved, and nothing else")
		})
	}
}

// TestCompareReadme runs the "$ " sessions of the README's v4t compare
// section, with their output.
func TestCompareReadme(t *testing.T) {
	blocks := readmeBlocks(t, "### `v4t compare`")
	withTestdata(t)
	sessions := 0
	for _, b := range blocks {
		if len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "$ ") {
			sessions++
			runSession(t, b.lines)
		}
	}
	assert.Equal(t, 2, sessions, "the README's v4t compare sessions")
}
