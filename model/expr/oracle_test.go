package expr

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the oracle zones must exist on every machine

	"github.com/stretchr/testify/require"

	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// The expectations in testdata/node_oracle.json were produced by running
// the reference implementation itself (see testdata/oracle.js): Vintner
// 0.1.8's evaluateValueExpression on documents loaded with js-yaml, with
// local time Europe/Berlin. (Date.parse has its own vectors in model/js.)

type oracleWant struct {
	OK       *string `json:"ok"`
	Err      *string `json:"err"`
	Assigned string  `json:"assigned"`
}

type oracleCase struct {
	YAML string     `json:"yaml"`
	Want oracleWant `json:"want"`
}

func loadJSON(t testing.TB, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, into))
}

func location(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

// encode renders a result the way testdata/oracle.js does.
func encode(e *Evaluator, v *yamlsrc.Value) string {
	if v == nil {
		return "undefined"
	}
	switch v.Kind {
	case yamlsrc.KindNumber:
		if v.Num() == 0 && math.Signbit(v.Num()) {
			return "num:-0"
		}
		return "num:" + js.FormatNumber(v.Num())
	case yamlsrc.KindTime:
		return "date:" + js.FormatNumber(v.Num())
	}
	s, err := e.JSON(v)
	if err != nil {
		return "json error: " + err.Error()
	}
	return s
}

// evalDoc evaluates a test document {expr, expressions, inputs, assigned}.
func evalDoc(t testing.TB, text string, loc *time.Location) (*Evaluator, *yamlsrc.Value, *yamlsrc.Value, error) {
	t.Helper()
	doc, err := yamlsrc.Parse([]byte(text), "case.yaml")
	require.NoError(t, err, "parse %q", text)
	assigned := doc.Get("assigned")
	if assigned == nil {
		assigned = yamlsrc.NewMap()
	}
	e := New(Env{
		Expressions: doc.Get("expressions"),
		Inputs:      doc.Get("inputs"),
		Assigned:    assigned,
		Location:    loc,
		Now:         time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
	})
	r, err := e.Eval(doc.Get("expr"))
	return e, r, assigned, err
}

func TestNodeOracle(t *testing.T) {
	var cases []oracleCase
	loadJSON(t, "testdata/node_oracle.json", &cases)
	require.NotEmpty(t, cases)
	berlin := location(t, "Europe/Berlin")
	for i, c := range cases {
		e, r, assigned, err := evalDoc(t, c.YAML, berlin)
		if c.Want.Err != nil {
			require.EqualError(t, err, *c.Want.Err, "case %d: %s", i, c.YAML)
			continue
		}
		require.NoError(t, err, "case %d: %s", i, c.YAML)
		require.Equal(t, *c.Want.OK, encode(e, r), "case %d: %s", i, c.YAML)
		a, err := e.JSON(assigned)
		require.NoError(t, err)
		require.Equal(t, c.Want.Assigned, a, "assignments after case %d: %s", i, c.YAML)
	}
}

// TestOracleFilesAreSelfConsistent guards against an empty or truncated
// corpus: every case has exactly one expectation.
func TestOracleFilesAreSelfConsistent(t *testing.T) {
	var cases []oracleCase
	loadJSON(t, "testdata/node_oracle.json", &cases)
	ops := map[string]bool{}
	for i, c := range cases {
		require.True(t, (c.Want.OK == nil) != (c.Want.Err == nil), "case %d", i)
		for _, op := range Operators() {
			if containsKey(c.YAML, op) {
				ops[op] = true
			}
		}
	}
	for _, op := range Operators() {
		require.True(t, ops[op] || op == "weekday", "no oracle case uses %s", op)
	}
}

func containsKey(text, key string) bool {
	for _, sep := range []string{"{", " ", ","} {
		if strings.Contains(text, sep+key+":") {
			return true
		}
	}
	return false
}

func ExampleEvaluator_Eval() {
	doc, _ := yamlsrc.Parse([]byte("{concat: [{add: [1, 0.5]}, true, [1, 2]]}"), "")
	e := New(Env{})
	v, err := e.Eval(doc)
	fmt.Println(v.Str(), err)
	// Output: 1.5true1,2 <nil>
}
