package expr

import (
	"testing"
	"time"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// FuzzEval parses random YAML and evaluates it as a value expression (the
// whole document, or its expr key with expressions/inputs/assigned as the
// environment). Evaluation must never panic or hang, and every failure must
// be a diagnostic.
func FuzzEval(f *testing.F) {
	var cases []oracleCase
	loadJSON(f, "testdata/node_oracle.json", &cases)
	for i, c := range cases {
		if i%4 == 0 {
			f.Add(c.YAML)
		}
	}
	f.Add("expr: {variability_input: a}\ninputs: {a: {default_expression: {value_expression: e}}}\nexpressions: {e: {concat: [[2023-01-01], x]}}")
	f.Add("{within: [\"Jan 1 2023 10:00 GMT+2\", [\"2023-01-01T00:00:00\", 1e13]]}")
	f.Add("{polynomial_regression: [[[1, 2], [2, 5], [3, 10]], 2.5, 4]}")
	f.Add("{token: [\"a😀b\", \"\", length]}")

	loc := time.FixedZone("X", 3600)
	now := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		doc, err := yamlsrc.Parse([]byte(text), "fuzz.yaml")
		if err != nil {
			return
		}
		env := Env{Now: now, Location: loc, Assigned: yamlsrc.NewMap()}
		x := doc
		if doc.Has("expr") {
			x = doc.Get("expr")
			env.Expressions = doc.Get("expressions")
			env.Inputs = doc.Get("inputs")
			if a := doc.Get("assigned"); a.IsMap() {
				env.Assigned = a
			}
		}
		e := New(env)
		check := func(v *yamlsrc.Value, err error) {
			if err != nil {
				if _, ok := diag.As(err); !ok {
					t.Fatalf("error %v is not a diagnostic", err)
				}
				return
			}
			if _, err := e.JSON(v); err != nil {
				if _, ok := diag.As(err); !ok {
					t.Fatalf("JSON error %v is not a diagnostic", err)
				}
			}
		}
		check(e.Eval(x))
		// A second evaluation must see the same cached result.
		check(e.Eval(x))
		if env.Inputs.IsMap() {
			for _, name := range env.Inputs.Map.Keys() {
				check(e.InputValue(name))
			}
		}
		if s := x.Get("s"); s.IsString() {
			js.ParseDate(s.Str, loc)
		}
		_, _ = e.Pretty(env.Assigned)
	})
}
