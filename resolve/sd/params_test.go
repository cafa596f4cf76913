package sd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// envOf returns an Input with the given variables and flags.
func envOf(vars map[string]string, flags map[string]string) Input {
	return Input{
		Getenv: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		Flags:  flags,
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    map[string]string
		wantErr string
	}{
		{args: nil, want: map[string]string{}},
		{args: []string{"--merge-mode", "replace", "--source-type=json"}, want: map[string]string{"merge-mode": "replace", "source-type": "json"}},
		{args: []string{"--sd-data", "{\"a\":1}", "--sd-data=", "--env-dir", "x"}, want: map[string]string{"sd-data": "", "env-dir": "x"}},
		{args: []string{"--sd-delta=a=b"}, want: map[string]string{"sd-delta": "a=b"}},
		{args: []string{"--mode", "x"}, wantErr: `unknown argument "--mode"`},
		{args: []string{"extra"}, wantErr: `unknown argument "extra"`},
		{args: []string{"--artifact-dir"}, wantErr: "flag needs an argument: --artifact-dir"},
	}
	for _, tc := range tests {
		got, err := ParseFlags(tc.args)
		if !wantResult(t, err, tc.wantErr, "args %q", tc.args) {
			continue
		}
		require.Equal(t, tc.want, got, "args %q", tc.args)
	}
}

func TestReadSettings(t *testing.T) {
	data := `{"applications":[]}`
	tests := []struct {
		name    string
		vars    map[string]string
		flags   map[string]string
		want    settings
		wantErr string
	}{
		{name: "defaults", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data},
			want: settings{mode: BasicMerge, input: "SD_DATA"}},
		{name: "mode from the EnvGene name", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data, "SD_REPO_MERGE_MODE": " Extended-Merge"},
			want: settings{mode: ExtendedMerge, input: "SD_DATA"}},
		{name: "replace overwrites", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA_MULTIPLE": data, "SD_MERGE_MODE": "replace"},
			want: settings{mode: Replace, overwrite: true, input: "SD_DATA_MULTIPLE"}},
		{name: "SD_DELTA false overwrites", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data, "SD_DELTA": " FALSE "},
			want: settings{mode: BasicMerge, overwrite: true, input: "SD_DATA"}},
		{name: "blank values are not given", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data, "SD_DELTA": "  ", "SD_MERGE_MODE": "", "SD_DATA_MULTIPLE": " \n"},
			want: settings{mode: BasicMerge, input: "SD_DATA"}},
		{name: "a flag replaces its variable", vars: map[string]string{"SD_SOURCE_TYPE": "artifact", "SD_MERGE_MODE": "bogus"},
			flags: map[string]string{"source-type": "JSON", "sd-data": data, "merge-mode": "basic-exclusion-merge"},
			want:  settings{mode: BasicExclusionMerge, input: "SD_DATA"}},
		{name: "an empty flag replaces its variable too", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data, "SD_MERGE_MODE": "bogus"},
			flags: map[string]string{"merge-mode": ""},
			want:  settings{mode: BasicMerge, input: "SD_DATA"}},
		{name: "artifact", vars: map[string]string{"SD_SOURCE_TYPE": "artifact", "SD_VERSION_MULTIPLE": "a:1", "SD_ARTIFACT_DIR": "dir", "SD_DATA": "ignored"},
			want: settings{mode: BasicMerge, artifact: true, input: "SD_VERSION_MULTIPLE"}},

		{name: "invalid mode", vars: map[string]string{"SD_MERGE_MODE": " Extended "},
			wantErr: "Invalid SD_MERGE_MODE: 'Extended'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace"},
		{name: "invalid repo mode", vars: map[string]string{"SD_REPO_MERGE_MODE": "merge"},
			wantErr: "Invalid SD_REPO_MERGE_MODE: 'merge'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace"},
		{name: "modes differ", vars: map[string]string{"SD_MERGE_MODE": "Replace", "SD_REPO_MERGE_MODE": "basic-merge"},
			wantErr: "SD_MERGE_MODE ('replace') and SD_REPO_MERGE_MODE ('basic-merge') differ; set only one of them"},
		{name: "invalid SD_DELTA before the source type", vars: map[string]string{"SD_DELTA": " maybe "},
			wantErr: "Invalid SD_DELTA: 'maybe'. Valid values are: true, false"},
		{name: "SD_DELTA=true with replace", vars: map[string]string{"SD_DELTA": "True", "SD_REPO_MERGE_MODE": "replace"},
			wantErr: "SD_DELTA=true conflicts with merge mode 'replace'"},
		{name: "no source type", vars: map[string]string{"SD_DATA": data},
			wantErr: `SD_SOURCE_TYPE must be set either to "artifact" or "json"`},
		{name: "unknown source type", vars: map[string]string{"SD_SOURCE_TYPE": "yaml"},
			wantErr: `SD_SOURCE_TYPE must be set either to "artifact" or "json"`},
		{name: "source type emptied by its flag", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}, flags: map[string]string{"source-type": ""},
			wantErr: `SD_SOURCE_TYPE must be set either to "artifact" or "json"`},
		{name: "artifact without version", vars: map[string]string{"SD_SOURCE_TYPE": "artifact", "SD_DATA": data},
			wantErr: "SD_SOURCE_TYPE is set to 'artifact', but neither SD_VERSION nor SD_VERSION_MULTIPLE was given"},
		{name: "both versions", vars: map[string]string{"SD_SOURCE_TYPE": "artifact", "SD_VERSION": "a:1", "SD_VERSION_MULTIPLE": "b:1"},
			wantErr: "Both SD_VERSION and SD_VERSION_MULTIPLE are set; use only one of them"},
		{name: "json without data", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_VERSION": "a:1"},
			wantErr: "SD_SOURCE_TYPE is set to 'json', but neither SD_DATA nor SD_DATA_MULTIPLE was given"},
		{name: "both data", vars: map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}, flags: map[string]string{"sd-data-multiple": data},
			wantErr: "Both SD_DATA and SD_DATA_MULTIPLE are set; use only one of them"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readSettings(envOf(tc.vars, tc.flags))
			if !wantResult(t, err, tc.wantErr, "settings of %v %v", tc.vars, tc.flags) {
				return
			}
			require.Equal(t, tc.want.mode, got.mode, "mode")
			require.Equal(t, tc.want.overwrite, got.overwrite, "overwrite")
			require.Equal(t, tc.want.artifact, got.artifact, "artifact")
			require.Equal(t, tc.want.input, got.input, "input parameter")
		})
	}
}

func TestEnvDirectory(t *testing.T) {
	root := t.TempDir()
	env := filepath.Join(root, "environments", "c1", "e1")
	require.NoError(t, os.MkdirAll(env, 0o755))
	tests := []struct {
		name    string
		vars    map[string]string
		flags   map[string]string
		want    string
		wantErr string
	}{
		{name: "flag", flags: map[string]string{"env-dir": env}, vars: map[string]string{"FULL_ENV_NAME": "x/y"}, want: env},
		{name: "full name", vars: map[string]string{"CI_PROJECT_DIR": root, "FULL_ENV_NAME": "c1/e1", "CLUSTER_NAME": "x"}, want: env},
		{name: "cluster and environment", vars: map[string]string{"CI_PROJECT_DIR": root, "CLUSTER_NAME": "c1", "ENVIRONMENT_NAME": "e1"}, want: env},
		{name: "not set", vars: map[string]string{"CI_PROJECT_DIR": root, "CLUSTER_NAME": "c1"},
			wantErr: "The environment directory is not set: use --env-dir, or set CLUSTER_NAME and ENVIRONMENT_NAME"},
		{name: "empty flag", flags: map[string]string{"env-dir": " "},
			wantErr: "The environment directory is not set: use --env-dir, or set CLUSTER_NAME and ENVIRONMENT_NAME"},
		{name: "missing", vars: map[string]string{"CI_PROJECT_DIR": root, "CLUSTER_NAME": "c1", "ENVIRONMENT_NAME": "e2"},
			wantErr: "The environment directory " + filepath.Join(root, "environments", "c1", "e2") + " does not exist"},
		{name: "current directory by default", vars: map[string]string{"FULL_ENV_NAME": "nowhere/env"},
			wantErr: "The environment directory " + filepath.Join("environments", "nowhere", "env") + " does not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := envDirectory(envOf(tc.vars, tc.flags), isDir)
			if !wantResult(t, err, tc.wantErr) {
				return
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func TestParamsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Params() {
		require.False(t, seen[p.Flag], "flag --%s listed twice", p.Flag)
		seen[p.Flag] = true
		require.NotEmpty(t, p.Usage, "usage of --%s", p.Flag)
	}
	// sd-merge.md §2's table.
	for _, f := range []string{"env-dir", "source-type", "sd-version", "sd-version-multiple", "sd-data", "sd-data-multiple", "sd-delta", "merge-mode", "repo-merge-mode", "artifact-dir"} {
		require.True(t, seen[f], "flag --%s", f)
	}
	require.Contains(t, EnvVars(), "SD_REPO_MERGE_MODE")
	require.Contains(t, EnvVars(), "CI_PROJECT_DIR")
}
