package validate

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/yamlsrc"
)

// Phase 7, variability: what the conditions, expressions and presets of a
// variable template (tosca_variability_*) name. The resolver finds these
// mistakes one at a time, and only where it evaluates them: a condition
// of an element that is pruned anyway, or a named expression nobody uses,
// never fails. This phase reports all of them, each at the offending word:
//
//   - a variability_input that variability.inputs does not declare
//     (variability.md §6, "Value lookup");
//   - a logic_expression or value_expression that variability.expressions
//     does not define (§8.4, §9.2);
//   - a presence operator whose element does not exist: node templates,
//     requirements, artifacts, types and properties of node templates,
//     relations, groups, policies and artifacts, groups, policies, inputs,
//     outputs and imports, by name or by index (§8.5);
//   - a key of a condition or value expression that is no operator (§8.4,
//     §8.6, §9.1), with the closest operator name;
//   - a preset that assigns an undeclared variability input (§6).
//
// A preset that is not a map, or whose inputs are not one, is reported by
// the syntax phase already (presets in syntax.go).
//
// The conditions are walked where the resolver reads them (§3.2, §3.4.2):
// every element (node templates, their types, properties in list form,
// requirements, artifacts and technologies; the types and properties of
// relationship templates, groups and policies; groups, policies, inputs,
// outputs and imports), the implies lists of elements (§8.3), the
// constraints and named expressions, the default_expression of variability
// inputs, the inline type-specific conditions (§5.9) and the expressions
// of properties in list form (§10.3). SELF, CONTAINER, SOURCE and TARGET
// depend on the element a condition is evaluated for and are not followed;
// technologies are not checked by name or index, since technology rules
// add entries while the resolver enriches the template (§5.3).
//
// Only the root template is checked: the resolver reads no other. The
// names that presence operators refer to are collected once, in maps, when
// the first presence operator is met, so that the phase stays linear in
// the size of the template.

// varLogicOps are the keys of logic expressions in the resolver's
// dispatch order (variability.md §8.4, §8.5), as encode has them.
var varLogicOps = expr.LogicOperators()

var (
	varLogicRank = varRank(varLogicOps)
	// varValueOps are the value-expression operators in dispatch order
	// (variability.md §9.1), as the evaluator has them.
	varValueOps  = expr.Operators()
	varValueRank = varRank(varValueOps)
)

func varRank(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		m[n] = i
	}
	return m
}

// varArtifactType is the type of an artifact given without one
// (variability.md §3.2).
const varArtifactType = "tosca.artifacts.File"

// varCheck is one run of the phase on the root unit.
type varCheck struct {
	v *validator
	u *unit

	topo   *yamlsrc.Value // topology_template
	inputs *yamlsrc.Value // variability.inputs
	exprs  *yamlsrc.Value // variability.expressions
	rels   *yamlsrc.Value // relationship_templates

	collected bool     // the name sets below are built (collect)
	nodes     varIndex // node templates by name
	groups    varIndex
	policies  []*yamlsrc.Value
	polNames  varIndex
	tInputs   map[string]bool // topology inputs
	nInputs   int
	outputs   map[string]bool
	nOutputs  int
	nImports  int

	// start is the number of problems of the earlier phases; taken holds
	// the positions of all reported problems once one is reported here, so
	// that no follow-on problem lands where one is reported already.
	start int
	taken map[diag.Pos]bool
	lines []int // line start offsets of the unit's source, for keyPos
	// walked holds the compound expressions checked already below the
	// top of a condition: a YAML alias shares its value, and an alias of an
	// alias of ... would otherwise be walked once per path (up to the
	// expansion limit of yamlsrc). depth is the nesting of the expression
	// being checked; the top ones are walked once per use, which is linear.
	walked map[varWalked]bool
	depth  int
}

type varWalked struct {
	x     *yamlsrc.Value
	logic bool
}

// variability runs the phase on the root unit when it is a variable
// template.
func (v *validator) variability(root *unit) {
	if root == nil || !root.variable || !root.doc.IsMap() {
		return
	}
	topo := root.doc.Get("topology_template")
	if !topo.IsMap() {
		return
	}
	c := &varCheck{v: v, u: root, start: len(v.problems)}
	vb := topo.Get("variability")
	if vb.IsMap() {
		c.inputs, c.exprs = vb.Get("inputs"), vb.Get("expressions")
	}
	c.topo, c.rels = topo, topo.Get("relationship_templates")

	if vb.IsMap() {
		c.presets(vb.Get("presets"))
		if cs := vb.Get("constraints"); cs.IsList() {
			for _, x := range cs.List() {
				c.logic(x)
			}
		}
		if es := vb.Get("expressions"); es.IsMap() {
			// Named expressions are used in logic and in value position:
			// they are checked with every operator allowed.
			for i := range es.Map().Len() {
				c.logic(es.Map().Val(i))
			}
		}
		if ins := vb.Get("inputs"); ins.IsMap() {
			for i := range ins.Map().Len() {
				if in := ins.Map().Val(i); in.IsMap() {
					c.value(in.Get("default_expression"))
				}
			}
		}
		if tsc := vb.Get("type_specific_conditions"); tsc.IsMap() {
			for i := range tsc.Map().Len() {
				if types := tsc.Map().Val(i); types.IsMap() {
					for j := range types.Map().Len() {
						if w := types.Map().Val(j); w.IsMap() {
							c.logic(w.Get("conditions"))
						}
					}
				}
			}
		}
	}
	if imps := root.doc.Get("imports"); imps.IsList() {
		for _, x := range imps.List() {
			c.element(x)
		}
	}
	varEntries(topo.Get("inputs"), func(_ string, x *yamlsrc.Value) { c.element(x) })
	varEntries(topo.Get("outputs"), func(_ string, x *yamlsrc.Value) { c.element(x) })
	varEntries(topo.Get("node_templates"), func(_ string, x *yamlsrc.Value) {
		if v.ctx.Err() == nil {
			c.node(x)
		}
	})
	if c.rels.IsMap() {
		for i := range c.rels.Map().Len() {
			if r := c.rels.Map().Val(i); r.IsMap() {
				c.types(r.Get("type"))
				c.props(r.Get("properties"))
			}
		}
	}
	varEntries(topo.Get("groups"), func(_ string, x *yamlsrc.Value) { c.entity(x) })
	varEntries(topo.Get("policies"), func(_ string, x *yamlsrc.Value) { c.entity(x) })
}

// collect builds the name sets the presence operators are checked
// against, when the first one is met.
func (c *varCheck) collect() {
	if c.collected {
		return
	}
	c.collected = true
	topo := c.topo
	nodes := topo.Get("node_templates")
	c.nodes.first = make(map[string]*yamlsrc.Value, size(nodes))
	varEntries(nodes, c.nodes.add)
	varEntries(topo.Get("groups"), c.groups.add)
	varEntries(topo.Get("policies"), func(name string, x *yamlsrc.Value) {
		c.policies = append(c.policies, x)
		c.polNames.add(name, x)
	})
	c.tInputs, c.outputs = map[string]bool{}, map[string]bool{}
	varEntries(topo.Get("inputs"), func(name string, _ *yamlsrc.Value) { c.tInputs[name] = true; c.nInputs++ })
	varEntries(topo.Get("outputs"), func(name string, _ *yamlsrc.Value) { c.outputs[name] = true; c.nOutputs++ })
	if imps := c.u.doc.Get("imports"); imps.IsList() {
		c.nImports = len(imps.List())
	}
}

// varIndex holds the entries of a collection by name. A name may repeat
// (in list form, as alternatives, or by mistake, which the resolver
// reports); the entries after the first are kept aside, so that a large
// template costs one map entry per name.
type varIndex struct {
	first map[string]*yamlsrc.Value
	more  map[string][]*yamlsrc.Value
}

func (x *varIndex) add(name string, v *yamlsrc.Value) {
	if x.first == nil {
		x.first = map[string]*yamlsrc.Value{}
	}
	if _, ok := x.first[name]; !ok {
		x.first[name] = v
		return
	}
	if x.more == nil {
		x.more = map[string][]*yamlsrc.Value{}
	}
	x.more[name] = append(x.more[name], v)
}

// get returns the entries named name.
func (x *varIndex) get(name string) ([]*yamlsrc.Value, bool) {
	v, ok := x.first[name]
	if !ok {
		return nil, false
	}
	return append([]*yamlsrc.Value{v}, x.more[name]...), true
}

// varEntries walks a collection as the resolver's normaliser reads it: a map,
// or a list of single-entry maps (variability.md §3.2). Malformed entries
// are skipped; the syntax phase reports them.
func varEntries(x *yamlsrc.Value, fn func(name string, val *yamlsrc.Value)) {
	switch {
	case x.IsMap():
		for i, k := range x.Map().Keys() {
			fn(k, x.Map().Val(i))
		}
	case x.IsList():
		for _, e := range x.List() {
			if e.IsMap() && e.Map().Len() > 0 {
				fn(e.Map().Key(0), e.Map().Val(0))
			}
		}
	}
}

// report adds a problem unless one is reported at its position already.
func (c *varCheck) report(at diag.Pos, code, format string, args ...any) {
	if c.taken == nil {
		c.taken = make(map[diag.Pos]bool, c.start+8)
		for _, d := range c.v.problems[:c.start] {
			c.taken[d.Pos] = true
		}
	}
	if c.taken[at] {
		return
	}
	c.taken[at] = true
	c.v.add(at, code, format, args...)
}

// keyPos returns the position of the i-th key of map x. keyAt finds the
// keys of block maps; conditions are mostly flow maps ({equal: [...]}),
// whose key is found here before its value, on the value's line. Where
// neither can tell, the value's position is the answer.
func (c *varCheck) keyPos(x *yamlsrc.Value, i int) diag.Pos {
	p := c.u.keyAt(x, i)
	val := x.Map().Val(i)
	if val == nil || val.Line == 0 || p != c.u.at(val) {
		return p
	}
	if c.lines == nil {
		c.lines = append(c.lines, 0)
		for off, b := range c.u.data {
			if b == '\n' {
				c.lines = append(c.lines, off+1)
			}
		}
	}
	ln := int(val.Line)
	if ln > len(c.lines) {
		return p
	}
	text := c.u.data[c.lines[ln-1]:]
	if j := bytes.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	// The part of the line before the value: "... key: ".
	before, n := text, 0
	for off := range string(text) {
		if n == int(val.Col)-1 {
			before = text[:off]
			break
		}
		n++
	}
	before = bytes.TrimRight(before, " \t")
	if !bytes.HasSuffix(before, []byte{':'}) {
		return p
	}
	before = bytes.TrimRight(before[:len(before)-1], " \t")
	key := x.Map().Key(i)
	for _, q := range []string{"", `"`, "'"} {
		if w := q + key + q; bytes.HasSuffix(before, []byte(w)) {
			return diag.Pos{File: c.u.file, Line: ln, Col: utf8.RuneCount(before[:len(before)-len(w)]) + 1}
		}
	}
	return p
}

// presets checks that every input a preset assigns is declared.
func (c *varCheck) presets(x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	for i, name := range x.Map().Keys() {
		p := x.Map().Val(i)
		if !p.IsMap() {
			continue
		}
		ins := p.Get("inputs")
		if !ins.IsMap() {
			continue
		}
		for j, in := range ins.Map().Keys() {
			if !c.declared(in) {
				c.report(c.u.keyAt(ins, j), "undeclared-input", "variability input %q of variability preset %q not declared%s",
					in, name, c.suggestKeys(in, c.inputs))
			}
		}
	}
}

func (c *varCheck) declared(name string) bool {
	return c.inputs.Has(name)
}

// suggestKeys suggests one of the keys of map m.
func (c *varCheck) suggestKeys(name string, m *yamlsrc.Value) string {
	if !m.IsMap() {
		return ""
	}
	return c.v.suggest(name, func(yield func(string) bool) {
		for _, k := range m.Map().Keys() {
			if !yield(k) {
				return
			}
		}
	})
}

// suggestNames suggests one of names.
func (c *varCheck) suggestNames(name string, names []string) string {
	return c.v.suggest(name, func(yield func(string) bool) {
		for _, k := range names {
			if !yield(k) {
				return
			}
		}
	})
}

// varSuggestIn suggests one of the keys of a name index.
func varSuggestIn[T any](c *varCheck, name string, m map[string]T) string {
	return c.v.suggest(name, func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	})
}

// Elements.

// element checks the conditions and implies of an element (variability.md
// §3.4.2, §8.3).
func (c *varCheck) element(x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	if cs := x.Get("conditions"); cs.IsList() {
		for _, e := range cs.List() {
			c.logic(e)
		}
	} else {
		c.logic(cs)
	}
	if im := x.Get("implies"); im.IsList() {
		for _, e := range im.List() {
			if e.IsList() {
				for _, t := range e.List()[:min(2, len(e.List()))] {
					c.logic(t)
				}
			}
		}
	}
}

func (c *varCheck) node(x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	c.entity(x)
	varEntries(x.Get("requirements"), func(_ string, r *yamlsrc.Value) { c.element(r) })
	varEntries(x.Get("artifacts"), func(_ string, a *yamlsrc.Value) { c.entity(a) })
	if tech := x.Get("technology"); tech.IsList() {
		varEntries(tech, func(_ string, t *yamlsrc.Value) { c.element(t) })
	}
}

// entity is an element with types and properties: a node template, a
// group, a policy or an artifact.
func (c *varCheck) entity(x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	c.element(x)
	c.types(x.Get("type"))
	c.props(x.Get("properties"))
}

// types checks the entries of a type list.
func (c *varCheck) types(x *yamlsrc.Value) {
	if x.IsList() {
		varEntries(x, func(_ string, t *yamlsrc.Value) { c.element(t) })
	}
}

// props checks the properties in list form: only a wrapped entry (with a
// value or an expression) is an element with conditions; the expression is
// a value expression (variability.md §3.2, §10.3). Properties in map form
// are never conditional.
func (c *varCheck) props(x *yamlsrc.Value) {
	if !x.IsList() {
		return
	}
	varEntries(x, func(_ string, p *yamlsrc.Value) {
		if p.IsMap() && (!p.Get("value").IsNull() || !p.Get("expression").IsNull()) {
			c.element(p)
			c.value(p.Get("expression"))
		}
	})
}

// Expressions.

// logic checks a logic expression (variability.md §8.4): strings and
// booleans are terms and constants, lists are values (and no booleans,
// which the resolver reports), maps are operators.
func (c *varCheck) logic(x *yamlsrc.Value) {
	if x.IsMap() {
		c.operator(x, true)
	}
}

// value checks a value expression (variability.md §9.1).
func (c *varCheck) value(x *yamlsrc.Value) {
	if x.IsMap() {
		c.operator(x, false)
	}
}

// operator checks the keys of a map in logic (or value) position and
// follows the operator the resolver dispatches on: the first recognised
// key with a value, logic operators before value operators. Keys starting
// with "_" are the resolver's markers (_generated, _bratan,
// _cached_result).
func (c *varCheck) operator(x *yamlsrc.Value, logic bool) {
	if c.depth > 0 && varCompound(x) {
		k := varWalked{x, logic}
		if c.walked[k] {
			return
		}
		if c.walked == nil {
			c.walked = map[varWalked]bool{}
		}
		c.walked[k] = true
	}
	lk, lr := "", len(varLogicOps)
	vk, vr := "", len(varValueOps)
	var typo *yamlsrc.Value // the operand of the first misspelt operator
	for i, k := range x.Map().Keys() {
		val := x.Map().Val(i)
		if r, ok := varLogicRank[k]; ok && logic {
			if r < lr && !val.IsNull() {
				lk, lr = k, r
			}
			continue
		}
		if r, ok := varValueRank[k]; ok {
			if r < vr && !val.IsNull() {
				vk, vr = k, r
			}
			continue
		}
		if strings.HasPrefix(k, "_") {
			continue
		}
		if _, ok := varLogicRank[k]; ok {
			c.report(c.keyPos(x, i), "unknown-operator", "logic operator %q in a value expression", k)
			continue
		}
		candidates := allOf(varValueOps)
		if logic {
			candidates = allOf(varLogicOps, varValueOps)
		}
		hint := c.v.suggest(k, candidates)
		where := "a value expression"
		if logic {
			where = "a condition"
		}
		c.report(c.keyPos(x, i), "unknown-operator", "unknown operator %q in %s%s", k, where, hint)
		if hint != "" && typo == nil {
			typo = val
		}
	}
	c.depth++
	switch {
	case lk != "":
		c.logicOperator(lk, x.Get(lk))
	case vk != "":
		c.valueOperator(vk, x.Get(vk))
	case typo != nil:
		// A misspelt operator (equals for equal) still holds
		// expressions: {equals: [{variability_input: enviroment}, prod]}
		// has a second defect inside it.
		c.misspeltOperands(typo)
	}
	c.depth--
}

// misspeltOperands checks the maps among the operands of a misspelt operator as
// value expressions.
func (c *varCheck) misspeltOperands(arg *yamlsrc.Value) {
	switch {
	case arg.IsMap():
		c.value(arg)
	case arg.IsList():
		for _, item := range arg.List() {
			if item.IsMap() {
				c.value(item)
			}
		}
	}
}

// varCompound reports whether map x has an operand that is a list or a map,
// which may hold more expressions.
func varCompound(x *yamlsrc.Value) bool {
	for i := range x.Map().Len() {
		if val := x.Map().Val(i); val.IsList() || val.IsMap() {
			return true
		}
	}
	return false
}

func (c *varCheck) logicOperator(key string, arg *yamlsrc.Value) {
	switch key {
	case "logic_expression":
		c.expression(arg, "logic expression")
	case "and", "or", "xor", "exo", "amo":
		if arg.IsList() {
			for _, e := range arg.List() {
				c.logic(e)
			}
		}
	case "not":
		c.logic(arg)
	case "implies":
		if arg.IsList() {
			for _, e := range arg.List()[:min(2, len(arg.List()))] {
				c.logic(e)
			}
		}
	default:
		c.presence(key, arg)
	}
}

// valueOperator follows the operands the evaluator evaluates (variability.md
// §9.2); the others (the bounds of in_range, the data of the statistics,
// the operands of the date operators, ...) are literals.
func (c *varCheck) valueOperator(key string, arg *yamlsrc.Value) {
	switch key {
	case "variability_input":
		if arg.IsString() && !c.declared(arg.Str()) {
			c.report(c.u.at(arg), "undeclared-input", "variability input %q not declared%s", arg.Str(), c.suggestKeys(arg.Str(), c.inputs))
		}
	case "value_expression":
		c.expression(arg, "value expression")
	case "add", "sub", "mul", "div", "concat", "equal":
		c.operands(arg, -1)
	case "mod", "greater", "greater_or_equal", "less", "less_or_equal", "length", "min_length", "max_length":
		c.operands(arg, 2)
	case "token", "in_range":
		c.operands(arg, 1)
	case "join":
		if arg.IsList() && len(arg.List()) > 0 {
			c.operands(arg.List()[0], -1)
		}
	case "valid_values":
		c.operands(arg, 1)
		if arg.IsList() && len(arg.List()) > 1 {
			c.operands(arg.List()[1], -1)
		}
	}
}

// operands checks the first n items of a list of operands (all for n < 0).
func (c *varCheck) operands(arg *yamlsrc.Value, n int) {
	if !arg.IsList() {
		return
	}
	list := arg.List()
	if n >= 0 && n < len(list) {
		list = list[:n]
	}
	for _, e := range list {
		c.value(e)
	}
}

// expression checks the name of a named expression.
func (c *varCheck) expression(arg *yamlsrc.Value, noun string) {
	if !arg.IsString() || c.exprs.Has(arg.Str()) {
		return
	}
	c.report(c.u.at(arg), "not-found", "%s %q not found in variability.expressions%s", noun, arg.Str(), c.suggestKeys(arg.Str(), c.exprs))
}

// Presence operators (variability.md §8.5).

func (c *varCheck) presence(key string, arg *yamlsrc.Value) {
	c.collect()
	switch key {
	case "node_presence", "host_presence", "has_source", "has_incoming_relation", "has_incoming_relation_naive",
		"has_outgoing_relation", "has_outgoing_relation_naive", "has_artifact", "has_artifact_naive":
		c.nodeRef(key, arg)
	case "relation_presence", "source_presence", "target_presence":
		c.relationOf(key, arg)
	case "policy_presence", "has_present_target":
		c.policyRef(key, arg)
	case "group_presence", "has_present_member":
		c.groupRef(key, arg)
	case "artifact_presence", "is_managed":
		c.artifactRef(key, arg)
	case "input_presence", "is_consumed":
		c.indexed(key, arg, "input", c.tInputs, c.nInputs)
	case "output_presence", "is_produced":
		c.indexed(key, arg, "output", c.outputs, c.nOutputs)
	case "import_presence":
		if varIsNumber(arg) {
			c.indexed(key, arg, "import", nil, c.nImports)
		}
	case "technology_presence":
		if arg.IsList() && len(arg.List()) > 0 {
			c.nodeRef(key, arg.List()[0])
		}
	case "node_property_presence", "node_type_presence":
		if n, name, ok := c.nodeOf(key, arg); ok {
			c.member(key, arg, n, sub("node template", name, nil), key == "node_type_presence", false)
		}
	case "relation_property_presence", "relation_type_presence":
		if reqs, what, ok := c.relationOf(key, arg); ok {
			c.member(key, arg, c.relTemplates(reqs), what, key == "relation_type_presence", false)
		}
	case "group_property_presence", "group_type_presence":
		if arg.IsList() && len(arg.List()) > 0 {
			if gs, name, ok := c.groupRef(key, arg.List()[0]); ok {
				c.member(key, arg, gs, sub("group", name, nil), key == "group_type_presence", false)
			}
		}
	case "policy_property_presence", "policy_type_presence":
		if arg.IsList() && len(arg.List()) > 0 {
			if ps, what, ok := c.policyRef(key, arg.List()[0]); ok {
				c.member(key, arg, ps, what, key == "policy_type_presence", false)
			}
		}
	case "artifact_property_presence", "artifact_type_presence":
		if as, what, ok := c.artifactRef(key, arg); ok {
			c.member(key, arg, as, what, key == "artifact_type_presence", true)
		}
	}
}

// varContextual reports whether a reference names an element relative to the
// one the condition belongs to.
func varContextual(x *yamlsrc.Value) bool {
	if !x.IsString() {
		return false
	}
	switch x.Str() {
	case "SELF", "CONTAINER", "SOURCE", "TARGET":
		return true
	}
	return false
}

func varIsNumber(x *yamlsrc.Value) bool { return x != nil && x.Kind == yamlsrc.KindNumber }

// varInRange reports whether number n indexes a list of length l, as
// JavaScript's list[n] does.
func varInRange(n float64, l int) bool { return n >= 0 && n == math.Trunc(n) && n < float64(l) }

func varNum(n float64) string { return strconv.FormatFloat(n, 'g', -1, 64) }

// varThereAre renders "there is 1 policy", "there are 2 policies".
func varThereAre(n int, noun string) string {
	if n == 1 {
		return "there is " + varCount(n, noun)
	}
	return "there are " + varCount(n, noun)
}

// varCount renders "1 policy", "2 policies", "0 imports".
func varCount(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	switch {
	case n == 1:
		return s
	case strings.HasSuffix(noun, "y"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// nodeRef checks a node reference and returns the node template's
// alternatives; ok is false where the reference cannot be followed.
func (c *varCheck) nodeRef(key string, x *yamlsrc.Value) ([]*yamlsrc.Value, bool) {
	if !x.IsString() || varContextual(x) {
		return nil, false
	}
	if ns, ok := c.nodes.get(x.Str()); ok {
		return ns, true
	}
	c.report(c.u.at(x), "not-found", "node template %q in %s not found%s", x.Str(), key, varSuggestIn(c, x.Str(), c.nodes.first))
	return nil, false
}

// nodeOf follows the node part of a list reference.
func (c *varCheck) nodeOf(key string, arg *yamlsrc.Value) ([]*yamlsrc.Value, string, bool) {
	if !arg.IsList() || len(arg.List()) == 0 {
		return nil, "", false
	}
	ns, ok := c.nodeRef(key, arg.List()[0])
	if !ok {
		return nil, "", false
	}
	return ns, arg.List()[0].Str(), true
}

// relationOf checks the relation part [node, requirement] of a reference
// and returns the requirement assignments it names.
func (c *varCheck) relationOf(key string, arg *yamlsrc.Value) ([]*yamlsrc.Value, subject, bool) {
	return c.memberRef(key, arg, "requirements", "requirement")
}

// artifactRef checks [node, artifact name or index] and returns the
// artifacts it names.
func (c *varCheck) artifactRef(key string, arg *yamlsrc.Value) ([]*yamlsrc.Value, subject, bool) {
	return c.memberRef(key, arg, "artifacts", "artifact")
}

// memberRef checks [node, name or index] of a member of the node template
// in its collection field, whose entries are each a noun, and returns the
// entries it names.
func (c *varCheck) memberRef(key string, arg *yamlsrc.Value, field, noun string) ([]*yamlsrc.Value, subject, bool) {
	ns, name, ok := c.nodeOf(key, arg)
	if !ok || len(arg.List()) < 2 {
		return nil, subject{}, false
	}
	node := sub("node template", name, nil)
	entries := c.pick(key, arg.List()[1], ns, field, noun, node)
	if entries == nil {
		return nil, subject{}, false
	}
	m := arg.List()[1]
	if m.IsString() {
		return entries, sub(noun, m.Str(), &node), true
	}
	return entries, subject{noun: noun + " " + varNum(m.Num()), of: &node}, true
}

// pick selects the entries of field (a collection) of the alternatives of
// a container by name or index and reports a name or index that selects
// none. It returns the values of the selected entries, nil where there are
// none or the reference cannot be followed.
func (c *varCheck) pick(key string, sel *yamlsrc.Value, alts []*yamlsrc.Value, field, noun string, of subject) []*yamlsrc.Value {
	var out []*yamlsrc.Value
	switch {
	case sel.IsString():
		var names []string
		for _, a := range alts {
			varEntries(a.Get(field), func(n string, x *yamlsrc.Value) {
				if n == sel.Str() {
					out = append(out, x)
				}
				names = append(names, n)
			})
		}
		if out == nil {
			c.report(c.u.at(sel), "not-found", "%s %q of %s in %s not found%s", noun, sel.Str(), of.text(), key, c.suggestNames(sel.Str(), names))
		}
	case varIsNumber(sel):
		most := 0
		for _, a := range alts {
			i := 0
			varEntries(a.Get(field), func(_ string, x *yamlsrc.Value) {
				if float64(i) == sel.Num() {
					out = append(out, x)
				}
				i++
			})
			most = max(most, i)
		}
		if out == nil {
			c.report(c.u.at(sel), "not-found", "%s %s of %s in %s not found: it has %s", noun, varNum(sel.Num()), of.text(), key, varCount(most, noun))
		}
	}
	return out
}

// relTemplates returns the relationship templates of requirement
// assignments, which hold the relation's types and properties (variability.md
// §3.4.1); nil where one cannot be followed (a relationship given as a map,
// or a template that does not exist, which render reports).
func (c *varCheck) relTemplates(reqs []*yamlsrc.Value) []*yamlsrc.Value {
	out := []*yamlsrc.Value{}
	for _, r := range reqs {
		rel := r.Get("relationship")
		switch {
		case rel.IsNull():
		case rel.IsString() && c.rels.Get(rel.Str()).IsMap():
			out = append(out, c.rels.Get(rel.Str()))
		default:
			return nil
		}
	}
	return out
}

// member checks the last item of a property or type reference (the
// resolver takes the last, whatever the length) against the properties or
// types of the container's alternatives. Properties are checked by name
// only: the resolver appends fallback properties to every container
// (variability.md §3.4.3), so an index past the written ones may exist.
func (c *varCheck) member(key string, arg *yamlsrc.Value, alts []*yamlsrc.Value, of subject, isType, artifact bool) {
	if alts == nil || !arg.IsList() || len(arg.List()) < 2 {
		return
	}
	sel := arg.List()[len(arg.List())-1]
	if !isType {
		if sel.IsString() {
			c.pick(key, sel, alts, "properties", "property", of)
		}
		return
	}
	if !sel.IsString() && !varIsNumber(sel) {
		return
	}
	var names []string
	most := 0
	for _, a := range alts {
		ts := varTypeNames(a, artifact)
		names = append(names, ts...)
		most = max(most, len(ts))
	}
	if sel.IsString() {
		if slices.Contains(names, sel.Str()) {
			return
		}
		c.report(c.u.at(sel), "not-found", "type %q of %s in %s not found%s", sel.Str(), of.text(), key, c.suggestNames(sel.Str(), names))
		return
	}
	if !varInRange(sel.Num(), most) {
		c.report(c.u.at(sel), "not-found", "type %s of %s in %s not found: it has %s", varNum(sel.Num()), of.text(), key, varCount(most, "type"))
	}
}

// varTypeNames returns the names of the type list of a template, artifact
// types defaulting to tosca.artifacts.File (variability.md §3.2).
func varTypeNames(x *yamlsrc.Value, artifact bool) []string {
	if artifact && (x.IsString() || (x.IsMap() && !x.Has("type"))) {
		return []string{varArtifactType}
	}
	t := x.Get("type")
	if t.IsString() {
		return []string{t.Str()}
	}
	var out []string
	if t.IsList() {
		varEntries(t, func(n string, _ *yamlsrc.Value) { out = append(out, n) })
	}
	return out
}

// groupRef checks a group reference (a name).
func (c *varCheck) groupRef(key string, x *yamlsrc.Value) ([]*yamlsrc.Value, string, bool) {
	if !x.IsString() || varContextual(x) {
		return nil, "", false
	}
	if gs, ok := c.groups.get(x.Str()); ok {
		return gs, x.Str(), true
	}
	c.report(c.u.at(x), "not-found", "group %q in %s not found%s", x.Str(), key, varSuggestIn(c, x.Str(), c.groups.first))
	return nil, "", false
}

// policyRef checks a policy reference (a name or an index).
func (c *varCheck) policyRef(key string, x *yamlsrc.Value) ([]*yamlsrc.Value, subject, bool) {
	switch {
	case varContextual(x):
	case x.IsString():
		if ps, ok := c.polNames.get(x.Str()); ok {
			return ps, sub("policy", x.Str(), nil), true
		}
		c.report(c.u.at(x), "not-found", "policy %q in %s not found%s", x.Str(), key, varSuggestIn(c, x.Str(), c.polNames.first))
	case varIsNumber(x):
		if varInRange(x.Num(), len(c.policies)) {
			return c.policies[int(x.Num()) : int(x.Num())+1], subject{noun: "policy " + varNum(x.Num())}, true
		}
		c.report(c.u.at(x), "not-found", "policy %s in %s not found: %s", varNum(x.Num()), key, varThereAre(len(c.policies), "policy"))
	}
	return nil, subject{}, false
}

// indexed checks a reference to a topology input, output or import by
// name or index.
func (c *varCheck) indexed(key string, x *yamlsrc.Value, noun string, names map[string]bool, n int) {
	switch {
	case varContextual(x):
	case x.IsString() && names != nil:
		if !names[x.Str()] {
			c.report(c.u.at(x), "not-found", "%s %q in %s not found%s", noun, x.Str(), key, varSuggestIn(c, x.Str(), names))
		}
	case varIsNumber(x):
		if !varInRange(x.Num(), n) {
			c.report(c.u.at(x), "not-found", "%s %s in %s not found: %s", noun, varNum(x.Num()), key, varThereAre(n, noun))
		}
	}
}
