package suite_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve/suite"
)

// TestConformanceFormats runs the SD and TosKeriser corpora through the
// default runners, as `v4t test` does: every case goes to the runner of
// its corpus's format and passes.
func TestConformanceFormats(t *testing.T) {
	for _, format := range []string{"sd", "toskeriser"} {
		t.Run(format, func(t *testing.T) {
			cases := discover(t, testkit.Corpus(t, format))
			require.NotEmpty(t, cases)
			for _, c := range cases {
				assert.Equal(t, format, c.Runner.Format(), "runner of %s", c.Path)
			}
			passed, failed := suite.Counts(runPassing(t, cases))
			t.Logf("%d passed, %d failed", passed, failed)
		})
	}
}

// TestFailureReports checks that a failing case of the SD and TosKeriser
// formats is reported with its reason and a diff of the expected and
// actual files.
func TestFailureReports(t *testing.T) {
	tests := []struct {
		format string
		files  map[string]string
		reason string
		diff   []string // substrings of the diff
	}{
		{
			format: "sd",
			files: map[string]string{
				"cases/wrong/params.yaml":   "env:\n  SD_SOURCE_TYPE: json\n  SD_DATA: '{\"applications\": [{\"version\": \"a:1\", \"deployPostfix\": \"ns\"}]}'\n",
				"cases/wrong/expected.yaml": "applications:\n  - version: a:2\n    deployPostfix: ns\n",
			},
			reason: "Inventory/solution-descriptor/sd.yml differs from expected.yaml",
			diff:   []string{"-  - version: a:2\n+  - version: a:1\n"},
		},
		{
			format: "toskeriser",
			files: map[string]string{
				"catalogs/c.json": `{"software": ["node"], "images": []}`,
				"case/args.yaml":  "input: input.yaml\ncatalog: c.json\npolicy: null\nconstraints: null\nforce: false\ncomponents: [ghost]\n",
				"case/input.yaml": "tosca_definitions_version: tosca_simple_yaml_1_0\n",
				"case/errors.txt": "component \"other\" not founded\n",
			},
			reason: "the error messages differ",
			diff:   []string{`-component "other" not founded`, `+component "ghost" not founded`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteFiles(t, dir, tc.files)
			cases := discover(t, dir)
			require.Len(t, cases, 1)
			assert.Equal(t, tc.format, cases[0].Runner.Format())
			r := suite.Run(t.Context(), cases, suite.Options{})[0]
			assert.False(t, r.Pass)
			assert.Equal(t, tc.reason, r.Reason)
			for _, d := range tc.diff {
				assert.Contains(t, r.Diff, d)
			}
		})
	}
}
