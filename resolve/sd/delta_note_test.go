package sd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// TestDeltaDefaultModeNote: SD_DELTA=true without a merge mode merges with
// basic-merge (sd-merge.md §3.3: SD_DELTA does not choose the mode) and
// says so through Options.Note, never as a warning (§13.2: the corpus case
// params-sd-delta-true-default-mode expects none). The files are those of
// the same run without SD_DELTA.
func TestDeltaDefaultModeNote(t *testing.T) {
	const data = `{"applications":[{"version":"a:2","deployPostfix":"ns"},{"version":"b:1","deployPostfix":"ns"}]}`
	const envNote = "SD_DELTA=true without SD_MERGE_MODE (or SD_REPO_MERGE_MODE, --merge-mode): merging with basic-merge; SD_DELTA does not choose the mode (in EnvGene, SD_DELTA=true meant extended-merge)"
	const flagNote = "--sd-delta true without SD_MERGE_MODE (or SD_REPO_MERGE_MODE, --merge-mode): merging with basic-merge; SD_DELTA does not choose the mode (in EnvGene, SD_DELTA=true meant extended-merge)"
	tests := []struct {
		name  string
		vars  map[string]string
		flags map[string]string
		notes []string
	}{
		{name: "SD_DELTA=true alone", vars: map[string]string{"SD_DELTA": " TRUE "}, notes: []string{envNote}},
		{name: "--sd-delta true alone", flags: map[string]string{"sd-delta": "true"}, notes: []string{flagNote}},
		{name: "an empty --merge-mode is no mode", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": "extended-merge"}, flags: map[string]string{"merge-mode": ""}, notes: []string{envNote}},
		{name: "blank mode variables are no mode", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": " ", "SD_REPO_MERGE_MODE": ""}, notes: []string{envNote}},
		{name: "no SD_DELTA", vars: map[string]string{}},
		{name: "SD_DELTA=true with SD_MERGE_MODE", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": "basic-merge"}},
		{name: "SD_DELTA=true with SD_REPO_MERGE_MODE", vars: map[string]string{"SD_DELTA": "true", "SD_REPO_MERGE_MODE": "basic-merge"}},
		{name: "SD_DELTA=true with --merge-mode", vars: map[string]string{"SD_DELTA": "true"}, flags: map[string]string{"merge-mode": "basic-merge"}},
	}
	full := map[string]string{"Inventory/solution-descriptor/sd.yml": fullSD}
	want := func(t *testing.T) map[string]string {
		env := newEnv(t, full)
		_, err := Run(context.Background(), envOf(map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}, map[string]string{"env-dir": env}), Options{})
		require.NoError(t, err, "the run without SD_DELTA")
		return readTree(t, env)
	}(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t, full)
			vars := map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}
			for k, v := range tc.vars {
				vars[k] = v
			}
			flags := map[string]string{"env-dir": env}
			for k, v := range tc.flags {
				flags[k] = v
			}
			var warnings, notes []string
			res, err := Run(context.Background(), envOf(vars, flags), Options{
				Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) },
				Note: func(d *diag.Diagnostic) { notes = append(notes, d.Message) },
			})
			require.NoError(t, err, "%s: vars %v flags %v", tc.name, tc.vars, tc.flags)
			assert.Empty(t, warnings, "%s: no warning", tc.name)
			assert.Equal(t, tc.notes, notes, "%s: notes", tc.name)
			assert.Equal(t, BasicMerge, res.Mode, "%s: mode", tc.name)
			assert.False(t, res.Overwrite, "%s: a merge", tc.name)
			assert.Equal(t, want, readTree(t, env), "%s: the same files as without SD_DELTA", tc.name)
		})
	}
}
