package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/resolve/sd"
)

// TestSDEnvironment runs v4t sd with the pipeline's environment variables
// (the CLI scripts cannot set them): the environment directory from
// CI_PROJECT_DIR, CLUSTER_NAME and ENVIRONMENT_NAME or FULL_ENV_NAME, the
// parameters from SD_* variables, and flags that replace them.
func TestSDEnvironment(t *testing.T) {
	data := `{"applications":[{"version":"postgres:1.33.0","deployPostfix":"postgresql"}]}`
	tests := []struct {
		name     string
		vars     map[string]string
		args     []string
		code     int
		stdout   string
		stderr   string
		fullFile string
		full     string
	}{
		{
			name: "cluster and environment names",
			vars: map[string]string{"CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01", "SD_SOURCE_TYPE": "json", "SD_DATA": data},
			code: exitOK, stdout: "wrote Inventory/solution-descriptor/sd.yml\n",
			fullFile: "environments/cluster-01/env-01/Inventory/solution-descriptor/sd.yml",
			full:     "applications:\n  - version: postgres:1.33.0\n    deployPostfix: postgresql\n",
		},
		{
			name: "full environment name under CI_PROJECT_DIR",
			vars: map[string]string{"CI_PROJECT_DIR": "project", "FULL_ENV_NAME": "cluster-02/env-02", "SD_SOURCE_TYPE": "json", "SD_DATA_MULTIPLE": "[" + data + "]", "SD_MERGE_MODE": "extended-merge"},
			code: exitOK, stdout: "wrote Inventory/solution-descriptor/sd.yml\n",
			fullFile: "project/environments/cluster-02/env-02/Inventory/solution-descriptor/sd.yml",
			full:     "applications:\n  - version: postgres:1.33.0\n    deployPostfix: postgresql\n",
		},
		{
			name: "a flag replaces its variable",
			vars: map[string]string{"CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01", "SD_SOURCE_TYPE": "artifact", "SD_DATA": data, "SD_MERGE_MODE": "bogus"},
			args: []string{"--source-type", "json", "--merge-mode="},
			code: exitOK, stdout: "wrote Inventory/solution-descriptor/sd.yml\n",
		},
		{
			name:   "no environment directory",
			vars:   map[string]string{"CLUSTER_NAME": "cluster-01", "SD_SOURCE_TYPE": "json", "SD_DATA": data},
			code:   exitRejected,
			stderr: "error: The environment directory is not set: use --env-dir, or set CLUSTER_NAME and ENVIRONMENT_NAME\n",
		},
		{
			name:   "an error names its variable",
			vars:   map[string]string{"CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01", "SD_MERGE_MODE": "extended"},
			code:   exitRejected,
			stderr: "error: Invalid SD_MERGE_MODE: 'extended'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace (at $SD_MERGE_MODE)\n",
		},
		{
			name:   "a flag's value is reported at the flag",
			vars:   map[string]string{"CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01", "SD_MERGE_MODE": "extended"},
			args:   []string{"--merge-mode", "nope"},
			code:   exitRejected,
			stderr: "error: Invalid SD_MERGE_MODE: 'nope'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace (at --merge-mode)\n",
		},
		{
			name:   "unknown flag",
			args:   []string{"--sd-data-multi", "x"},
			code:   exitUsage,
			stderr: "error: unknown flag: --sd-data-multi (did you mean --sd-data-multiple?)\nrun 'v4t sd --help' for usage\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, env := range []string{"environments/cluster-01/env-01", "project/environments/cluster-02/env-02"} {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.FromSlash(env)), 0o755))
			}
			t.Chdir(dir)
			for _, name := range sd.EnvVars() {
				t.Setenv(name, "")
				os.Unsetenv(name)
			}
			for k, v := range tc.vars {
				t.Setenv(k, v)
			}
			code, stdout, stderr := runCLI(append([]string{"sd"}, tc.args...)...)
			require.Equal(t, tc.code, code, "exit status; stderr:\n%s", stderr)
			require.Equal(t, tc.stdout, stdout, "stdout")
			require.Equal(t, tc.stderr, stderr, "stderr")
			if tc.fullFile != "" {
				got, err := os.ReadFile(filepath.FromSlash(tc.fullFile))
				require.NoError(t, err, "the Full SD")
				require.Equal(t, tc.full, string(got), "the Full SD")
			}
		})
	}
}

func TestSDHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"sd", "--help"}, strings.NewReader(""), &stdout, &stderr))
	for _, p := range sd.Params() {
		require.Contains(t, stdout.String(), "--"+p.Flag, "help lists --%s", p.Flag)
		if p.Var != "" {
			require.Contains(t, stdout.String(), p.Var, "help names %s", p.Var)
		}
	}
	require.Contains(t, stdout.String(), "v4t sd merge FULL DELTA...")
}
