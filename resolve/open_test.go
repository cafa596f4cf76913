package resolve

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// openDomain is an open input and its expected domain, as a YAML flow list.
type openDomain struct {
	name, values string
}

func flowList(t *testing.T, s string) []*yamlsrc.Value {
	t.Helper()
	v, err := yamlsrc.Parse([]byte(s), "domain")
	require.NoError(t, err, "domain %s", s)
	require.True(t, v.IsList(), "domain %s is a list", s)
	return v.List()
}

// variantKey renders a variant with its input values, one line.
func variantKey(present []string, inputs []Assignment) string {
	parts := make([]string, len(inputs))
	for i, a := range inputs {
		parts[i] = a.Name + "=" + Flow(a.Value)
	}
	return strings.Join(present, " ") + " | " + strings.Join(parts, " ")
}

// crossCheck enumerates a template with open inputs, and again once per
// combination in the cartesian product of the expected domains with those
// inputs assigned (as `v4t batch` would run them), and wants the same
// count and the same variants. It returns the open enumeration.
func crossCheck(t *testing.T, in Input, so SpaceOptions, domains []openDomain) *Enumeration {
	t.Helper()
	ctx := context.Background()
	name := in.TemplatePath
	s, err := BuildSpace(ctx, in, Options{}, so)
	require.NoError(t, err, "%s: space", name)
	var gotDomains []openDomain
	for _, oi := range s.Inputs {
		vals := make([]string, len(oi.Values))
		for i, v := range oi.Values {
			vals[i] = Flow(v)
		}
		gotDomains = append(gotDomains, openDomain{oi.Name, "[" + strings.Join(vals, ", ") + "]"})
		require.Len(t, oi.Vars, len(oi.Values), "%s: variables of %s", name, oi.Name)
	}
	var want []openDomain
	for _, d := range domains {
		vals := flowList(t, d.values)
		strs := make([]string, len(vals))
		for j, v := range vals {
			strs[j] = Flow(v)
		}
		want = append(want, openDomain{d.name, "[" + strings.Join(strs, ", ") + "]"})
	}
	require.Equal(t, want, gotDomains, "%s: open inputs and domains", name)

	open, err := Enumerate(ctx, in, Options{}, EnumerateOptions{Space: so})
	require.NoError(t, err, "%s: open enumeration", name)
	counted, err := Enumerate(ctx, in, Options{}, EnumerateOptions{Space: so, CountOnly: true})
	require.NoError(t, err, "%s: open count", name)
	require.Equal(t, open.Count.String(), counted.Count.String(), "%s: count and listing agree", name)
	require.Equal(t, int64(len(open.Variants)), open.Count.Int64(), "%s: listed variants", name)
	var got []string
	for _, v := range open.Variants {
		got = append(got, variantKey(v.Present, v.Inputs))
	}

	// The product of the domains, each combination assigned.
	sum := big.NewInt(0)
	var union []string
	combo := make([]Assignment, len(domains))
	failed := 0
	var walk func(i int)
	walk = func(i int) {
		if i == len(domains) {
			one := in
			one.Inputs = append(append([]Assignment(nil), in.Inputs...), combo...)
			res, err := Enumerate(ctx, one, Options{}, EnumerateOptions{})
			if err != nil {
				// The resolver rejects this combination: not in the space.
				failed++
				return
			}
			sum.Add(sum, res.Count)
			for _, v := range res.Variants {
				union = append(union, variantKey(v.Present, combo))
			}
			return
		}
		for _, v := range flowList(t, domains[i].values) {
			combo[i] = Assignment{Name: domains[i].name, Value: v}
			walk(i + 1)
		}
	}
	walk(0)
	require.Equal(t, sum.String(), open.Count.String(), "%s: count with open inputs and sum over %d combinations (%d rejected)", name, product(t, domains), failed)
	slices.Sort(got)
	slices.Sort(union)
	require.Equal(t, union, got, "%s: variants with open inputs and union over the combinations", name)
	return open
}

func product(t *testing.T, domains []openDomain) int {
	n := 1
	for _, d := range domains {
		n *= len(flowList(t, d.values))
	}
	return n
}

func spaceFixture(name string) string { return filepath.Join("..", "testdata", "spaces", name) }

func TestOpenInputsMatchProduct(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		in         Input
		open       []string
		domains    []openDomain
		count      int64
		warnings   []string
	}{
		{name: "booleans", file: "booleans.yaml",
			domains: []openDomain{{"ha", "[false, true]"}, {"backup", "[false, true]"}}, count: 6},
		{name: "valid values", file: "valid-values.yaml",
			domains: []openDomain{{"size", "[small, medium, large]"}, {"replicas", "[1, 2, 3]"}}, count: 9},
		{name: "preset domains", file: "presets.yaml",
			domains: []openDomain{{"region", "[eu, us, asia]"}, {"tier", "[gold, silver]"}}, count: 6},
		{name: "a preset fixes what it assigns", file: "presets.yaml", in: Input{Presets: []string{"asia"}},
			domains: []openDomain{{"tier", "[gold, silver]"}}, count: 2},
		{name: "nested expressions over several inputs", file: "nested.yaml",
			domains: []openDomain{{"mode", "[dev, prod]"}, {"size", "[1, 2, 3]"}, {"ha", "[false, true]"}}, count: 13},
		{name: "only the inputs listed", file: "nested.yaml", open: []string{"ha", "mode"},
			in:      Input{Inputs: []Assignment{{Name: "size", Value: yamlsrc.NewNumber(2)}}},
			domains: []openDomain{{"mode", "[dev, prod]"}, {"ha", "[false, true]"}}, count: 5},
		{name: "an input read by nothing", file: "unread.yaml",
			domains: []openDomain{{"color", "[red, green, blue]"}, {"ha", "[false, true]"}}, count: 12},
		{name: "failing combinations", file: "errors.yaml",
			domains: []openDomain{{"flag", "[true, false, maybe]"}, {"n", "[0, 1, 2]"}, {"tag", "['x,y', 7]"}}, count: 10,
			warnings: []string{
				spaceFixture("errors.yaml") + `:12:38: input combinations where flag=maybe are excluded: Element ""maybe"" is not a boolean`,
				spaceFixture("errors.yaml") + `:14:37: input combinations where tag=7 are excluded: Element "7" is not a string`,
			}},
		{name: "validator constraints", file: "validator.yaml",
			domains: []openDomain{{"monitoring", "[false, true]"}, {"logging", "[false, true]"}, {"level", "[0, 1, 2]"}, {"extra", "[false, true]"}}, count: 10},
		{name: "validator with a fixed input", file: "validator.yaml",
			in:      Input{Inputs: []Assignment{{Name: "logging", Value: yamlsrc.NewBool(false)}}},
			domains: []openDomain{{"monitoring", "[false, true]"}, {"level", "[0, 1, 2]"}, {"extra", "[false, true]"}}, count: 2},
		{name: "default expression over an open input", file: "default-expression.yaml", open: []string{"env"},
			domains: []openDomain{{"env", "[dev, prod]"}}, count: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TemplatePath = spaceFixture(tc.file)
			so := SpaceOptions{OpenInputs: true, Open: tc.open}
			res := crossCheck(t, in, so, tc.domains)
			require.Equal(t, tc.count, res.Count.Int64(), "%s: count", tc.file)
			require.Equal(t, tc.warnings, res.Warnings, "%s: warnings", tc.file)
		})
	}
}

// TestOpenInputsVariantOrder wants variants sorted by their elements, then
// by their input values in declaration and domain order.
func TestOpenInputsVariantOrder(t *testing.T) {
	res, err := Enumerate(context.Background(), Input{TemplatePath: spaceFixture("unread.yaml")}, Options{},
		EnumerateOptions{Space: SpaceOptions{OpenInputs: true}})
	require.NoError(t, err)
	var got []string
	for _, v := range res.Variants {
		got = append(got, variantKey(v.Present, v.Inputs))
	}
	require.Equal(t, []string{
		" | color=red ha=false", " | color=green ha=false", " | color=blue ha=false",
		"node.app | color=red ha=false", "node.app | color=green ha=false", "node.app | color=blue ha=false",
		"node.app node.replica | color=red ha=true", "node.app node.replica | color=green ha=true", "node.app node.replica | color=blue ha=true",
		"node.replica | color=red ha=true", "node.replica | color=green ha=true", "node.replica | color=blue ha=true",
	}, got)
}

// TestOpenInputsResolveVariants resolves every variant with its inputs.
func TestOpenInputsResolveVariants(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {type_default_condition: true}
        inputs:
            size: {type: integer, valid_values: [1, 3]}
    node_templates:
        vm:
            type: vm
            properties:
                - cpus: {expression: {mul: [{variability_input: size}, 2]}}
        big: {type: vm, conditions: {greater: [{variability_input: size}, 2]}}
`
	res, err := Enumerate(context.Background(), Input{TemplatePath: writeTemplate(t, src)}, Options{},
		EnumerateOptions{Resolve: true, Space: SpaceOptions{OpenInputs: true}})
	require.NoError(t, err)
	require.Len(t, res.Variants, 2)
	for i, want := range []string{"cpus: 2", "cpus: 6"} {
		v := res.Variants[i]
		require.NoError(t, v.Err, "variant %d", i+1)
		require.Contains(t, string(yamlsrc.Marshal(v.Doc)), want, "variant %d (%s)", i+1, variantKey(v.Present, v.Inputs))
	}
}

func TestOpenInputsErrors(t *testing.T) {
	many := make([]string, 13)
	inputs := make([]string, 13)
	for i := range many {
		many[i] = fmt.Sprintf("{variability_input: b%d}", i)
		inputs[i] = fmt.Sprintf("b%d: {type: boolean}", i)
	}
	const region = `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs:
            region: {type: string, default: eu}
    node_templates:
        a: {type: a}
`
	for _, tc := range []struct {
		name, src string
		open      []string
		want      string
		line, col int
	}{
		{"no finite domain", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs:
            ok: {type: boolean}
            name: {type: string}
    node_templates:
        a: {type: a, conditions: {equal: [{variability_input: name}, x]}}
`, nil, `open input "name" has no finite domain: give it type boolean, a valid_values constraint, a default or a preset value, or assign it with --input name=VALUE`, 6, 19},
		{"unknown name", region, []string{"regoin"}, `open input "regoin" is not a declared variability input (did you mean "region"?)`, 0, 0},
		{"unknown name without a suggestion", region, []string{"colour"}, `open input "colour" is not a declared variability input`, 0, 0},
		{"too many combinations", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: {` + strings.Join(inputs, ", ") + `}
    node_templates:
        a: {type: a, conditions: {equal: [{concat: [` + strings.Join(many, ", ") + `]}, x]}}
`, nil, "the expression reads the open inputs b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12 in more than 4096 combinations: assign some of them with --input, or open fewer", 6, 34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemplate(t, tc.src)
			_, err := Enumerate(context.Background(), Input{TemplatePath: path}, Options{},
				EnumerateOptions{CountOnly: true, Space: SpaceOptions{OpenInputs: true, Open: tc.open}})
			d := testkit.Diagnostic(t, err, "error %v is a diagnostic", err)
			require.Equal(t, tc.want, d.Message)
			require.Equal(t, diag.Pos{File: path, Line: tc.line, Col: tc.col}, d.Pos, "position of %q", d.Message)
		})
	}
}

// TestOpenInputsAssignedStayFixed: an input listed but assigned keeps its
// value, with a warning.
func TestOpenInputsAssignedStayFixed(t *testing.T) {
	in := Input{TemplatePath: spaceFixture("booleans.yaml"), Inputs: []Assignment{{Name: "ha", Value: yamlsrc.NewBool(true)}}}
	res := crossCheck(t, in, SpaceOptions{OpenInputs: true, Open: []string{"ha", "backup"}}, []openDomain{{"backup", "[false, true]"}})
	require.Equal(t, int64(4), res.Count.Int64())
	require.Equal(t, []string{spaceFixture("booleans.yaml") + `: open input "ha" is assigned, so it stays fixed`}, res.Warnings)
}

// TestOpenInputsUnchangedWithoutOpen: without open inputs the space is the
// resolver's, and the validator fails as in resolve.
func TestOpenInputsUnchangedWithoutOpen(t *testing.T) {
	ctx := context.Background()
	in := Input{TemplatePath: spaceFixture("validator.yaml"), Inputs: []Assignment{
		{Name: "monitoring", Value: yamlsrc.NewBool(true)}, {Name: "logging", Value: yamlsrc.NewBool(false)},
		{Name: "level", Value: yamlsrc.NewNumber(0)},
	}}
	for _, so := range []SpaceOptions{{}, {OpenInputs: true, Open: []string{"monitoring"}}} {
		_, err := Enumerate(ctx, in, Options{}, EnumerateOptions{Space: so})
		require.Error(t, err, "open %v", so)
		require.Equal(t, "Variability inputs constraints are violated", err.Error(), "open %v", so)
	}
	in.Inputs[0].Value = yamlsrc.NewBool(false)
	plain, err := Enumerate(ctx, in, Options{}, EnumerateOptions{})
	require.NoError(t, err)
	opened, err := Enumerate(ctx, in, Options{}, EnumerateOptions{Space: SpaceOptions{OpenInputs: true, Open: []string{"monitoring"}}})
	require.NoError(t, err)
	require.Equal(t, plain.Count.String(), opened.Count.String())
	require.Equal(t, plain.Variants, opened.Variants)
}

// TestOpenInputsManyBooleans is the shape of the issue: 40 open boolean
// inputs, each deciding a node, and three valid_values inputs (3, 4 and 5
// values) under a constraint that forbids one pair. Each boolean gives 2
// variants; the triples give 3·4·5 − 5 = 55 (x = a and y = b excluded for
// the 5 values of z). Counted exactly, fast.
func TestOpenInputsManyBooleans(t *testing.T) {
	var b strings.Builder
	b.WriteString(`tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {type_default_condition: true}
        inputs:
            x: {type: string, valid_values: [a, b, c]}
            y: {type: string, constraints: [{valid_values: [a, b, c, d]}]}
            z: {type: integer, valid_values: [1, 2, 3, 4, 5]}
`)
	for i := range 40 {
		fmt.Fprintf(&b, "            b%d: {type: boolean}\n", i)
	}
	b.WriteString(`        constraints:
            - {not: {and: [{equal: [{variability_input: x}, a]}, {equal: [{variability_input: y}, b]}]}}
    node_templates:
        zed: {type: vm, conditions: {greater: [{variability_input: z}, 0]}}
`)
	for i := range 40 {
		fmt.Fprintf(&b, "        n%d: {type: vm, conditions: {equal: [{variability_input: b%d}, true]}}\n", i, i)
	}
	path := writeTemplate(t, b.String())
	start := time.Now()
	res, err := Enumerate(context.Background(), Input{TemplatePath: path}, Options{},
		EnumerateOptions{CountOnly: true, Space: SpaceOptions{OpenInputs: true}})
	elapsed := time.Since(start)
	require.NoError(t, err)
	want := new(big.Int).Lsh(big.NewInt(55), 40)
	require.Equal(t, want.String(), res.Count.String())
	require.Less(t, elapsed, time.Second, "counting took %s", elapsed)
}

// randomSpace generates a small template with boolean, valid_values and
// preset-derived inputs, nodes whose conditions are random trees over the
// inputs and free terms, constraints and validator features. It returns the
// template, the open inputs' domains, the fixed assignments and the names
// to open (nil: all).
func randomSpace(r *rand.Rand) (string, []openDomain, []Assignment, []string) {
	g := &spaceGen{r: r}
	for i := range 1 + r.IntN(3) {
		g.inputs = append(g.inputs, g.input(i))
	}
	src := g.template()
	domains, fixed, open := g.assignments()
	return src, domains, fixed, open
}

// randomInput is an input of a random space and the values it can take.
type randomInput struct {
	name, def string
	values    []string
	numeric   bool
	boolean   bool
	preset    []string // values per preset, "" for none
}

// spaceGen draws the parts of a random space from r, in a fixed order so
// that a seed names one space.
type spaceGen struct {
	r      *rand.Rand
	inputs []randomInput
}

var randomPool = []string{"a", "b", "c", "1", "2", "true"}

// input draws input i: a boolean, a string of two or three valid values,
// or a string with a default that presets override.
func (g *spaceGen) input(i int) randomInput {
	r := g.r
	in := randomInput{name: fmt.Sprintf("i%d", i)}
	switch r.IntN(3) {
	case 0:
		in.boolean = true
		in.values = []string{"false", "true"}
		in.def = "{type: boolean}"
		if r.IntN(2) == 0 {
			in.def = "{type: boolean, default: true}"
		}
	case 1:
		k := 2 + r.IntN(2)
		perm := r.Perm(len(randomPool))[:k]
		for _, j := range perm {
			in.values = append(in.values, randomPool[j])
		}
		in.numeric = !slices.ContainsFunc(in.values, func(s string) bool { return s != "1" && s != "2" })
		in.def = "{type: string, constraints: [{valid_values: [" + strings.Join(in.values, ", ") + "]}]"
		if r.IntN(2) == 0 {
			in.def += ", default: " + in.values[len(in.values)-1]
		}
		in.def += "}"
	default:
		// Default and presets: default a, presets b, a, c or none.
		in.def = "{type: string, default: a}"
		in.values = []string{"a"}
		for _, v := range []string{"b", "a", ""} {
			if r.IntN(2) == 0 {
				v = ""
			}
			in.preset = append(in.preset, v)
			if v != "" && !slices.Contains(in.values, v) {
				in.values = append(in.values, v)
			}
		}
	}
	if r.IntN(6) == 0 && i > 0 {
		in.def = strings.TrimSuffix(in.def, "}") + ", requires: [i0]}"
	}
	return in
}

// inputTerm is a condition's reference to in.
func inputTerm(in randomInput) string { return "{variability_input: " + in.name + "}" }

// leaf draws an atom of a condition over the inputs.
func (g *spaceGen) leaf() string {
	r := g.r
	in := g.inputs[r.IntN(len(g.inputs))]
	other := g.inputs[r.IntN(len(g.inputs))]
	switch r.IntN(9) {
	case 0:
		return fmt.Sprintf("t%d", r.IntN(3))
	case 1:
		// A boolean input directly; other inputs are not booleans in
		// some combinations, which excludes them (now and then).
		if in.boolean || r.IntN(4) == 0 {
			return inputTerm(in)
		}
		return "{equal: [" + inputTerm(in) + ", " + in.values[len(in.values)-1] + "]}"
	case 2:
		return "{equal: [" + inputTerm(in) + ", " + in.values[r.IntN(len(in.values))] + "]}"
	case 3:
		return "{equal: [" + inputTerm(in) + ", " + inputTerm(other) + "]}"
	case 4:
		return "{valid_values: [" + inputTerm(in) + ", [" + in.values[0] + ", " + randomPool[r.IntN(len(randomPool))] + "]]}"
	case 5:
		return "{equal: [{concat: [" + inputTerm(in) + ", " + inputTerm(other) + "]}, " + in.values[0] + other.values[len(other.values)-1] + "]}"
	case 6:
		if in.numeric {
			return "{greater: [{add: [" + inputTerm(in) + ", 1]}, 2]}"
		}
		return "{equal: [" + inputTerm(in) + ", " + in.values[0] + "]}"
	case 7:
		return "{logic_expression: e0}"
	}
	return fmt.Sprintf("t%d", r.IntN(3))
}

// tree draws a condition of at most depth connectives.
func (g *spaceGen) tree(depth int) string {
	if depth == 0 || g.r.IntN(3) == 0 {
		return g.leaf()
	}
	switch g.r.IntN(5) {
	case 0:
		return "{not: " + g.tree(depth-1) + "}"
	case 1:
		return "{or: [" + g.tree(depth-1) + ", " + g.tree(depth-1) + "]}"
	case 2:
		return "{implies: [" + g.tree(depth-1) + ", " + g.tree(depth-1) + "]}"
	case 3:
		return "{xor: [" + g.tree(depth-1) + ", " + g.tree(depth-1) + "]}"
	}
	return "{and: [" + g.tree(depth-1) + ", " + g.tree(depth-1) + "]}"
}

// template writes the space: the inputs, three presets, the expression
// e0, a constraint now and then, and one to four nodes.
func (g *spaceGen) template() string {
	r := g.r
	var b strings.Builder
	b.WriteString("tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n    variability:\n")
	b.WriteString("        options: {type_default_condition: true}\n        inputs:\n")
	for _, in := range g.inputs {
		fmt.Fprintf(&b, "            %s: %s\n", in.name, in.def)
	}
	b.WriteString("        presets:\n")
	for p := range 3 {
		var kv []string
		for _, in := range g.inputs {
			if p < len(in.preset) && in.preset[p] != "" {
				kv = append(kv, in.name+": "+in.preset[p])
			}
		}
		fmt.Fprintf(&b, "            p%d: {inputs: {%s}}\n", p, strings.Join(kv, ", "))
	}
	// e0 must not refer to itself.
	e0 := strings.ReplaceAll("{or: ["+g.tree(1)+", "+g.leaf()+"]}", "{logic_expression: e0}", "t0")
	fmt.Fprintf(&b, "        expressions:\n            e0: %s\n", e0)
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "        constraints:\n            - %s\n", g.tree(2))
	}
	b.WriteString("    node_templates:\n")
	for j := range 1 + r.IntN(4) {
		if r.IntN(5) == 0 {
			fmt.Fprintf(&b, "        n%d: {type: vm}\n", j)
			continue
		}
		fmt.Fprintf(&b, "        n%d: {type: vm, conditions: %s}\n", j, g.tree(2))
	}
	return b.String()
}

// assignments fixes one input sometimes and opens a subset sometimes; the
// domains are those of the open inputs.
func (g *spaceGen) assignments() (domains []openDomain, fixed []Assignment, open []string) {
	r := g.r
	fix := -1
	if len(g.inputs) > 1 && r.IntN(4) == 0 {
		fix = r.IntN(len(g.inputs))
	}
	subset := r.IntN(4) == 0
	for i, in := range g.inputs {
		v, _ := yamlsrc.Parse([]byte(in.values[r.IntN(len(in.values))]), "value")
		switch {
		case i == fix:
			fixed = append(fixed, Assignment{Name: in.name, Value: v})
			continue
		case subset && i%2 == 1:
			continue // not open: its default, or an error where it is read
		}
		if subset {
			open = append(open, in.name)
		}
		domains = append(domains, openDomain{in.name, "[" + strings.Join(in.values, ", ") + "]"})
	}
	if subset && open == nil {
		open = []string{}
	}
	return domains, fixed, open
}

// TestOpenInputsRandom cross-checks random templates: the count and the
// variants with open inputs equal those of the cartesian product of the
// domains, each combination assigned.
func TestOpenInputsRandom(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		src, domains, fixed, open := randomSpace(r)
		path := writeTemplate(t, src)
		in := Input{TemplatePath: path, Inputs: fixed}
		so := SpaceOptions{OpenInputs: true, Open: open}
		if _, err := BuildSpace(context.Background(), in, Options{}, so); err != nil {
			// A failure that no combination escapes: every combination
			// must fail too.
			walkFails(t, seed, src, in, domains)
			continue
		}
		ok := t.Run(fmt.Sprint(seed), func(t *testing.T) { crossCheck(t, in, so, domains) })
		if !ok {
			t.Logf("seed %d template:\n%s", seed, src)
		}
	}
}

// walkFails wants every combination of the domains to fail.
func walkFails(t *testing.T, seed int, src string, in Input, domains []openDomain) {
	t.Helper()
	combo := make([]Assignment, len(domains))
	var walk func(i int)
	walk = func(i int) {
		if i == len(domains) {
			one := in
			one.Inputs = append(append([]Assignment(nil), in.Inputs...), combo...)
			_, err := Enumerate(context.Background(), one, Options{}, EnumerateOptions{CountOnly: true})
			require.Error(t, err, "seed %d: the open space fails but combination %v does not:\n%s", seed, combo, src)
			return
		}
		for _, v := range flowList(t, domains[i].values) {
			combo[i] = Assignment{Name: domains[i].name, Value: v}
			walk(i + 1)
		}
	}
	walk(0)
}
