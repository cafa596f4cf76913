package batch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpaceListWidth: the ids of a list of spaces have the width of the
// whole list's run count, like those of one space with as many runs.
func TestSpaceListWidth(t *testing.T) {
	ten := "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
	src := "- templates: [t.yaml]\n  options: [{a: " + ten + ", b: " + ten + ", c: [1, 2, 3, 4, 5, 6]}]\n" +
		"- templates: [u.yaml]\n  options: [{a: " + ten + ", b: " + ten + ", c: [1, 2, 3, 4]}]\n"
	s, err := ParseSpace([]byte(src), "space.yaml")
	require.NoError(t, err)
	require.Len(t, s.Runs, 1000)
	require.Equal(t, 1000, s.Total)
	require.Equal(t, "run-0001", s.Runs[0].ID)
	require.Equal(t, "run-0601", s.Runs[600].ID)
	require.Equal(t, "u.yaml", s.Runs[600].Template)
	require.Equal(t, "run-1000", s.Runs[999].ID)
}

// TestShardPartition: for N = 1..7 the shards K/N of a space hold every
// run exactly once, run i (0-based) in shard i mod N + 1, in the space's
// order, with the ids of the whole space.
func TestShardPartition(t *testing.T) {
	s, err := ParseSpace([]byte("templates: [t.yaml]\ninputs: [{x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]}]\n"), "space.yaml")
	require.NoError(t, err)
	require.Len(t, s.Runs, 13)
	for n := 1; n <= 7; n++ {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			seen := map[string]int{}
			for k := 1; k <= n; k++ {
				part := s.Select(Shard{K: k, N: n})
				require.Equal(t, Shard{K: k, N: n}, part.Shard)
				require.Equal(t, 13, part.Total, "shard %d/%d keeps the space's run count", k, n)
				require.Equal(t, s.Digest, part.Digest, "shard %d/%d keeps the space's digest", k, n)
				require.Equal(t, (13-k)/n+1, len(part.Runs), "runs of shard %d/%d", k, n)
				last := -1
				for _, r := range part.Runs {
					i := index(t, s, r)
					require.Equal(t, k-1, i%n, "%s is in shard %d/%d", r.ID, k, n)
					require.Greater(t, i, last, "shard %d/%d keeps the order", k, n)
					last = i
					seen[r.ID]++
				}
			}
			require.Len(t, seen, 13, "every run is in a shard")
			for id, c := range seen {
				require.Equal(t, 1, c, "%s is in exactly one shard of %d", id, n)
			}
		})
	}
	var ids []string
	for _, r := range s.Select(Shard{K: 2, N: 5}).Runs {
		ids = append(ids, r.ID)
	}
	require.Equal(t, []string{"run-002", "run-007", "run-012"}, ids)
	require.Equal(t, s, s.Select(Shard{}), "the zero shard is the whole space")
}

func index(t *testing.T, s *Space, r *Run) int {
	for i, x := range s.Runs {
		if x == r {
			return i
		}
	}
	t.Fatalf("%s is not a run of the space", r.ID)
	return -1
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		env        map[string]string
		want       Shard
		err        string
	}{
		{name: "first", spec: "1/3", want: Shard{1, 3}},
		{name: "last", spec: "3/3", want: Shard{3, 3}},
		{name: "one of one", spec: "1/1", want: Shard{1, 1}},
		{name: "K zero", spec: "0/3", err: "--shard 0/3: K must be from 1 to N (3)"},
		{name: "K beyond N", spec: "4/3", err: "--shard 4/3: K must be from 1 to N (3)"},
		{name: "N zero", spec: "1/0", err: "--shard 1/0: N must be at least 1"},
		{name: "not numbers", spec: "x/y", err: `--shard "x/y": expected K/N (shard K of N, 1 <= K <= N), auto or auto/N`},
		{name: "K without N", spec: "2", err: `--shard "2": expected K/N (shard K of N, 1 <= K <= N), auto or auto/N`},
		{name: "signed", spec: "+1/3", err: `--shard "+1/3": expected K/N (shard K of N, 1 <= K <= N), auto or auto/N`},
		{name: "empty", spec: "", err: `--shard "": expected K/N (shard K of N, 1 <= K <= N), auto or auto/N`},
		{name: "auto/N bad N", spec: "auto/x", err: `--shard "auto/x": expected K/N (shard K of N, 1 <= K <= N), auto or auto/N`},

		{name: "no engine", spec: "auto", err: "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm job array) is set"},
		{name: "both engines", spec: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "SLURM_ARRAY_TASK_ID": "1"}, err: "--shard auto: both JOB_COMPLETION_INDEX and SLURM_ARRAY_TASK_ID are set: write --shard K/N"},

		{name: "kubernetes with auto/N", spec: "auto/3", env: map[string]string{"JOB_COMPLETION_INDEX": "0"}, want: Shard{1, 3}},
		{name: "kubernetes last index", spec: "auto/3", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, want: Shard{3, 3}},
		{name: "kubernetes with V4T_SHARD_COUNT", spec: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "1", "V4T_SHARD_COUNT": "4"}, want: Shard{2, 4}},
		{name: "kubernetes, both counts agree", spec: "auto/4", env: map[string]string{"JOB_COMPLETION_INDEX": "1", "V4T_SHARD_COUNT": "4"}, want: Shard{2, 4}},
		{name: "kubernetes without a count", spec: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, err: "--shard auto: JOB_COMPLETION_INDEX is set but not the shard count: write --shard auto/N (N: the Job's completions) or set V4T_SHARD_COUNT"},
		{name: "kubernetes, counts differ", spec: "auto/3", env: map[string]string{"JOB_COMPLETION_INDEX": "1", "V4T_SHARD_COUNT": "4"}, err: "--shard auto/3: V4T_SHARD_COUNT=4 says 4 shards"},
		{name: "kubernetes index too large", spec: "auto/3", env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, err: "--shard auto/3: JOB_COMPLETION_INDEX=3 must be below the shard count 3"},
		{name: "kubernetes index not a number", spec: "auto/3", env: map[string]string{"JOB_COMPLETION_INDEX": "one"}, err: `--shard auto/3: JOB_COMPLETION_INDEX="one" is not a non-negative integer`},
		{name: "bad V4T_SHARD_COUNT", spec: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "V4T_SHARD_COUNT": "0"}, err: `--shard auto: V4T_SHARD_COUNT="0" is not a positive integer`},

		{name: "slurm from 1", spec: "auto", env: slurm("1", "3", "1", ""), want: Shard{1, 3}},
		{name: "slurm at an offset", spec: "auto", env: slurm("7", "3", "5", ""), want: Shard{3, 3}},
		{name: "slurm from 0", spec: "auto", env: slurm("0", "3", "0", ""), want: Shard{1, 3}},
		{name: "slurm with a step", spec: "auto", env: slurm("9", "4", "3", "2"), want: Shard{4, 4}},
		{name: "slurm with step 1", spec: "auto", env: slurm("4", "4", "3", "1"), want: Shard{2, 4}},
		{name: "slurm with auto/N", spec: "auto/3", env: slurm("2", "3", "1", ""), want: Shard{2, 3}},
		{name: "slurm, auto/N differs", spec: "auto/4", env: slurm("2", "3", "1", ""), err: "--shard auto/4: SLURM_ARRAY_TASK_COUNT=3 says 3 shards"},
		{name: "slurm, V4T_SHARD_COUNT differs", spec: "auto", env: with(slurm("2", "3", "1", ""), "V4T_SHARD_COUNT", "2"), err: "--shard auto: V4T_SHARD_COUNT=2 says 2 shards, SLURM_ARRAY_TASK_COUNT=3 says 3"},
		{name: "slurm without MIN", spec: "auto", env: slurm("2", "3", "", ""), err: "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_MIN"},
		{name: "slurm without COUNT", spec: "auto", env: slurm("2", "", "1", ""), err: "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT: write --shard auto/N"},
		{name: "slurm without COUNT, auto/N", spec: "auto/3", env: slurm("2", "", "1", ""), want: Shard{2, 3}},
		{name: "slurm ID below MIN", spec: "auto", env: slurm("0", "3", "1", ""), err: "--shard auto: SLURM_ARRAY_TASK_ID=0 is below SLURM_ARRAY_TASK_MIN=1"},
		{name: "slurm ID beyond COUNT", spec: "auto", env: slurm("8", "3", "1", ""), err: "--shard auto: SLURM_ARRAY_TASK_ID=8 gives shard 8, beyond the 3 of SLURM_ARRAY_TASK_COUNT=3 (use an --array range such as 1-3)"},
		{name: "slurm ID off the step", spec: "auto", env: slurm("4", "3", "1", "2"), err: "--shard auto: SLURM_ARRAY_TASK_ID=4 is not SLURM_ARRAY_TASK_MIN=1 plus a multiple of SLURM_ARRAY_TASK_STEP=2"},
		{name: "slurm ID not a number", spec: "auto", env: slurm("x", "3", "1", ""), err: `--shard auto: SLURM_ARRAY_TASK_ID="x" is not a non-negative integer`},
		{name: "slurm bad COUNT", spec: "auto", env: slurm("1", "0", "1", ""), err: `--shard auto: SLURM_ARRAY_TASK_COUNT="0" is not a positive integer`},
		{name: "slurm bad MIN", spec: "auto", env: slurm("1", "3", "-1", ""), err: `--shard auto: SLURM_ARRAY_TASK_MIN="-1" is not a non-negative integer`},
		{name: "slurm bad STEP", spec: "auto", env: slurm("1", "3", "1", "0"), err: `--shard auto: SLURM_ARRAY_TASK_STEP="0" is not a positive integer`},
		{name: "K/N ignores the environment", spec: "2/3", env: slurm("1", "3", "1", ""), want: Shard{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(name string) (string, bool) {
				v, ok := tc.env[name]
				return v, ok
			}
			got, err := ParseShard(tc.spec, lookup)
			if tc.err != "" {
				require.Error(t, err, "spec %q, env %v", tc.spec, tc.env)
				require.Equal(t, tc.err, err.Error(), "spec %q, env %v", tc.spec, tc.env)
				require.NotContains(t, err.Error(), "\n")
				return
			}
			require.NoError(t, err, "spec %q, env %v", tc.spec, tc.env)
			require.Equal(t, tc.want, got, "spec %q, env %v", tc.spec, tc.env)
		})
	}
}

// slurm is the environment of a Slurm array task; "" leaves a variable out.
func slurm(id, count, min, step string) map[string]string {
	env := map[string]string{}
	for _, kv := range [][2]string{{"SLURM_ARRAY_TASK_ID", id}, {"SLURM_ARRAY_TASK_COUNT", count}, {"SLURM_ARRAY_TASK_MIN", min}, {"SLURM_ARRAY_TASK_STEP", step}} {
		if kv[1] != "" {
			env[kv[0]] = kv[1]
		}
	}
	return env
}

func with(env map[string]string, k, v string) map[string]string {
	env[k] = v
	return env
}

func TestShardString(t *testing.T) {
	require.Equal(t, "2/3", Shard{2, 3}.String())
	require.Equal(t, "", Shard{}.String())
	require.True(t, strings.HasPrefix(Shard{1, 1}.String(), "1/"))
}
