package batch

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is part K of N of a space's runs (spaces.md §5): the runs whose
// 0-based index i in the space's canonical order has i mod N = K-1.
// Interleaving spreads the expensive corners of a cross product over the
// shards better than contiguous blocks would. The zero Shard is the whole
// space.
type Shard struct{ K, N int }

// String renders K/N, or "" for the whole space.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Has reports whether the run with 0-based index i belongs to the shard.
func (s Shard) Has(i int) bool { return s.N == 0 || i%s.N == s.K-1 }

// Select returns the part of the space that shard sh runs: the same ids,
// Total and Digest, and only the shard's runs, in order. The zero shard
// returns s itself.
func (s *Space) Select(sh Shard) *Space {
	if sh.N == 0 {
		return s
	}
	part := *s
	part.Shard = sh
	part.Runs = nil
	for i, r := range s.Runs {
		if sh.Has(i) {
			part.Runs = append(part.Runs, r)
		}
	}
	return &part
}

// The environment variables that --shard auto reads.
const (
	envK8sIndex    = "JOB_COMPLETION_INDEX" // Kubernetes Indexed Job, 0-based
	envShardCount  = "V4T_SHARD_COUNT"      // ours: the count, for Kubernetes
	envSlurmID     = "SLURM_ARRAY_TASK_ID"
	envSlurmCount  = "SLURM_ARRAY_TASK_COUNT"
	envSlurmMin    = "SLURM_ARRAY_TASK_MIN"
	envSlurmStep   = "SLURM_ARRAY_TASK_STEP"
	shardSpecUsage = "expected K/N (shard K of N, 1 <= K <= N), auto or auto/N"
)

// ParseShard reads the value of --shard: K/N, or auto (auto/N) to take the
// shard from the environment of a job engine, read through lookup (an
// empty value counts as unset):
//
//   - a Kubernetes Indexed Job sets JOB_COMPLETION_INDEX (0-based, so
//     K = index+1) but not the count: N comes from auto/N or from
//     V4T_SHARD_COUNT;
//   - a Slurm job array sets SLURM_ARRAY_TASK_ID, _MIN, _COUNT and _STEP:
//     K = (ID-MIN)/STEP+1 (STEP 1 when unset), N = COUNT.
//
// Every count given (auto/N, V4T_SHARD_COUNT, SLURM_ARRAY_TASK_COUNT) must
// agree. Errors are one line that names the flag value and the variable.
func ParseShard(spec string, lookup func(string) (string, bool)) (Shard, error) {
	bad := fmt.Errorf("--shard %q: %s", spec, shardSpecUsage)
	head, tail, slash := strings.Cut(spec, "/")
	if head == "auto" {
		n := 0
		if slash {
			v, ok := digits(tail)
			if !ok {
				return Shard{}, bad
			}
			if v < 1 {
				return Shard{}, fmt.Errorf("--shard %s: N must be at least 1", spec)
			}
			n = v
		}
		sh, err := autoShard(spec, n, lookup)
		if err != nil {
			return Shard{}, fmt.Errorf("--shard %s: %w", spec, err)
		}
		return sh, nil
	}
	k, ok1 := digits(head)
	n, ok2 := digits(tail)
	if !slash || !ok1 || !ok2 {
		return Shard{}, bad
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("--shard %s: N must be at least 1", spec)
	}
	if k < 1 || k > n {
		return Shard{}, fmt.Errorf("--shard %s: K must be from 1 to N (%d)", spec, n)
	}
	return Shard{K: k, N: n}, nil
}

// digits reads a non-negative decimal number without sign.
func digits(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// shardCount is one statement of the number of shards and where it comes
// from.
type shardCount struct {
	n    int
	from string
}

func autoShard(spec string, n int, lookup func(string) (string, bool)) (Shard, error) {
	get := func(name string) (string, bool) {
		if lookup == nil {
			return "", false
		}
		v, ok := lookup(name)
		return v, ok && v != ""
	}
	// number reads a variable: ok false when unset.
	number := func(name string, least int) (v int, ok bool, err error) {
		text, ok := get(name)
		if !ok {
			return 0, false, nil
		}
		v, good := digits(text)
		if !good || v < least {
			what := "a non-negative integer"
			if least > 0 {
				what = "a positive integer"
			}
			return 0, true, fmt.Errorf("%s=%q is not %s", name, text, what)
		}
		return v, true, nil
	}
	var counts []shardCount
	if n > 0 {
		counts = append(counts, shardCount{n, "--shard " + spec})
	}
	// agreed reads the shard counts of the variables names and returns
	// the count that every statement agrees on (0 without any) and where
	// it comes from.
	agreed := func(names ...string) (int, string, error) {
		for _, name := range names {
			v, ok, err := number(name, 1)
			if err != nil {
				return 0, "", err
			}
			if ok {
				counts = append(counts, shardCount{v, fmt.Sprintf("%s=%d", name, v)})
			}
		}
		if len(counts) == 0 {
			return 0, "", nil
		}
		for _, c := range counts[1:] {
			if c.n == counts[0].n {
				continue
			}
			if n > 0 {
				return 0, "", fmt.Errorf("%s says %d shards", c.from, c.n)
			}
			return 0, "", fmt.Errorf("%s says %d shards, %s says %d", counts[0].from, counts[0].n, c.from, c.n)
		}
		return counts[0].n, counts[0].from, nil
	}

	_, k8s := get(envK8sIndex)
	_, slurm := get(envSlurmID)
	switch {
	case k8s && slurm:
		return Shard{}, fmt.Errorf("both %s and %s are set: write --shard K/N", envK8sIndex, envSlurmID)
	case k8s:
		index, _, err := number(envK8sIndex, 0)
		if err != nil {
			return Shard{}, err
		}
		total, _, err := agreed(envShardCount)
		if err != nil {
			return Shard{}, err
		}
		if total == 0 {
			return Shard{}, fmt.Errorf("%s is set but not the shard count: write --shard auto/N (N: the Job's completions) or set %s", envK8sIndex, envShardCount)
		}
		if index >= total {
			return Shard{}, fmt.Errorf("%s=%d must be below the shard count %d", envK8sIndex, index, total)
		}
		return Shard{K: index + 1, N: total}, nil
	case slurm:
		id, _, err := number(envSlurmID, 0)
		if err != nil {
			return Shard{}, err
		}
		low, ok, err := number(envSlurmMin, 0)
		if err != nil {
			return Shard{}, err
		}
		if !ok {
			return Shard{}, fmt.Errorf("%s is set but not %s", envSlurmID, envSlurmMin)
		}
		step, ok, err := number(envSlurmStep, 1)
		if err != nil {
			return Shard{}, err
		}
		if !ok {
			step = 1
		}
		total, from, err := agreed(envShardCount, envSlurmCount)
		if err != nil {
			return Shard{}, err
		}
		if total == 0 {
			return Shard{}, fmt.Errorf("%s is set but not %s: write --shard auto/N", envSlurmID, envSlurmCount)
		}
		if id < low {
			return Shard{}, fmt.Errorf("%s=%d is below %s=%d", envSlurmID, id, envSlurmMin, low)
		}
		if (id-low)%step != 0 {
			return Shard{}, fmt.Errorf("%s=%d is not %s=%d plus a multiple of %s=%d", envSlurmID, id, envSlurmMin, low, envSlurmStep, step)
		}
		k := (id-low)/step + 1
		if k > total {
			hint := fmt.Sprintf("%d-%d", low, low+(total-1)*step)
			if step != 1 {
				hint += fmt.Sprintf(":%d", step)
			}
			return Shard{}, fmt.Errorf("%s=%d gives shard %d, beyond the %d of %s (use an --array range such as %s)", envSlurmID, id, k, total, from, hint)
		}
		return Shard{K: k, N: total}, nil
	}
	return Shard{}, fmt.Errorf("neither %s (Kubernetes Indexed Job) nor %s (Slurm job array) is set", envK8sIndex, envSlurmID)
}
