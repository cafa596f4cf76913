package logic

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The programs in testdata/oracle.json.gz were generated and run by
// testdata/oracle.js against logic-solver 2.0.1 under Node; see the header
// of that file for the format. Regenerate with
//
//	LOGIC_SOLVER=/path/to/logic-solver node testdata/oracle.js --out testdata/oracle.json.gz

type oracleFile struct {
	Seed     int             `json:"seed"`
	Programs []oracleProgram `json:"programs"`
}

type oracleProgram struct {
	Name string `json:"name"`
	Ops  []any  `json:"ops"`
	Res  []any  `json:"res"`
	End  []any  `json:"end"`
}

func loadOracle(t testing.TB, path string) *oracleFile {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		require.NoError(t, err)
		raw, err = io.ReadAll(zr)
		require.NoError(t, err)
	}
	var f oracleFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&f))
	return &f
}

func shortSHA(s []byte) string {
	h := sha1.Sum(s)
	return hex.EncodeToString(h[:])[:16]
}

// value decodes a JSON value reference: "#i" is the i-th made value,
// other strings are NameTerms, numbers NumTerms.
func (r *replayer) value(raw any) any {
	switch v := raw.(type) {
	case string:
		if strings.HasPrefix(v, "#") {
			var i int
			fmt.Sscan(v[1:], &i)
			return r.vals[i]
		}
		return v
	case json.Number:
		n, err := v.Int64()
		if err != nil {
			panic(err)
		}
		return int(n)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = r.value(x)
		}
		return out
	}
	panic(fmt.Sprintf("bad reference %#v", raw))
}

func (r *replayer) values(raw any) []any { return r.value(raw).([]any) }

func ints(raw any) []int {
	xs := raw.([]any)
	out := make([]int, len(xs))
	for i, x := range xs {
		n, err := x.(json.Number).Int64()
		if err != nil {
			panic(err)
		}
		out[i] = int(n)
	}
	return out
}

type replayer struct {
	s    *Solver
	vals []any
	cur  *Solution
}

func (r *replayer) solution(sol *Solution) any {
	if sol == nil {
		return nil
	}
	var bits strings.Builder
	for _, b := range sol.assignment[1:] {
		if b {
			bits.WriteByte('1')
		} else {
			bits.WriteByte('0')
		}
	}
	st := r.s.Stats()
	out := []any{shortSHA([]byte(bits.String())), len(sol.assignment) - 1, st.Decisions, st.Conflicts, st.Propagations, st.Starts}
	if len(sol.assignment)-1 <= 64 {
		out = append(out, strings.Join(sol.GetTrueVars(), ","))
	}
	return out
}

func errResult(err error) any { return map[string]any{"err": err.Error()} }

func (r *replayer) construct(op []any) (v any, err error) {
	defer catch(&err)
	switch kind := op[1].(string); kind {
	case "not":
		return Not(r.value(op[2])), nil
	case "or":
		return Or(r.values(op[2])), nil
	case "and":
		return And(r.values(op[2])), nil
	case "xor":
		return Xor(r.values(op[2])), nil
	case "exactlyOne":
		return ExactlyOne(r.values(op[2])), nil
	case "atMostOne":
		return AtMostOne(r.values(op[2])), nil
	case "implies":
		return Implies(r.value(op[2]), r.value(op[3])), nil
	case "equiv":
		return Equiv(r.value(op[2]), r.value(op[3])), nil
	case "wsum":
		return WeightedSum(r.values(op[2]), ints(op[3])), nil
	case "sum":
		return Sum(r.values(op[2])), nil
	case "const":
		return ConstantBits(ints([]any{op[2]})[0]), nil
	case "bits":
		return NewBits(r.values(op[2])), nil
	case "lt", "lte", "gt", "gte", "eqbits":
		b1, ok1 := r.value(op[2]).(*Bits)
		b2, ok2 := r.value(op[3]).(*Bits)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("oracle program passes a non-Bits")
		}
		switch kind {
		case "lt":
			return LessThan(b1, b2), nil
		case "lte":
			return LessThanOrEqual(b1, b2), nil
		case "gt":
			return GreaterThan(b1, b2), nil
		case "gte":
			return GreaterThanOrEqual(b1, b2), nil
		}
		return EqualBits(b1, b2), nil
	}
	return nil, fmt.Errorf("unknown kind %v", op[1])
}

func (r *replayer) step(op []any) any {
	switch op[0].(string) {
	case "f":
		v, err := r.construct(op)
		r.vals = append(r.vals, v)
		if err != nil {
			return errResult(err)
		}
		return 0
	case "req", "forbid":
		var err error
		if op[0] == "req" {
			err = r.s.Require(r.values(op[1]))
		} else {
			err = r.s.Forbid(r.values(op[1]))
		}
		if err != nil {
			return errResult(err)
		}
		return 0
	case "solve", "sa":
		var sol *Solution
		var err error
		if op[0] == "solve" {
			sol, err = r.s.Solve()
		} else {
			sol, err = r.s.SolveAssuming(r.value(op[1]))
		}
		if err != nil {
			return errResult(err)
		}
		if sol != nil {
			r.cur = sol
		}
		return r.solution(sol)
	case "min", "max":
		var sol *Solution
		var err error
		if op[0] == "min" {
			sol, err = r.s.MinimizeWeightedSum(r.cur, r.values(op[1]), ints(op[2]))
		} else {
			sol, err = r.s.MaximizeWeightedSum(r.cur, r.values(op[1]), ints(op[2]))
		}
		if err != nil {
			return errResult(err)
		}
		r.cur = sol
		return r.solution(sol)
	case "eval":
		if r.cur == nil {
			return map[string]any{"err": "Cannot read properties of null (reading 'evaluate')"}
		}
		v, err := r.cur.Evaluate(r.value(op[1]))
		if err != nil {
			return errResult(err)
		}
		return v
	case "ws":
		if r.cur == nil {
			return map[string]any{"err": "Cannot read properties of null (reading 'getWeightedSum')"}
		}
		v, err := r.cur.GetWeightedSum(r.values(op[1]), ints(op[2]))
		if err != nil {
			return errResult(err)
		}
		return v
	case "var":
		v, err := r.s.GetVarNum(op[1].(string), false)
		if err != nil {
			return errResult(err)
		}
		return v
	}
	panic(fmt.Sprintf("unknown op %v", op[0]))
}

// normalize makes a Go result comparable with a decoded JSON one.
func normalize(t testing.TB, v any) any {
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&out))
	return out
}

// replayProgram runs one program and returns a description of the first
// difference from the recorded results, or "", and the solver's counters.
func replayProgram(t testing.TB, p *oracleProgram) (string, Stats) {
	r := &replayer{s: NewSolver()}
	for i, rawOp := range p.Ops {
		op := rawOp.([]any)
		got := normalize(t, r.step(op))
		want := p.Res[i]
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Sprintf("%s: op %d %v: got %v, want %v", p.Name, i, op, got, want), r.s.Stats()
		}
	}
	clauses := r.s.Clauses()
	raw, err := json.Marshal(clauses)
	require.NoError(t, err)
	got := fmt.Sprint([]any{len(clauses), shortSHA(raw)})
	want := fmt.Sprint(normalize(t, p.End[:2]))
	if got != want {
		return fmt.Sprintf("%s: clauses: got %v, want %v", p.Name, got, want), r.s.Stats()
	}
	return "", r.s.Stats()
}

type oracleSummary struct {
	programs, solves, sat, errors, maxVars               int
	maxConflicts, maxRestarts                            uint64
	reduceDBs, garbageCollects, varRescales, claRescales int
}

func (s oracleSummary) String() string {
	return fmt.Sprintf("%d programs, %d solver results (%d SAT), %d errors; up to %d variables, %d conflicts and %d restarts in one solver; %d learnt clause reductions, %d garbage collections, %d variable and %d clause activity rescalings in all",
		s.programs, s.solves, s.sat, s.errors, s.maxVars, s.maxConflicts, s.maxRestarts, s.reduceDBs, s.garbageCollects, s.varRescales, s.claRescales)
}

func checkOracle(t *testing.T, f *oracleFile) oracleSummary {
	var sum oracleSummary
	failures := 0
	for i := range f.Programs {
		p := &f.Programs[i]
		diff, st := replayProgram(t, p)
		if diff != "" {
			failures++
			if failures <= 10 {
				t.Error(diff)
			}
			continue
		}
		sum.programs++
		sum.maxConflicts = max(sum.maxConflicts, st.Conflicts)
		sum.maxRestarts = max(sum.maxRestarts, st.Starts)
		sum.reduceDBs += st.ReduceDBs
		sum.garbageCollects += st.GarbageCollects
		sum.varRescales += st.VarRescales
		sum.claRescales += st.ClaRescales
		for _, res := range p.Res {
			switch v := res.(type) {
			case []any:
				sum.solves++
				sum.sat++
				if n, _ := v[1].(json.Number).Int64(); int(n) > sum.maxVars {
					sum.maxVars = int(n)
				}
			case map[string]any:
				sum.errors++
			case nil:
				sum.solves++
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d programs differ", failures, len(f.Programs))
	}
	return sum
}

func TestOracle(t *testing.T) {
	path := filepath.Join("testdata", "oracle.json.gz")
	if p := os.Getenv("ORACLE_FILE"); p != "" {
		path = p
	}
	f := loadOracle(t, path)
	require.NotEmpty(t, f.Programs)
	t.Log(checkOracle(t, f))
}

// TestOracleLive generates fresh programs with node when LOGIC_SOLVER
// names the logic-solver package directory. ORACLE_SEED and ORACLE_SCALE
// choose the programs (defaults 2 and 1).
func TestOracleLive(t *testing.T) {
	if os.Getenv("LOGIC_SOLVER") == "" {
		t.Skip("LOGIC_SOLVER not set")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	seed := os.Getenv("ORACLE_SEED")
	if seed == "" {
		seed = "2"
	}
	scale := os.Getenv("ORACLE_SCALE")
	if scale == "" {
		scale = "1"
	}
	out := filepath.Join(t.TempDir(), "oracle.json")
	args := []string{filepath.Join("testdata", "oracle.js"), "--seed", seed, "--scale", scale, "--out", out}
	if p := os.Getenv("ORACLE_PROFILES"); p != "" {
		args = append(args, "--profiles", p)
	}
	cmd := exec.Command(node, args...)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Run())
	t.Log(checkOracle(t, loadOracle(t, out)))
}
