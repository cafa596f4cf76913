package sd

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
)

func TestMergeFiles(t *testing.T) {
	dir := writeCase(t, map[string]string{
		"sd.yml":                        "version: 2.1\napplications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: b:1, deployPostfix: ns}\n",
		"d1.yaml":                       "applications:\n  - {version: a:2, deployPostfix: ns}\n",
		"d2.json":                       `[{"applications": [{"version": "c:1", "deployPostfix": "ns"}]}, {"applications": [{"version": "b:1", "deployPostfix": "ns"}]}]`,
		"bad.json":                      `{"applications": [], "applications": []}`,
		"list.yaml":                     "- applications: []\n- 5\n",
		"empty.yaml":                    "",
		"dup.yaml":                      "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: a:1, deployPostfix: ns}\n",
		"graph.yaml":                    "version: 2.1\napplications:\n  - {version: d:1, deployPostfix: ns}\ndeployGraph: [{chunkName: w, apps: ['d:ns']}]\n",
		"Namespaces/core/namespace.yml": "name: env-core\n",
		"marked.yaml":                   "applications:\n  - {version: e:1, deployPostfix: env-core}\nuserData: {useDeployPostfixAsNamespace: true}\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name        string
		full        string
		deltas      []string
		opts        MergeOptions
		want, delta string
		warnings    []string
		wantErr     string
	}{
		{name: "basic-merge of three SDs in two files", full: p("sd.yml"), deltas: []string{p("d1.yaml"), p("d2.json")},
			want:  "applications:\n  - version: a:2\n    deployPostfix: ns\n  - version: b:1\n    deployPostfix: ns\n  - version: c:1\n    deployPostfix: ns\n",
			delta: "applications:\n  - version: a:2\n    deployPostfix: ns\n  - version: c:1\n    deployPostfix: ns\n  - version: b:1\n    deployPostfix: ns\n"},
		{name: "exclusion", full: p("sd.yml"), deltas: []string{p("d2.json")}, opts: MergeOptions{Mode: BasicExclusionMerge},
			want:  "applications:\n  - version: a:1\n    deployPostfix: ns\n  - version: b:1\n    deployPostfix: ns\n",
			delta: "applications:\n  - version: c:1\n    deployPostfix: ns\n",
			warnings: []string{
				"SD[1]: New application 'b:1' with deployPostfix 'ns' ignored (not present in Full SD)",
				"New application 'c:1' with deployPostfix 'ns' ignored (not present in Full SD)",
			}},
		{name: "replace does not read the Full SD", full: p("bad.json"), deltas: []string{p("d1.yaml")}, opts: MergeOptions{Mode: Replace},
			want: "applications:\n  - version: a:2\n    deployPostfix: ns\n"},
		{name: "a missing Full SD is a first write", full: p("none.yml"), deltas: []string{p("graph.yaml")}, opts: MergeOptions{Mode: ExtendedMerge},
			want: "version: 2.1\napplications:\n  - version: d:1\n    deployPostfix: ns\ndeployGraph:\n  - chunkName: w\n    apps:\n      - d:ns\n"},
		{name: "an empty Full SD is a first write", full: p("empty.yaml"), deltas: []string{p("d1.yaml")},
			want:     "applications:\n  - version: a:2\n    deployPostfix: ns\n",
			warnings: []string{"Full SD (" + p("empty.yaml") + ") is empty; it is treated as absent"}},
		{name: "namespaces", full: p("none.yml"), deltas: []string{p("marked.yaml")}, opts: MergeOptions{Namespaces: p("Namespaces")},
			want: "applications:\n  - version: e:1\n    deployPostfix: core\n"},
		{name: "marked SDs are kept without namespaces", full: p("none.yml"), deltas: []string{p("marked.yaml")}, opts: MergeOptions{Mode: ExtendedMerge},
			want: "applications:\n  - version: e:1\n    deployPostfix: env-core\nuserData:\n  useDeployPostfixAsNamespace: true\n"},
		{name: "duplicate in the Full SD", full: p("dup.yaml"), deltas: []string{p("d1.yaml")},
			wantErr: "Duplicate applications detected in the existing Full SD (" + p("dup.yaml") + "):\n  - 'a:1' with deployPostfix 'ns' appears 2 time(s)\n" +
				"Each application must be uniquely identified by its name, version, and deployPostfix.\nRemove the duplicate entries and re-run the pipeline."},
		{name: "extended error", full: p("sd.yml"), deltas: []string{p("graph.yaml")}, opts: MergeOptions{Mode: ExtendedMerge},
			wantErr: "SD merge error:\nDelta SD contains deployGraph, but Full SD doesn't contain deployGraph.\nSD Merge is impossible."},
		{name: "not JSON", full: p("sd.yml"), deltas: []string{p("bad.json")}, wantErr: `duplicate key "applications"`},
		{name: "not SDs", full: p("sd.yml"), deltas: []string{p("list.yaml")}, wantErr: p("list.yaml") + ": expected an SD (a mapping) as item 1, found a number"},
		{name: "nothing", full: p("sd.yml"), deltas: []string{p("empty.yaml")}, wantErr: p("empty.yaml") + ": expected an SD (a mapping) or a non-empty list of SDs, found nothing"},
		{name: "missing delta", full: p("sd.yml"), deltas: []string{p("none.yaml")}, wantErr: p("none.yaml") + ": cannot read: no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warnings []string
			tc.opts.Warn = func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) }
			res, err := MergeFiles(context.Background(), tc.full, tc.deltas, tc.opts)
			require.Equal(t, tc.warnings, warnings, "warnings of %s", tc.name)
			if !wantResult(t, err, tc.wantErr, "merge %s", tc.name) {
				return
			}
			require.Equal(t, tc.want, string(res.Full), "Full SD of %s", tc.name)
			if tc.delta == "" {
				require.Nil(t, res.Delta, "Delta SD of %s", tc.name)
			} else {
				require.Equal(t, tc.delta, string(res.Delta), "Delta SD of %s", tc.name)
			}
		})
	}
}

// FuzzMergeFiles: the standalone merge never panics on any pair of YAML
// documents and gives a diagnostic when it refuses them.
func FuzzMergeFiles(f *testing.F) {
	for _, s := range fuzzSDSeeds {
		f.Add(s.full, s.data, uint8(2))
	}
	f.Fuzz(func(t *testing.T, full, delta string, modeIndex uint8) {
		dir := t.TempDir()
		fp, dp := filepath.Join(dir, "sd.yml"), filepath.Join(dir, "delta.yaml")
		require.NoError(t, os.WriteFile(fp, []byte(full), 0o644))
		require.NoError(t, os.WriteFile(dp, []byte(delta), 0o644))
		res, err := MergeFiles(context.Background(), fp, []string{dp}, MergeOptions{Mode: fuzzModes[int(modeIndex)%len(fuzzModes)]})
		if err != nil {
			d := testkit.Diagnostic(t, err, "error %v is not a diagnostic", err)
			require.NotEqual(t, "internal", d.Code, "internal error: %s\n%v", d.Message, d.Related)
			return
		}
		_, err = parseCore(res.Full, "out.yaml")
		require.NoError(t, err, "the result does not read back:\n%s", res.Full)
	})
}
