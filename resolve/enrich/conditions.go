package enrich

import (
	"strings"

	"v4t/model/graph"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

func str(s string) *Value { return yamlsrc.NewString(s) }

// num returns the number i. Small ones, the indexes of almost every
// generated condition, are shared: no stage changes a number in place
// (simplification replaces list items, generatify adds map keys).
func num(i int32) *Value {
	if uint(i) < uint(len(smallNums)) {
		return smallNums[i]
	}
	return yamlsrc.NewNumber(float64(i))
}

var smallNums = func() (nums [64]*Value) {
	for i := range nums {
		nums[i] = yamlsrc.NewNumber(float64(i))
	}
	return nums
}()

func list(v ...*Value) *Value { return yamlsrc.NewList(v...) }

// Presence is the generated presence condition of an element (§3.3). Each
// call returns a fresh value, so that in-place simplification never touches
// another element's condition.
func Presence(e *Element) *Value { return presence(e, false) }

// presence is Presence; with room, its map has room for a second key
// (yamlsrc.MapOf1Room), for a presence that is the whole of the condition
// generic makes for an element (a part that is alone), which generatify
// marks with _generated.
func presence(e *Element, room bool) *Value {
	a := e.Graph.Values
	switch e.Kind {
	case graph.KindNode:
		return mapOf1(a, room, "node_presence", e.NameValue())
	case graph.KindRelation:
		return pairOf(a, room, "relation_presence", e.Container.NameValue(), num(e.Index))
	case graph.KindProperty:
		return memberPresence(e, &propertyPresence, room)
	case graph.KindType:
		return memberPresence(e, &typePresence, room)
	case graph.KindArtifact:
		return pairOf(a, room, "artifact_presence", e.Container.NameValue(), num(e.Index))
	case graph.KindTechnology:
		return pairOf(a, room, "technology_presence", e.Container.NameValue(), num(e.Index))
	case graph.KindPolicy:
		return mapOf1(a, room, "policy_presence", num(e.Index))
	case graph.KindGroup:
		return mapOf1(a, room, "group_presence", str(e.Name))
	case graph.KindInput:
		return mapOf1(a, room, "input_presence", num(e.Index))
	case graph.KindOutput:
		return mapOf1(a, room, "output_presence", num(e.Index))
	}
	return mapOf1(a, room, "import_presence", num(e.Index))
}

// mapOf1, opOf and pairOf are yamlsrc.MapOf1, OpOf and PairOf, made in a
// (the graph's Values), with room for a second key where room holds
// (yamlsrc.MapOf1Room).
func mapOf1(a *yamlsrc.Values, room bool, key string, v *Value) *Value {
	if room {
		return a.MapOf1Room(key, v)
	}
	return a.MapOf1(key, v)
}

func opOf(a *yamlsrc.Values, room bool, key string, items []*Value) *Value {
	if room {
		return a.OpOfRoom(key, items)
	}
	return a.OpOf(key, items)
}

func pairOf(a *yamlsrc.Values, room bool, key string, x, y *Value) *Value {
	if room {
		return a.PairOfRoom(key, x, y)
	}
	return a.PairOf(key, x, y)
}

// memberKeys are the keys <container kind>_<what>_presence of one what,
// indexed by the container's kind.
type memberKeys [graph.KindImport + 1]string

var propertyPresence, typePresence = presenceKeys("property"), presenceKeys("type")

func presenceKeys(what string) memberKeys {
	var keys memberKeys
	for k := range keys {
		keys[k] = graph.Kind(k).String() + "_" + what + "_presence"
	}
	return keys
}

// memberPresence builds {<container kind>_<what>_presence: [...container
// TOSCA id, index]}, the key taken from keys, with room as presence.
func memberPresence(e *Element, keys *memberKeys, room bool) *Value {
	c := e.Container
	n := 1
	switch c.Kind {
	case graph.KindNode, graph.KindGroup, graph.KindPolicy:
		n = 2
	case graph.KindRelation, graph.KindArtifact:
		n = 3
	}
	// The operands are the operator's list: cut from the run's memory.
	args := e.Graph.Values.List(n)[:0]
	switch c.Kind {
	case graph.KindNode, graph.KindGroup:
		args = append(args, c.NameValue())
	case graph.KindPolicy:
		args = append(args, num(c.Index))
	case graph.KindRelation, graph.KindArtifact:
		args = append(args, c.Container.NameValue(), num(c.Index))
	}
	args = append(args, num(e.Index))
	return opOf(e.Graph.Values, room, keys[c.Kind], args)
}

// bratify builds the default-alternative condition not(or(others)) of e
// (§5.10), others being the elements of list but e.
func bratify(list []*Element, e *Element) *Value {
	ors := e.Graph.Values.List(len(list))[:0]
	for _, o := range list {
		if o != e {
			ors = append(ors, Presence(o))
		}
	}
	c := e.Graph.Values.MapOf1Room("not", e.Graph.Values.OpOf("or", ors))
	c.Map().Set("_bratan", valueTrue)
	return c
}

// bratan returns the default-alternative condition of an element, or nil for
// kinds without one.
func bratan(e *Element) *Value {
	g := e.Graph
	switch e.Kind {
	case graph.KindRelation:
		return bratify(e.Container.OutgoingNamed(e.Name), e)
	case graph.KindProperty:
		return bratify(e.Container.PropertiesNamed(e.Name), e)
	case graph.KindArtifact:
		return bratify(e.Container.ArtifactsNamed(e.Name), e)
	case graph.KindType:
		return bratify(e.Container.Types, e)
	case graph.KindTechnology:
		return bratify(e.Container.Technologies, e)
	case graph.KindInput:
		return bratify(g.InputsByName(e.Name), e)
	case graph.KindOutput:
		return bratify(g.OutputsByName(e.Name), e)
	}
	return nil
}

// simplify is the reference's in-place simplification: an and/or with one
// child becomes that child, recursively; nothing else is touched. Like the
// reference it fails on a null it descends into and on an and/or operand
// that is no list.
func simplify(c *Value, e *Element) (*Value, error) {
	if c == nil || c.Kind == yamlsrc.KindNull {
		// Quirk: null-in-condition: a null operand of a simplified and/or.
		return nil, errAt(e, graph.MsgCannotReadNull("and"))
	}
	if !c.IsMap() {
		return c, nil
	}
	for _, op := range [...]string{"and", "or"} {
		x := c.Get(op)
		if x.IsNull() {
			continue
		}
		if !x.IsList() {
			return nil, errAt(e, graph.MsgNotAFunction("conditions."+op+".map"))
		}
		for i, y := range x.List() {
			s, err := simplify(y, e)
			if err != nil {
				return nil, err
			}
			x.List()[i] = s
		}
		if len(x.List()) == 1 {
			return x.List()[0], nil
		}
	}
	return c, nil
}

// generatify marks a condition as generated.
func generatify(c *Value, e *Element) (*Value, error) {
	switch {
	case c.IsMap():
		c.Map().Set("_generated", valueTrue)
		return c, nil
	case c.IsList():
		// Quirk: JavaScript sets a property on the array that no later
		// stage sees; the list stays a (manual) list.
		return c, nil
	case c.IsNull():
		return nil, errAt(e, msgCannotSetNull("_generated"))
	}
	return nil, errAt(e, graph.MsgNotObject(c))
}

// wrapper is a default-condition candidate (§5.6).
type wrapper struct {
	conditions            *Value
	consistency, semantic bool
}

// jsonCopy deep-copies a value through JSON like the reference's
// utils.copy: dates become ISO strings.
func jsonCopy(v *Value) *Value {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case yamlsrc.KindTime:
		return str(js.FormatTime(v.Num()))
	case yamlsrc.KindMap:
		m := yamlsrc.NewMap()
		for i, k := range v.Map().Keys() {
			m.Map().Set(k, jsonCopy(v.Map().Val(i)))
		}
		return m
	case yamlsrc.KindList:
		l := make([]*Value, len(v.List()))
		for i, x := range v.List() {
			l[i] = jsonCopy(x)
		}
		return list(l...)
	}
	c := *v
	return &c
}

// typeSpecific looks up the type-specific wrapper of an element (§5.9).
// tsc is the template's type_specific_conditions.
func typeSpecific(e *Element, tsc *Value) (*wrapper, error) {
	if tsc.IsNull() {
		return nil, nil
	}
	var found *Value
	lookup := func(key string, single bool) error {
		m := tsc.Get(key)
		if m.IsNull() {
			return nil
		}
		if single && len(e.Types) > 1 {
			return nil
		}
		if len(e.Types) == 0 {
			return errAt(e, graph.MsgCannotReadUndefined("name"))
		}
		found = m.Get(e.Types[0].Name)
		return nil
	}
	var err error
	switch e.Kind {
	case graph.KindNode:
		if len(e.Types) == 1 {
			err = lookup("node_types", true)
		}
	case graph.KindRelation:
		err = lookup("relationship_types", true)
	case graph.KindGroup:
		err = lookup("group_types", true)
	case graph.KindPolicy:
		err = lookup("policy_types", true)
	case graph.KindArtifact:
		// Quirk: the lookup key is the normalised type list converted to a
		// string, so artifact type-specific conditions never apply (§5.9).
		found = tsc.Get("artifact_types").Get(yamlsrc.String(e.Raw.Get("type")))
	}
	if err != nil || found.IsNull() {
		return nil, err
	}
	if !found.IsMap() {
		return nil, errAt(e, msgTypeSpecificWithoutConditions(e))
	}
	if found.Get("conditions").IsNull() {
		return nil, errAt(e, msgTypeSpecificWithoutConditions(e))
	}
	w := &wrapper{conditions: jsonCopy(found.Get("conditions")), consistency: false, semantic: true}
	if c := found.Get("consistency"); !c.IsNull() {
		w.consistency = c.Truthy()
	}
	if s := found.Get("semantic"); !s.IsNull() {
		w.semantic = s.Truthy()
	}
	return w, nil
}

// andOf is {and: conds} for generic's candidates, but conds[0] itself where it
// is the only one: Conditions simplifies every candidate it selects, which
// turns the and of one condition into that condition, and most generic
// conditions have one part (a property's or an artifact's container, a
// node's one semantic part), so the and's map and list were made only to
// be dropped: 3% of the bytes a batch of the 256-run space allocated. The
// and it makes has room for generatify's marker; the parts have it where
// they are alone (generic).
func andOf(a *yamlsrc.Values, conds []*Value) *Value {
	if len(conds) == 1 {
		return conds[0]
	}
	return a.OpOfRoom("and", conds)
}

// modeParts splits an element's default-condition mode and checks its parts.
// Elements without their own default_condition_mode take the kind's parts,
// split and checked once per Conditions run (kinds).
func modeParts(e *Element, kinds *kindModes) ([]string, error) {
	known := modeKnown[e.Kind]
	if e.Keys&graph.KeyDefaultConditionMode != 0 {
		if m := e.Raw.Get("default_condition_mode"); !m.IsNull() {
			if m.Kind != yamlsrc.KindString {
				return nil, errAt(e, graph.MsgNotAFunction("mode.split"))
			}
			return splitMode(e, m.Str(), known)
		}
	}
	k := &kinds[e.Kind]
	if !k.done {
		k.parts, k.ok = checkMode(e.Graph.Options.Kinds[e.Kind].Mode, known)
		k.done = true
	}
	if !k.ok {
		return nil, errAt(e, msgUnknownMode(e, e.Graph.Options.Kinds[e.Kind].Mode))
	}
	return k.parts, nil
}

// kindModes caches the split default-condition mode of each kind.
type kindModes [graph.KindImport + 1]struct {
	parts    []string
	ok, done bool
}

func splitMode(e *Element, mode string, known []string) ([]string, error) {
	parts, ok := checkMode(mode, known)
	if !ok {
		return nil, errAt(e, msgUnknownMode(e, mode))
	}
	return parts, nil
}

// checkMode splits mode at "-" and reports whether every part is known.
func checkMode(mode string, known []string) ([]string, bool) {
	parts := strings.Split(mode, "-")
	for _, p := range parts {
		ok := false
		for _, k := range known {
			if p == k {
				ok = true
			}
		}
		if !ok {
			return nil, false
		}
	}
	return parts, true
}

// modeKnown lists the default-condition mode parts each kind knows (§5.8);
// kinds without an entry have no mode to check.
var modeKnown = [graph.KindImport + 1][]string{
	graph.KindNode:       {"host", "source", "incoming", "incomingnaive", "outgoing", "outgoingnaive", "artifact", "artifactnaive"},
	graph.KindRelation:   {"source", "target"},
	graph.KindProperty:   {"container", "consuming"},
	graph.KindArtifact:   {"container", "managed"},
	graph.KindTechnology: {"container", "other"},
}

// nodePart is a node mode part other than host (§5.8): the operator of
// the condition it adds, where the node has any of the elements of.
type nodePart struct {
	operator string
	of       func(*Element) []*Element
}

var nodeParts = map[string]nodePart{
	"source":        {"has_source", outgoing},
	"incoming":      {"has_incoming_relation", ingoing},
	"incomingnaive": {"has_incoming_relation_naive", ingoing},
	"outgoing":      {"has_outgoing_relation", outgoing},
	"outgoingnaive": {"has_outgoing_relation_naive", outgoing},
	"artifact":      {"has_artifact", artifacts},
	"artifactnaive": {"has_artifact_naive", artifacts},
}

func outgoing(n *Element) []*Element  { return n.Outgoing }
func ingoing(n *Element) []*Element   { return n.Ingoing }
func artifacts(n *Element) []*Element { return n.Artifacts }

// generic returns the element-generic wrappers (§5.8) for the element's
// checked mode parts (modeParts). Conditions checks the mode of every
// element, even where no wrapper is needed, and calls generic only where
// one is, which keeps elements without default conditions or pruning from
// allocating conditions nobody reads.
func generic(ws []wrapper, e *Element, parts []string) []wrapper {
	a := e.Graph.Values
	switch e.Kind {
	case graph.KindNode:
		// The parts that apply counted first, so that the condition of
		// one that is alone gets room for generatify's marker (presence).
		n := 0
		for _, p := range parts {
			if nodePartApplies(e, p) {
				n++
			}
		}
		return append(ws, wrapper{conditions: andOf(a, nodeConditions(e, parts, n)), semantic: true})
	case graph.KindRelation, graph.KindProperty, graph.KindTechnology:
		n := 0 // the parts that add a condition (partCondition)
		for _, p := range parts {
			if p != "consuming" || len(e.Consuming) > 0 {
				n++
			}
		}
		// The list is made at its length in the run's memory: appended
		// to from nil, it was a fifth of a batch run's allocations.
		cs := a.List(n)[:0]
		for _, p := range parts {
			if c := partCondition(e, p, n == 1); c != nil {
				cs = append(cs, c)
			}
		}
		return append(ws, wrapper{conditions: andOf(a, cs), consistency: true})
	case graph.KindArtifact:
		var cons, sems []*Value
		nCons := 0
		for _, p := range parts {
			if p == "container" {
				nCons++
			}
		}
		for _, p := range parts {
			if p == "container" {
				cons = append(cons, presence(e.Container, nCons == 1))
			} else {
				sems = append(sems, mapOf1(a, len(parts)-nCons == 1, "is_managed", str("SELF")))
			}
		}
		if len(cons) > 0 {
			ws = append(ws, wrapper{conditions: andOf(a, cons), consistency: true})
		}
		if len(sems) > 0 {
			ws = append(ws, wrapper{conditions: andOf(a, sems), semantic: true})
		}
		return ws
	case graph.KindType:
		return append(ws, wrapper{conditions: presence(e.Container, true), consistency: true})
	case graph.KindPolicy:
		return append(ws, wrapper{conditions: a.MapOf1Room("has_present_target", num(e.Index)), semantic: true})
	case graph.KindGroup:
		return append(ws, wrapper{conditions: a.MapOf1Room("has_present_member", str(e.Name)), semantic: true})
	case graph.KindInput:
		return append(ws, wrapper{conditions: a.MapOf1Room("is_consumed", num(e.Index)), semantic: true})
	case graph.KindOutput:
		return append(ws, wrapper{conditions: a.MapOf1Room("is_produced", num(e.Index)), semantic: true})
	}
	return append(ws, wrapper{conditions: yamlsrc.NewBool(true), consistency: true, semantic: true})
}

// nodeConditions is the conditions of a node's checked mode parts, one per
// part that applies (nodePartApplies), in their order; n is how many
// apply, and one alone gets room for generatify's marker (presence).
func nodeConditions(e *Element, parts []string, n int) []*Value {
	a, name := e.Graph.Values, e.NameValue()
	cs, room := a.List(n)[:0], n == 1
	for _, p := range parts {
		if !nodePartApplies(e, p) {
			continue
		}
		if p == "host" {
			cs = append(cs, mapOf1(a, room, "host_presence", str("SELF")))
		} else {
			cs = append(cs, mapOf1(a, room, nodeParts[p].operator, name))
		}
	}
	return cs
}

// nodePartApplies reports whether a node's checked mode part adds a
// condition: host where the node has a host, the others where the node
// has what they name.
func nodePartApplies(e *Element, part string) bool {
	if part == "host" {
		return e.HasHost()
	}
	np, ok := nodeParts[part]
	return ok && len(np.of(e)) > 0
}

// partCondition is the consistency condition of one checked mode part of a
// relation, property or technology; nil where the part adds none. room is
// presence's.
func partCondition(e *Element, part string, room bool) *Value {
	switch part {
	case "source", "container":
		return presence(e.Container, room)
	case "target":
		return presence(e.Target, room)
	case "consuming":
		if len(e.Consuming) == 0 {
			return nil
		}
		ors := e.Graph.Values.List(len(e.Consuming))
		for i, c := range e.Consuming {
			ors[i] = Presence(c)
		}
		return opOf(e.Graph.Values, room, "or", ors)
	}
	// "other": the technology's alternatives.
	return bratify(e.Container.Technologies, e)
}

// switches are the per-element switches of §5.7.
type switches struct {
	defaultEnabled, pruningEnabled                                       bool
	defaultConsistency, defaultSemantic, consistencyPrune, semanticPrune bool
}

// switchKeys are the element keys that override a kind's switches.
var switchKeys = [...]string{"default_condition", "pruning", "default_consistency_condition",
	"default_semantic_condition", "consistency_pruning", "semantic_pruning", "persistent"}

// switchSet is switchKeys as a graph.KeySet.
var switchSet = graph.KeysOf(switchKeys[:]...)

// hasSwitchKey reports whether the element's map has a key of switchKeys;
// most elements have none and take their kind's switches as they are.
func hasSwitchKey(raw *Value) bool {
	if !raw.IsMap() {
		return false
	}
	for _, k := range raw.Map().Keys() {
		for _, s := range switchKeys {
			if k == s {
				return true
			}
		}
	}
	return false
}

func elementSwitches(e *Element) (switches, error) {
	k := e.Graph.Options.Kinds[e.Kind]
	raw := e.Raw
	s := switches{
		defaultEnabled:     k.Default,
		pruningEnabled:     k.Pruning,
		defaultConsistency: k.DefaultConsistency,
		defaultSemantic:    k.DefaultSemantic,
		consistencyPrune:   k.ConsistencyPruning,
		semanticPrune:      k.SemanticPruning,
	}
	if e.Keys&switchSet != 0 && hasSwitchKey(raw) {
		pick := func(fallback bool, keys ...string) bool {
			for _, key := range keys {
				if v := raw.Get(key); !v.IsNull() {
					return v.Truthy()
				}
			}
			return fallback
		}
		s = switches{
			defaultEnabled:     pick(k.Default, "default_condition"),
			pruningEnabled:     pick(k.Pruning, "pruning"),
			defaultConsistency: pick(k.DefaultConsistency, "default_consistency_condition", "default_condition"),
			defaultSemantic:    pick(k.DefaultSemantic, "default_semantic_condition", "default_condition"),
			consistencyPrune:   pick(k.ConsistencyPruning, "consistency_pruning", "pruning"),
			semanticPrune:      pick(k.SemanticPruning, "semantic_pruning", "pruning"),
		}
		if e.Kind == graph.KindNode {
			if p := raw.Get("persistent"); !p.IsNull() {
				if p.Kind != yamlsrc.KindBool {
					return s, errAt(e, graph.MsgNotBoolean(p))
				}
				if p.Bool {
					s.defaultEnabled, s.pruningEnabled = false, false
				}
			}
		}
	}
	if e.Kind == graph.KindImport {
		s.defaultEnabled, s.pruningEnabled = false, false
	}
	return s, nil
}

// ownConditions returns the element's conditions with those of its
// variability groups (nodes and relations), without nulls. The result
// shares e.Conditions where that is all of it; it is never modified.
func ownConditions(e *Element) []*Value {
	conds := e.Conditions
	if e.Kind == graph.KindNode || e.Kind == graph.KindRelation {
		copied := false
		for _, gr := range e.Groups {
			if gr.Variability {
				if !copied {
					conds, copied = append([]*Value(nil), e.Conditions...), true
				}
				conds = append(conds, gr.Conditions...)
			}
		}
	}
	for i, c := range conds {
		if c.IsNull() {
			filtered := append([]*Value(nil), conds[:i]...)
			for _, c := range conds[i+1:] {
				if !c.IsNull() {
					filtered = append(filtered, c)
				}
			}
			return filtered
		}
	}
	return conds
}

// leanPresence says that e is a type element of a lean build whose generated
// condition, the presence of its container, the encoder can make itself
// (Element.ContainerPresence): that of a node, or of a relation, whose
// condition names the node, which a node named TARGET or SOURCE would
// not (the presence operators read those names as the ends of the
// condition's relation and fail).
func leanPresence(e *Element) bool {
	if e.Kind != graph.KindType || !e.Graph.Lean {
		return false
	}
	c := e.Container
	switch c.Kind {
	case graph.KindRelation:
		c = c.Container
	case graph.KindNode:
	default:
		return false
	}
	return c.Name != "TARGET" && c.Name != "SOURCE"
}

// Conditions runs condition enrichment on graph #2 (§5.6) and stores the
// final lists in each element's Conditions.
func Conditions(g *graph.Graph) error {
	_, err := conditions(g, false)
	return err
}

// Enrich runs condition enrichment, constraint enrichment and the cleanup
// on graph #2 (§5.6 to §5.13), as Conditions, Constraints and Cleanup in
// turn would. The cleanup's walk over every final condition (cleanConditions)
// is done as each element's list is made, while its conditions are in the
// cache, and its first refusal reported where the cleanup would report it:
// on a large template the walk read every condition's memory once more,
// long after enrichment had it at hand.
func Enrich(g *graph.Graph, writeBack bool) error {
	refused, err := conditions(g, true)
	if err != nil {
		return err
	}
	if err := Constraints(g); err != nil {
		return err
	}
	if refused != nil {
		return refused
	}
	return cleanup(g, writeBack)
}

// conditions is Conditions; with walk, it also returns the error of the
// first final condition that cleanCondition refuses, in the order of
// cleanConditions.
func conditions(g *graph.Graph, walk bool) (refused, err error) {
	varInputs := g.Variability().Get("inputs")
	tsc := g.Variability().Get("type_specific_conditions")
	// Only an input named like an element id (which always has a dot) can
	// become an input condition; skip building ids when there is none.
	dotted := false
	if g.Options.Enricher.InputCondition && varInputs.IsMap() {
		for _, k := range varInputs.Map().Keys() {
			if strings.Contains(k, ".") {
				dotted = true
				break
			}
		}
	}
	var kinds kindModes
	for _, e := range g.Elements {
		conds := ownConditions(e)
		if e.DefaultAlternative {
			b := bratan(e)
			if b == nil {
				return nil, errAt(e, msgNoDefaultAlternativeCondition(e))
			}
			conds = e.Graph.Values.List(1)
			conds[0] = b
		}
		if dotted && !varInputs.Get(e.ID()).IsNull() {
			conds = append(conds[:len(conds):len(conds)], yamlsrc.MapOf("variability_input", str(e.ID())))
		}
		ts, err := typeSpecific(e, tsc)
		if err != nil {
			return nil, err
		}
		var parts []string
		if modeKnown[e.Kind] != nil {
			if parts, err = modeParts(e, &kinds); err != nil {
				return nil, err
			}
		}
		sw, err := elementSwitches(e)
		if err != nil {
			return nil, err
		}
		if ts == nil && len(conds) == 0 && leanPresence(e) {
			// The one candidate is generic's consistency wrapper: its
			// condition is taken as the selection below would take it,
			// and the encoder makes what it stands for.
			e.ContainerPresence = (sw.defaultEnabled && sw.defaultConsistency) || (sw.pruningEnabled && sw.consistencyPrune)
			e.Conditions = conds
			continue
		}
		var cbuf [3]wrapper
		candidates := cbuf[:0]
		if ts != nil {
			candidates = append(candidates, *ts)
		}
		if (sw.defaultEnabled && len(conds) == 0) || sw.pruningEnabled {
			candidates = generic(candidates, e, parts)
		}
		var sbuf [3]*Value
		selected := sbuf[:0]
		for _, w := range candidates {
			take := false
			if sw.defaultEnabled && len(conds) == 0 {
				if (w.consistency && sw.defaultConsistency) || (w.semantic && sw.defaultSemantic) {
					take = true
				}
			}
			if sw.pruningEnabled {
				if (w.consistency && sw.consistencyPrune) || (w.semantic && sw.semanticPrune) {
					take = true
				}
			}
			if take {
				selected = append(selected, w.conditions)
			}
		}
		if len(selected) > 0 {
			// and of one condition simplifies to that condition.
			all := selected[0]
			if len(selected) > 1 {
				all = e.Graph.Values.OpOfRoom("and", append([]*Value(nil), selected...))
			}
			simple, err := simplify(all, e)
			if err != nil {
				return nil, err
			}
			gen, err := generatify(simple, e)
			if err != nil {
				return nil, err
			}
			with := e.Graph.Values.List(1 + len(conds))
			with[0] = gen
			copy(with[1:], conds)
			conds = with
		}
		e.Conditions = conds
		if walk && refused == nil {
			refused = cleanConditionsOf(e)
		}
	}
	return refused, nil
}
