package benchmarks

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// generated is one family at one seed, written to files.
type generated struct {
	template, inputs string
	data             []byte // the template's text
}

// generate writes the template and inputs of f at seed n into dir (no
// inputs file for a family without inputs).
func generate(tb testing.TB, dir string, f Family, n int) generated {
	tb.Helper()
	base := filepath.Join(dir, f.Name+"-"+strconv.Itoa(n))
	g := generated{template: base + ".yaml"}
	var buf bytes.Buffer
	require.NoError(tb, f.Template(&buf, n))
	g.data = bytes.Clone(buf.Bytes())
	require.NoError(tb, os.WriteFile(g.template, g.data, 0o644))
	if f.Inputs == nil {
		return g
	}
	g.inputs = base + ".inputs.yaml"
	buf.Reset()
	require.NoError(tb, f.Inputs(&buf, n))
	require.NoError(tb, os.WriteFile(g.inputs, buf.Bytes(), 0o644))
	return g
}

func (g generated) input() resolve.Input {
	return resolve.Input{TemplatePath: g.template, InputsPath: g.inputs}
}

// nodeNames returns the node template names of a resolved document.
func nodeNames(doc *yamlsrc.Value) []string {
	nodes := doc.Get("topology_template").Get("node_templates")
	if !nodes.IsMap() {
		return nil
	}
	return nodes.Map().Keys()
}

// TestFamilies resolves every family at small seeds and checks what the
// resolved templates must hold. The outputs at small seeds were also
// compared with the reference's (see the README's Performance section).
func TestFamilies(t *testing.T) {
	tests := []struct {
		family string
		seed   int
		// nodes is the number of node templates the result keeps; check
		// looks at the result in more detail.
		nodes int
		check func(t *testing.T, doc *yamlsrc.Value)
	}{
		{family: "ring", seed: 10, nodes: 10, check: func(t *testing.T, doc *yamlsrc.Value) {
			for _, name := range nodeNames(doc) {
				require.True(t, strings.HasSuffix(name, "_present"), "ring keeps %s", name)
			}
		}},
		{family: "choice", seed: 10, nodes: 10, check: func(t *testing.T, doc *yamlsrc.Value) {
			// Every alternative takes its single node, whatever the
			// polarity of its variable.
			nodes := doc.Get("topology_template").Get("node_templates")
			for i := range 10 {
				is := strconv.Itoa(i)
				require.True(t, nodes.Has("single_"+is), "choice %d: single", i)
				require.False(t, nodes.Has("pair_"+is+"_a"), "choice %d: pair a", i)
				require.False(t, nodes.Has("pair_"+is+"_b"), "choice %d: pair b", i)
			}
		}},
		{family: "pruning", seed: 10, nodes: 40, check: func(t *testing.T, doc *yamlsrc.Value) {
			// Stack i keeps the alternatives selected by the inputs
			// (runtime a, machine b, provider c), rotated by i.
			nodes := doc.Get("topology_template").Get("node_templates")
			alts := []string{"a", "b", "c"}
			for i := range 10 {
				for l, level := range []string{"runtime", "machine", "provider"} {
					for j, a := range alts {
						name := level + "_" + strconv.Itoa(i) + "_" + a
						want := alts[(j+i)%3] == alts[l]
						require.Equal(t, want, nodes.Has(name), "pruning keeps %s", name)
					}
				}
			}
		}},
		{family: "wide", seed: 10, nodes: 10, check: func(t *testing.T, doc *yamlsrc.Value) {
			nodes := doc.Get("topology_template").Get("node_templates")
			for i := range 10 {
				node := nodes.Get("node_" + strconv.Itoa(i))
				props, arts := node.Get("properties"), node.Get("artifacts")
				require.True(t, props.IsMap(), "wide node %d has properties", i)
				require.True(t, arts.IsMap(), "wide node %d has artifacts", i)
				require.Equal(t, 11, props.Map().Len(), "wide node %d: properties", i)
				// profile small: even nodes take the first side, odd ones
				// the second (with docs and the non-default config).
				side := "first-"
				wantArts := 2
				if i%2 == 1 {
					side, wantArts = "second-", 3
				}
				require.Equal(t, side+strconv.Itoa(i)+"-0", props.Get("size_0").Str(), "wide node %d: size_0", i)
				require.Equal(t, wantArts, arts.Map().Len(), "wide node %d: artifacts", i)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.family, func(t *testing.T) {
			f, err := Lookup(tc.family)
			require.NoError(t, err)
			g := generate(t, t.TempDir(), f, tc.seed)
			res, err := resolve.Resolve(context.Background(), g.input(), resolve.Options{})
			require.NoError(t, err, "%s seed %d resolves", tc.family, tc.seed)
			doc := res.Doc
			require.Len(t, nodeNames(doc), tc.nodes, "%s seed %d: nodes kept", tc.family, tc.seed)
			tc.check(t, doc)
		})
	}
}

// TestFamiliesDeterministic checks that generating twice gives the same
// bytes, and that every family counts its templates right.
func TestFamiliesDeterministic(t *testing.T) {
	for _, f := range Families() {
		t.Run(f.Name, func(t *testing.T) {
			var a, b bytes.Buffer
			require.NoError(t, f.Template(&a, 7))
			require.NoError(t, f.Template(&b, 7))
			require.Equal(t, a.String(), b.String(), "%s seed 7 generated twice", f.Name)
			doc, err := yamlsrc.Parse(a.Bytes(), f.Name+"-7.yaml")
			require.NoError(t, err)
			topo := doc.Get("topology_template")
			count := 0
			for _, key := range []string{"node_templates", "relationship_templates"} {
				if m := topo.Get(key); m.IsMap() {
					count += m.Map().Len()
				}
			}
			require.Equal(t, f.Templates(7), count, "%s seed 7: templates", f.Name)
			require.NotEmpty(t, f.Description)
			require.NotEmpty(t, f.Seeds)
		})
	}
	_, err := Lookup("nope")
	require.ErrorContains(t, err, "unknown family")
}

// TestFamilyCommands checks what v4t bench runs for each family: resolve
// for the four resolve families, which come first and have inputs, and the
// command that Measures names for the configuration-space families, which
// have none.
func TestFamilyCommands(t *testing.T) {
	var names []string
	for _, f := range Families() {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"ring", "choice", "pruning", "wide", "chain", "conflict", "hub", "sample", "pairwise"}, names)
	want := map[string][]string{
		"chain":    {"analyze", "--template", "T", "--format", "json", "--output", "O"},
		"conflict": {"analyze", "--template", "T", "--format", "json", "--output", "O"},
		"hub":      {"enumerate", "--template", "T", "--count"},
		"sample":   {"sample", "--template", "T", "--uniform", "1000", "--seed", "1", "--output", "O"},
		"pairwise": {"sample", "--template", "T", "--pairwise", "--output", "O"},
	}
	for _, f := range Families() {
		t.Run(f.Name, func(t *testing.T) {
			if f.Command == nil {
				require.Equal(t, "resolve", f.What(), "%s measures", f.Name)
				require.NotNil(t, f.Inputs, "%s has inputs", f.Name)
				require.NotContains(t, want, f.Name)
				return
			}
			require.Nil(t, f.Inputs, "%s has no inputs", f.Name)
			require.Equal(t, f.Measures, f.What(), "%s measures", f.Name)
			args := f.Command("T", "", "O")
			require.Equal(t, want[f.Name], args, "%s command", f.Name)
			require.True(t, strings.HasPrefix(f.Measures, args[0]), "%s: %q names %s", f.Name, f.Measures, args[0])
		})
	}
}

// benchSeeds are the seeds of the testing.B suites; under -short only the
// seeds up to short run.
var benchSeeds = map[string]struct {
	seeds []int
	short int
}{
	"ring":    {[]int{10, 1000, 10000, 40000}, 1000},
	"choice":  {[]int{10, 100, 300, 1000}, 100},
	"pruning": {[]int{10, 100, 1000, 3000}, 100},
	"wide":    {[]int{10, 100, 1000, 3000}, 100},
}

func BenchmarkRing(b *testing.B)    { benchFamily(b, "ring") }
func BenchmarkChoice(b *testing.B)  { benchFamily(b, "choice") }
func BenchmarkPruning(b *testing.B) { benchFamily(b, "pruning") }
func BenchmarkWide(b *testing.B)    { benchFamily(b, "wide") }

// benchFamily times a family at each seed, per stage: parse (yamlsrc.Parse
// of the template's bytes), prepare (resolve.Prepare: parse, enrichment,
// inputs, graph #3 and the validator), encode, solve, transform, emit
// (yamlsrc.Write of the result) and e2e (resolve.Resolve and the write).
func benchFamily(b *testing.B, name string) {
	f, err := Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range benchSeeds[name].seeds {
		b.Run("seed="+strconv.Itoa(n), func(b *testing.B) {
			if testing.Short() && n > benchSeeds[name].short {
				b.Skip("large seed skipped under -short")
			}
			g := generate(b, b.TempDir(), f, n)
			templates := float64(f.Templates(n))
			prepare := func(b *testing.B) *resolve.Stages {
				s, err := resolve.Prepare(ctx, g.input(), resolve.Options{})
				if err != nil {
					b.Fatal(err)
				}
				return s
			}
			encode := func(b *testing.B, s *resolve.Stages) (vars, clauses int) {
				vars, clauses, err := s.Encode()
				if err != nil {
					b.Fatal(err)
				}
				return vars, clauses
			}
			solve := func(b *testing.B, s *resolve.Stages) {
				if err := s.Solve(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("parse", func(b *testing.B) {
				b.SetBytes(int64(len(g.data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := yamlsrc.Parse(g.data, g.template); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("prepare", func(b *testing.B) {
				b.SetBytes(int64(len(g.data)))
				b.ReportAllocs()
				for b.Loop() {
					prepare(b)
				}
			})
			b.Run("encode", func(b *testing.B) {
				s := prepare(b)
				var vars, clauses int
				b.ReportAllocs()
				for b.Loop() {
					vars, clauses = encode(b, s)
				}
				b.ReportMetric(float64(vars), "vars")
				b.ReportMetric(float64(clauses), "clauses")
			})
			b.Run("solve", func(b *testing.B) {
				s := prepare(b)
				encode(b, s)
				b.ReportAllocs()
				for b.Loop() {
					solve(b, s)
				}
			})
			b.Run("transform", func(b *testing.B) {
				// Transform changes the document, so every iteration gets a
				// fresh pipeline, prepared outside the timed region.
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					s := prepare(b)
					encode(b, s)
					solve(b, s)
					b.StartTimer()
					if _, err := s.Transform(); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("emit", func(b *testing.B) {
				res, err := resolve.Resolve(ctx, g.input(), resolve.Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := yamlsrc.Write(io.Discard, res.Doc); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("e2e", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					res, err := resolve.Resolve(ctx, g.input(), resolve.Options{})
					if err != nil {
						b.Fatal(err)
					}
					if err := yamlsrc.Write(io.Discard, res.Doc); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(templates*float64(b.N)/b.Elapsed().Seconds(), "templates/s")
			})
		})
	}
}
