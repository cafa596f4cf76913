package graph

import (
	"strings"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/reuse"
	"v4t/model/yamlsrc"
)

// Spec variability.md §3.4 (population).

// Build runs the version check, the normaliser and the populator on doc and
// returns the element graph. doc is modified in place.
func Build(doc *Value, file string) (*Graph, error) {
	return BuildWarn(doc, file, nil)
}

// BuildWarn is Build that also passes each warning to warn (when not nil)
// as soon as it is found, so that the warnings before a failure are not
// lost; the graph keeps them in Warnings. Warnings report input that the
// reference accepts by coercing it and v4t accepts in the same way (README,
// "Malformed input"). The normaliser rewrites most such input, so a later
// build of the same document repeats only some of them: report the
// warnings of the first build.
func BuildWarn(doc *Value, file string, warn diag.Sink) (*Graph, error) {
	return BuildWith(doc, file, BuildOptions{Warn: warn})
}

// BuildOptions tune a build.
type BuildOptions struct {
	// Warn receives each warning as it is found (BuildWarn).
	Warn diag.Sink
	// Lean is for callers that never write into a type element's Raw and
	// never read a template's types or technologies from the document
	// themselves, only from the elements: resolve
	// passes it where enrich.Cleanup has no write-back to do (the
	// write-back writes into type elements' Raw). The normaliser then
	// leaves out what only such callers would see:
	//   - a node or relationship template's `type: name` stays a string,
	//     which the populator reads as [{name: {}}], and the transform
	//     keeps where that type is present (a large template has a type
	//     per template, and the list and maps made for each were a tenth of
	//     what normalisation allocated);
	//   - the `type: name` of an artifact, group or policy still becomes
	//     [{name: {}}], around one empty map shared by all, which is also
	//     the Raw of the type elements of the strings above;
	//   - a node template without technologies gets no empty technology
	//     list (another tenth): the populator reads none as empty, element
	//     enrichment makes the list where it adds technologies, a rebuild
	//     normalises again, and the transform deletes the key;
	//   - a map of node templates stays a map, whose entries the populator
	//     reads, rather than a list of single-entry maps (a map per node;
	//     the transform writes a map again).
	// Condition enrichment reads Graph.Lean: it leaves the generated
	// presence condition of a type element to the encoder
	// (Element.ContainerPresence).
	Lean bool
	// Arrays, when set, is where the build takes the arrays that its
	// elements and their lists are cut from (Arrays).
	Arrays *Arrays
	// Values is the graph's Values.
	Values *yamlsrc.Values
}

// Arrays keeps the arrays that an owner's graphs cut their elements and
// short lists from, from one run to the next (model/reuse): a batch
// worker builds its run's graphs, and drops them, run after run. After
// Reset, nothing may use a graph built with it before.
type Arrays struct {
	elements  reuse.Arrays[Element]
	templates reuse.Arrays[TemplateParts]
	nodeLinks reuse.Arrays[NodeLinks]
	props     reuse.Arrays[PropertyParts]
	links     reuse.Arrays[Links]
	values    reuse.Arrays[*Value]
	lists     reuse.Arrays[*Element]
	names     reuse.Arrays[elementNames]
	// nodeMaps are the graphs' maps of node names, and targets the
	// populator's list of relation targets, which only a build uses.
	nodeMaps nameMaps
	targets  []*Value
}

// nameMaps hands out maps of node names, each kept for a later build
// once Reset took it back: a map is a node's worth of memory, and a large
// template's run made one of 28 MiB for every graph it built (the
// 256-run space of benchmarks/scaling.sh), a twentieth of its bytes.
type nameMaps struct {
	free, used []sizedMap
}

type sizedMap struct {
	m map[string]*Element
	// size is the most entries the map was made or used for.
	size int
}

// take returns an empty map for about n names, one of the free maps where
// one is made for at least n and for not many more: clearing a map costs
// its room, which a batch's small runs after a large one would pay for.
func (m *nameMaps) take(n int) map[string]*Element {
	if m == nil {
		return make(map[string]*Element, n)
	}
	for i := len(m.free) - 1; i >= 0; i-- {
		if f := m.free[i]; f.size >= n && f.size <= 4*max(n, 4096) {
			m.free = append(m.free[:i], m.free[i+1:]...)
			clear(f.m)
			m.used = append(m.used, f)
			return f.m
		}
	}
	x := make(map[string]*Element, n)
	m.used = append(m.used, sizedMap{x, n})
	return x
}

// reset makes the maps handed out available again, at most a few: those
// of the run before.
func (m *nameMaps) reset() {
	for i := range m.used {
		m.used[i].size = max(m.used[i].size, len(m.used[i].m))
	}
	m.free = append(m.free[:0], m.used...)
	clear(m.used)
	m.used = m.used[:0]
}

// Reset makes the arrays of the graphs built since the last Reset
// available to the next builds.
func (a *Arrays) Reset() {
	if a != nil {
		a.elements.Reset()
		a.templates.Reset()
		a.nodeLinks.Reset()
		a.props.Reset()
		a.links.Reset()
		a.values.Reset()
		a.lists.Reset()
		a.names.Reset()
		a.nodeMaps.reset()
	}
}

// nameMaps and elementLists are where a build takes its node name map and
// its element lists from (nil: allocated).
func (a *Arrays) nameMaps() *nameMaps {
	if a == nil {
		return nil
	}
	return &a.nodeMaps
}

func (a *Arrays) elementLists() *reuse.Arrays[*Element] {
	if a == nil {
		return nil
	}
	return &a.lists
}

// use sizes p's slabs and makes them cut from a (nil: allocate).
func (p *populator) use(a *Arrays) {
	for k := range p.elements {
		p.elements[k].First, p.elements[k].Most = 4, maxSlab
		p.templates[k].First, p.templates[k].Most = 4, maxSlab
	}
	p.nodeLinks.First, p.nodeLinks.Most = 4, maxSlab
	p.props.First, p.props.Most = 4, maxSlab
	p.links.First, p.links.Most = 4, maxSlab
	p.g.names.First, p.g.names.Most = 8, 256
	p.arrays, p.g.lists = a, a.elementLists()
	if a == nil {
		return
	}
	for k := range p.elements {
		p.elements[k].From = &a.elements
		p.templates[k].From = &a.templates
		p.valueLists[k].From = &a.values
		p.elementLists[k].From = &a.lists
	}
	p.nodeLinks.From = &a.nodeLinks
	p.props.From = &a.props
	p.links.From = &a.links
	p.g.names.From = &a.names
	p.targets = a.targets[:0]
}

// BuildWith is Build with options.
func BuildWith(doc *Value, file string, o BuildOptions) (*Graph, error) {
	warn := o.Warn
	version, ok := ParseVersion(doc.Get("tosca_definitions_version"))
	if !ok {
		// At the value, or at the document when the field is missing.
		pos := diag.Pos{File: file, Line: int(doc.Line), Col: int(doc.Col)}
		if v := doc.Get("tosca_definitions_version"); v != nil {
			pos.Line, pos.Col = int(v.Line), int(v.Col)
		}
		return nil, diag.At(pos, diag.StageLoad, msgUnsupportedVersion)
	}
	w := &warner{file: file, sink: warn}
	var emptyType *Value
	if o.Lean {
		emptyType = yamlsrc.NewMap()
	}
	if err := normalize(doc, file, w, emptyType); err != nil {
		return nil, err
	}
	g := &Graph{Doc: doc, File: file, Version: version, Lean: o.Lean, Values: o.Values,
		nodesByName:   map[string]*Element{},
		groupsByName:  map[string]*Element{},
		policiesByNm:  map[string][]*Element{},
		inputsByName:  map[string][]*Element{},
		outputsByName: map[string][]*Element{},
	}
	p := &populator{g: g, w: w, emptyType: emptyType}
	p.use(o.Arrays)
	err := p.run()
	if o.Arrays != nil {
		// Kept, with the values they point to, until the next build:
		// the Arrays hold that memory anyway.
		o.Arrays.targets = p.targets[:0]
	}
	if err != nil {
		return nil, err
	}
	g.Warnings = w.list
	return g, nil
}

type populator struct {
	g *Graph
	w *warner
	// The elements and their per-kind parts are allocated in slabs, one
	// per kind: the graph lists its elements kind by kind, each kind in
	// the order of its creation, so that every pass over g.Elements reads
	// them in the order of their addresses (creation interleaves the kinds:
	// a node, its type, its relations and theirs).
	elements  [KindImport + 1]slab[Element]
	templates [KindImport + 1]slab[TemplateParts]
	nodeLinks slab[NodeLinks]
	props     slab[PropertyParts]
	links     slab[Links]
	// rts is topology_template.relationship_templates; rels holds a
	// relationship for each of them, and rtsUsed marks the ones a relation
	// uses, by position (a relationship template is used once).
	rts     *Value
	rels    []Relationship
	rtsUsed []bool
	// nextRT is the position after the last relationship template found:
	// templates tend to list them in the order their relations use them
	// (yamlsrc.Map.IndexNear).
	nextRT int
	// emptyType is set in a lean build (BuildOptions.Lean): the Raw of
	// the type element of a `type: name` left a string.
	emptyType *Value
	// valueLists and elementLists hold the short lists of the elements
	// (conditions, types, outgoing relations), per kind of the element
	// that has them, as the elements are.
	valueLists   [KindImport + 1]listSlab[*Value]
	elementLists [KindImport + 1]listSlab[*Element]
	// names groups each template's properties by name.
	names NameGrouper
	// targets holds the target node value of each relation (nil for
	// none), in the order of g.Relations. relations reads it while the
	// requirement's map is at hand; connect, which must wait for every
	// node (a relation may name a node defined after it), then need not
	// look each map up again when it is long out of the cache: that was a
	// third of connecting on the ring.
	targets []*Value
	// arrays is where the build takes its memory (nil: allocated).
	arrays *Arrays
}

// relationTarget reads the target node value of the requirement
// assignment raw.
func relationTarget(raw *Value) *Value {
	if raw.Kind == yamlsrc.KindString {
		return raw
	}
	return raw.Get("node")
}

// appendTo appends e to list, one of the graph's lists of elements of
// kind k, doubling the capacity when it is full (append grows a long
// slice by a quarter at a time, which allocated five times the final size
// of the graph's long lists: types, properties, relations). The larger
// list is cut like the build's other lists (listSlab), so that a batch
// worker's runs take it from the run before: growing them from the heap
// was a twentieth of the bytes of the 256-run space of
// benchmarks/scaling.sh, and the nodes' lists of incoming relations
// another fortieth.
func (p *populator) appendTo(k Kind, list []*Element, e *Element) []*Element {
	if len(list) == cap(list) {
		grown := p.elementLists[k].Cut(max(2*len(list), 4))
		copy(grown, list)
		list = grown[:len(list)]
	}
	return append(list, e)
}

// newRelationship returns the relationship of the template name.
func (p *populator) newRelationship(name string, raw *Value) *Relationship {
	if len(p.rels) == 0 {
		return &Relationship{Name: name, Raw: raw}
	}
	rs := &p.rels[0]
	p.rels = p.rels[1:]
	rs.Name, rs.Raw = name, raw
	return rs
}

// errRef is an error at v where the reference fails with a JavaScript
// error: msg says what is wrong, reference is the reference's message.
func (p *populator) errRef(v *Value, msg, reference string) error {
	return diag.AtRef(posOf(p.g.File, v), diag.StageLoad, msg, reference)
}

// maxSlab is the most values a slab allocates together.
const maxSlab = 1024

// slab allocates values of one type together, in chunks that double from
// 4 up to maxSlab so that small templates allocate little: with a slab per
// element kind, first chunks of 16 made a batch of small templates
// allocate 6% more bytes.
type slab[T any] = reuse.Slab[T]

// listSlab cuts the build's short lists (reuse.Lists).
type listSlab[T any] = reuse.Lists[T]

// topLevel is newElement for an element that no other contains (a node
// template, group, policy, import, input or output): its conditions are
// the ones written, which no default_alternative replaces (§3.4.2).
func (p *populator) topLevel(kind Kind, name string, index int, raw, entry *Value) *Element {
	e := p.newElement(kind, name, index, nil, raw, entry)
	e.Conditions = p.toList(kind, raw.Get("conditions"))
	return e
}

func (p *populator) newElement(kind Kind, name string, index int, container *Element, raw, entry *Value) *Element {
	e := p.elements[kind].New()
	*e = Element{Kind: kind, Name: name, Index: int32(index), Container: container, Raw: raw, Entry: entry, Graph: p.g,
		Keys: keysOf(raw)}
	if AmbiguousID(name, index, container != nil) {
		p.g.ambiguousIDs = true
	}
	p.g.anyKeys |= e.Keys
	switch kind {
	case KindNode, KindRelation, KindArtifact, KindPolicy, KindGroup, KindTechnology:
		e.TemplateParts = p.templates[kind].New()
	}
	switch kind {
	case KindNode:
		e.NodeLinks = p.nodeLinks.New()
	case KindProperty:
		e.PropertyParts = p.props.New()
	case KindTechnology, KindPolicy, KindGroup, KindInput, KindOutput:
		e.Links = p.links.New()
	}
	return e
}

func (p *populator) errAt(e *Element, msg string) error {
	return diag.At(e.Pos(), diag.StageLoad, msg)
}

func (p *populator) errVal(v *Value, msg string) error {
	pos := diag.Pos{File: p.g.File}
	if v != nil {
		pos.Line, pos.Col = int(v.Line), int(v.Col)
	}
	return diag.At(pos, diag.StageLoad, msg)
}

// toList is the reference's utils.toList, a new list for an element of
// the given kind (whose lists, like its elements, are cut per kind).
func (p *populator) toList(kind Kind, v *Value) []*Value {
	if v.IsNull() {
		return nil
	}
	s := &p.valueLists[kind]
	if v.IsList() {
		l := s.Cut(len(v.List()))
		copy(l, v.List())
		return l
	}
	l := s.Cut(1)
	l[0] = v
	return l
}

// initialConditions implements §3.4.2 for an element of the given kind: a
// present default_alternative key replaces the conditions by [false].
func (p *populator) initialConditions(kind Kind, raw *Value) []*Value {
	if raw.Has("default_alternative") && !raw.Get("default_alternative").IsNull() {
		l := p.valueLists[kind].Cut(1)
		l[0] = conditionFalse
		return l
	}
	return p.toList(kind, raw.Get("conditions"))
}

// conditionFalse is the condition of every default alternative, one value
// for all: nothing changes a boolean in place, and the pruning family has
// a default alternative in most of its elements, which made a list and
// a boolean each.
var conditionFalse = yamlsrc.NewBool(false)

// oneElement returns the list [e] for an element of the given kind.
func (p *populator) oneElement(kind Kind, e *Element) []*Element {
	l := p.elementLists[kind].Cut(1)
	l[0] = e
	return l
}

// run populates the graph in the reference's order: options, inputs and
// outputs, node templates (with their relations, artifacts and
// technologies) and relation targets, groups, policies, imports,
// consumers and producers; then it assembles the global element order.
func (p *populator) run() error {
	g := p.g
	opts, err := ResolveOptions(g.Doc, g.File, g.Version)
	if err != nil {
		return err
	}
	g.Options = opts
	topo := g.Topology()
	if plugins := g.Variability().Get("plugins").Get("technology"); plugins.IsList() && len(plugins.List()) > 0 {
		return p.errVal(plugins, "technology plugins are not supported")
	}
	if err := p.inputsOutputs(topo.Get("inputs"), KindInput, &g.Inputs, g.inputsByName); err != nil {
		return err
	}
	if err := p.inputsOutputs(topo.Get("outputs"), KindOutput, &g.Outputs, g.outputsByName); err != nil {
		return err
	}
	if err := p.nodes(topo); err != nil {
		return err
	}
	if err := p.groups(topo.Get("groups")); err != nil {
		return err
	}
	if err := p.policies(topo.Get("policies")); err != nil {
		return err
	}
	if err := p.imports(g.Doc.Get("imports")); err != nil {
		return err
	}
	if err := p.consumers(); err != nil {
		return err
	}
	if err := p.producers(); err != nil {
		return err
	}
	g.assemble()
	return g.persistentCheck()
}

// nodes populates the node templates, checks that every relationship
// template is used, and connects the relations to their targets.
func (p *populator) nodes(topo *Value) error {
	nodes := topo.Get("node_templates")
	if nodes.IsNull() {
		return nil
	}
	// A lean build leaves the node templates a map (normalize).
	lean := p.emptyType != nil && nodes.IsMap()
	if !nodes.IsList() && !lean {
		return p.errVal(nodes, msgNotNormalized("Node templates"))
	}
	n := len(nodes.List())
	if lean {
		n = nodes.Map().Len()
	}
	// Sized once: the names of the nodes and relationship templates, and
	// the nodes.
	p.g.nodesByName = p.arrays.nameMaps().take(n)
	p.g.Nodes = p.arrays.elementLists().Make(n)[:0]
	p.rts = topo.Get("relationship_templates")
	if rts := p.rts; rts.IsMap() {
		p.rels = make([]Relationship, rts.Map().Len())
		p.rtsUsed = make([]bool, rts.Map().Len())
	}
	if lean {
		for i := range n {
			raw := nodes.Map().Val(i)
			if err := p.node(nodes.Map().Key(i), raw, raw); err != nil {
				return err
			}
		}
	}
	for _, item := range nodes.List() {
		name, raw, err := entry(p.g.File, item)
		if err != nil {
			return err
		}
		if err := p.node(name, raw, item); err != nil {
			return err
		}
	}
	if rts := topo.Get("relationship_templates"); rts.IsMap() {
		for i, name := range rts.Map().Keys() {
			if !p.rtsUsed[i] {
				return p.errVal(rts.Map().Val(i), msgRelationshipNeverUsed(name))
			}
		}
	}
	return p.connect()
}

// node populates the node template name, raw, of the entry item, with its
// types, properties, relations, artifacts and technologies.
func (p *populator) node(name string, raw, item *Value) error {
	g := p.g
	if _, dup := g.nodesByName[name]; dup {
		return p.errVal(item, msgDefinedMultipleTimes("Node", name))
	}
	if name == "SELF" {
		return p.errVal(item, msgNodeNamed(name))
	}
	if name == "CONTAINER" {
		return p.errVal(item, msgNodeNamed(name))
	}
	node := p.topLevel(KindNode, name, -1, raw, item)
	if err := p.weight(node, raw); err != nil {
		return err
	}
	node.at = int32(len(g.Nodes))
	g.Nodes = append(g.Nodes, node)
	g.nodesByName[name] = node
	if err := p.typesAndProperties(node, raw); err != nil {
		return err
	}
	if err := p.relations(node, raw); err != nil {
		return err
	}
	if err := p.artifacts(node, raw); err != nil {
		return err
	}
	return p.technologies(node, raw)
}

// weight sets the weight of a node: 1 unless given, a number from 0 to 1.
func (p *populator) weight(node *Element, raw *Value) error {
	node.Weight = 1
	w := raw.Get("weight")
	if w.IsNull() {
		return nil
	}
	if w.Kind != yamlsrc.KindNumber {
		return p.errAt(node, msgWeightNotNumber(w, node))
	}
	if w.Num() < 0 {
		return p.errAt(node, msgWeightNegative(w, node))
	}
	if w.Num() > 1 {
		return p.errAt(node, msgWeightAboveOne(w, node))
	}
	node.Weight = w.Num()
	return nil
}

// connect connects each relation to its target node.
//
// A relation's target is most often the node after the last relation's
// target, or that node again (a chain, the ring's each node's two
// relations to the next two nodes; components on one host), so connect
// compares those two nodes' names first: a name that names a node names
// that node alone. A lookup in the map of names misses the processor's
// caches once the map outgrows them, at ring seed 100,000 (200,000
// nodes) for every relation, where the two nodes next to the last target
// are in the cache.
func (p *populator) connect() error {
	g := p.g
	next := 0
	for i, r := range g.Relations {
		target := p.targets[i]
		targetName := yamlsrc.String(target)
		var t *Element
		switch {
		case next < len(g.Nodes) && g.Nodes[next].Name == targetName:
			t = g.Nodes[next]
		case next > 0 && next <= len(g.Nodes) && g.Nodes[next-1].Name == targetName:
			t = g.Nodes[next-1]
		default:
			t = g.nodesByName[targetName]
		}
		if t == nil || target == nil || target.Kind != yamlsrc.KindString {
			return p.errAt(r, msgTargetMissing(targetName, r))
		}
		next = int(t.at) + 1
		r.Target = t
		t.Ingoing = p.appendTo(KindNode, t.Ingoing, r)
	}
	return nil
}

// groups populates the groups.
func (p *populator) groups(groups *Value) error {
	notList := func() error { return p.errVal(groups, msgNotNormalized("Groups")) }
	return p.listed(groups, notList, func(_ int, name string, raw, item *Value) error {
		return p.group(name, raw, item)
	})
}

// group populates the group of the entry item with its members, types and
// properties.
func (p *populator) group(name string, raw, item *Value) error {
	g := p.g
	if _, dup := g.groupsByName[name]; dup {
		return p.errVal(item, msgDefinedMultipleTimes("Group", name))
	}
	group := p.topLevel(KindGroup, name, -1, raw, item)
	if err := p.variabilityGroup(group, raw); err != nil {
		return err
	}
	g.Groups = append(g.Groups, group)
	g.groupsByName[name] = group
	if err := p.members(group, raw, item); err != nil {
		return err
	}
	return p.typesAndProperties(group, raw)
}

// typesAndProperties populates the types and then the properties of el
// from its definition raw.
func (p *populator) typesAndProperties(el *Element, raw *Value) error {
	if err := p.types(el, raw); err != nil {
		return err
	}
	return p.properties(el, raw)
}

// variabilityGroup marks a group whose only type is a variability group
// type.
func (p *populator) variabilityGroup(group *Element, raw *Value) error {
	t := raw.Get("type")
	if t == nil {
		return nil
	}
	// The reference reads the first key of the first type entry
	// (utils.firstKey), which fails for a missing or null entry.
	if !t.IsList() {
		return p.errVal(t, MsgNotArray(t))
	}
	if len(t.List()) == 0 || t.List()[0].IsNull() {
		found := "none"
		if len(t.List()) > 0 {
			found = "null"
		}
		return p.errRef(valueOr(firstOrNil(t.List()), t), "expected the types of "+group.Display()+" to start with a type, found "+found,
			MsgNullToObject)
	}
	first, _, _ := firstEntry(t.List()[0])
	if first == "variability.groups.Root" || first == "variability.groups.ConditionalMembers" {
		if len(t.List()) != 1 {
			return p.errAt(group, msgVariabilityGroupConditional(group))
		}
		group.Variability = true
	}
	return nil
}

// members adds the members of a group: a string names a node template, a
// list a relation.
func (p *populator) members(group *Element, raw, item *Value) error {
	g := p.g
	members := raw.Get("members")
	switch {
	case members == nil:
		return p.errRef(item, group.DisplayUpper()+" has no members",
			MsgCannotReadUndefined("forEach"))
	case members.IsNull():
		return p.errRef(valueOr(members, item), "expected the members of "+group.Display()+" as a list, found null",
			MsgCannotReadNull("forEach"))
	case !members.IsList():
		return p.errRef(members, "expected the members of "+group.Display()+" as a list, found "+describe(members),
			MsgNotAFunction("raw.members.forEach"))
	}
	for _, m := range members.List() {
		var el *Element
		var err error
		switch {
		case m != nil && m.Kind == yamlsrc.KindString:
			el, err = g.GetNode(m, Context{})
		case m.IsList():
			el, err = g.GetRelation(m, Context{})
		default:
			return p.errVal(m, msgMemberBadFormat(m))
		}
		if err != nil {
			return withPos(err, p.g.File, m)
		}
		el.Groups = append(el.Groups, group)
		group.Members = append(group.Members, el)
	}
	return nil
}

// policies populates the policies with their targets, types and
// properties.
func (p *populator) policies(pols *Value) error {
	g := p.g
	notList := func() error { return p.errVal(pols, msgNotNormalized("Policies")) }
	return p.listed(pols, notList, func(i int, name string, raw, item *Value) error {
		pol := p.topLevel(KindPolicy, name, i, raw, item)
		g.policiesByNm[name] = append(g.policiesByNm[name], pol)
		g.Policies = append(g.Policies, pol)
		if err := p.policyTargets(pol, raw); err != nil {
			return err
		}
		return p.typesAndProperties(pol, raw)
	})
}

// policyTargets adds the targets of a policy: node templates or groups.
func (p *populator) policyTargets(pol *Element, raw *Value) error {
	targets := raw.Get("targets")
	if targets.IsNull() {
		return nil
	}
	if !targets.IsList() {
		return p.errRef(targets, "expected the targets of "+pol.Display()+" as a list, found "+describe(targets),
			MsgNotAFunction("raw.targets?.forEach"))
	}
	g := p.g
	for _, t := range targets.List() {
		name := yamlsrc.String(t)
		isStr := t != nil && t.Kind == yamlsrc.KindString
		if n := g.nodesByName[name]; n != nil && isStr {
			pol.Targets = append(pol.Targets, n)
			continue
		}
		if gr := g.groupsByName[name]; gr != nil && isStr {
			pol.Targets = append(pol.Targets, gr)
			continue
		}
		return p.errVal(t, msgPolicyTargetMissing(name, pol))
	}
	return nil
}

// imports populates the imports: maps and strings (normalised to maps);
// other objects are kept without conditions.
func (p *populator) imports(imps *Value) error {
	if imps.IsNull() {
		return nil
	}
	if !imps.IsList() {
		return p.errVal(imps, msgNotNormalized("Imports"))
	}
	g := p.g
	for i, raw := range imps.List() {
		switch {
		case raw.IsNull():
			return p.errRef(valueOr(raw, imps), "expected import "+itoa(i)+" as a map or a string, found null",
				MsgCannotReadNull("conditions"))
		case raw.IsList() || raw.Kind == yamlsrc.KindTime:
			// Quirk: scalar maps (variability.md §3.2): the reference
			// keeps any object, without conditions.
			p.w.at(raw, "expected import "+itoa(i)+" as a map or a string, found "+describe(raw)+
				": kept as it is, without conditions, as the reference does")
		case !raw.IsMap():
			return p.errVal(raw, msgImportNotNormalized(i))
		}
		imp := p.topLevel(KindImport, itoa(i), i, raw, raw)
		g.Imports = append(g.Imports, imp)
	}
	return nil
}

// assemble builds the global element order (§3.3) and numbers it.
func (g *Graph) assemble() {
	n := len(g.Types) + len(g.Nodes) + len(g.Relations) + len(g.Properties) + len(g.Policies) + len(g.Groups) +
		len(g.Inputs) + len(g.Artifacts) + len(g.Imports) + len(g.Technologies) + len(g.Outputs)
	g.Elements = g.lists.Make(n)[:0]
	for _, list := range [][]*Element{g.Types, g.Nodes, g.Relations, g.Properties, g.Policies, g.Groups,
		g.Inputs, g.Artifacts, g.Imports, g.Technologies, g.Outputs} {
		g.Elements = append(g.Elements, list...)
	}
	for i, e := range g.Elements {
		e.Seq = int32(i)
	}
}

// persistentCheck is §3.4.6: a node default condition mode with both
// "incoming" and "host" needs a persistent node.
func (g *Graph) persistentCheck() error {
	if !g.Options.Checks.Persistent {
		return nil
	}
	mode := g.Options.Kinds[KindNode].Mode
	if !strings.Contains(mode, "incoming") || !strings.Contains(mode, "host") {
		return nil
	}
	nodes := g.Nodes
	if g.anyKeys&KeyPersistent == 0 {
		nodes = nil // no node says persistent
	}
	for _, n := range nodes {
		if n.Keys&KeyPersistent == 0 {
			continue
		}
		if p := n.Raw.Get("persistent"); !p.IsNull() {
			if p.Kind != yamlsrc.KindBool {
				return diag.At(n.Pos(), diag.StageLoad, MsgNotBoolean(p))
			}
			if p.Bool {
				return nil
			}
		}
	}
	return diag.At(diag.Pos{File: g.File}, diag.StageLoad, msgPersistentRequired)
}

func (p *populator) inputsOutputs(list *Value, kind Kind, into *[]*Element, byName map[string][]*Element) error {
	if list.IsNull() {
		return nil
	}
	if !list.IsList() {
		if kind == KindInput {
			return p.errVal(list, msgNotNormalized("Inputs"))
		}
		return p.errVal(list, msgNotNormalized("Outputs"))
	}
	var order []string
	for i, item := range list.List() {
		name, raw, err := itemEntry(p.g.File, item, "an "+kind.String(), refNoEntry)
		if err != nil {
			return err
		}
		if !item.IsMap() {
			// Quirk: scalar maps (variability.md §3.2).
			p.w.at(item, "expected an "+kind.String()+" as a map with one entry, found "+describe(item)+
				": read as \"0\" with its first "+map[bool]string{true: "character", false: "item"}[item.IsString()]+", as the reference does")
		}
		if !raw.IsMap() {
			if raw.IsNull() {
				return p.errRef(valueOr(raw, item), "expected the "+kind.String()+" \""+name+"\" as a map, found null",
					MsgCannotReadNull("conditions"))
			}
			if item.IsMap() {
				// Quirk: scalar maps (variability.md §3.2).
				p.w.at(valueOr(raw, item), "expected the "+kind.String()+" \""+name+"\" as a map, found "+describe(raw)+
					": kept as it is, without conditions, as the reference does")
			}
		}
		e := p.topLevel(kind, name, i, raw, item)
		e.DefaultAlternative = raw.Get("default_alternative").Truthy()
		if _, ok := byName[name]; !ok {
			order = append(order, name)
		}
		byName[name] = append(byName[name], e)
		*into = append(*into, e)
	}
	for _, name := range order {
		if countDefaults(byName[name]) > 1 {
			l := byName[name]
			return p.errAt(l[0], msgMultipleDefaults(l[0]))
		}
	}
	return nil
}

func countDefaults(list []*Element) int {
	n := 0
	for _, e := range list {
		if e.DefaultAlternative {
			n++
		}
	}
	return n
}

func (p *populator) types(el *Element, tmpl *Value) error {
	t := tmpl.Get("type")
	if t.IsNull() {
		return p.errAt(el, MsgHasNoType(el))
	}
	if t.IsString() && p.emptyType != nil {
		// A lean build's [{name: {}}]: no conditions, no default.
		ty := p.newElement(KindType, t.Str(), 0, el, p.emptyType, t)
		p.g.Types = p.appendTo(KindType, p.g.Types, ty)
		if el.Types == nil {
			el.Types = p.oneElement(el.Kind, ty)
		} else {
			el.Types = append(el.Types, ty)
		}
		return nil
	}
	if !t.IsList() {
		return p.errAt(el, msgListOfNotNormalized("Types", el))
	}
	if el.Types == nil {
		el.Types = p.elementLists[el.Kind].Cut(len(t.List()))[:0]
	}
	for i, item := range t.List() {
		if item.IsNull() {
			return p.errRef(valueOr(item, t), "expected a type entry of "+el.Display()+" as a map, found null",
				MsgNullToObject)
		}
		name, raw, ok := firstEntry(item)
		if !ok {
			return p.errRef(valueOr(item, t), "expected a type entry of "+el.Display()+" as a map with one entry, found "+describe(item),
				MsgNotIterableSymbol("undefined"))
		}
		if !item.IsMap() {
			// Quirk: scalar maps (variability.md §3.2).
			p.w.at(item, "expected a type entry of "+el.Display()+" as a map, found "+describe(item)+
				": read as type \"0\", as the reference does")
		}
		if raw.IsNull() {
			return p.errRef(valueOr(raw, item), "expected the type assignment \""+name+"\" of "+el.Display()+" as a map, found null",
				MsgCannotReadNull("default_alternative"))
		}
		if !raw.IsMap() && item.IsMap() {
			p.w.at(valueOr(raw, item), "expected the type assignment \""+name+"\" of "+el.Display()+" as a map, found "+describe(raw)+
				": read as one without conditions, as the reference does")
		}
		ty := p.newElement(KindType, name, i, el, raw, item)
		ty.Conditions = p.initialConditions(KindType, raw)
		ty.DefaultAlternative = raw.Get("default_alternative").Truthy()
		p.g.Types = p.appendTo(KindType, p.g.Types, ty)
		el.Types = append(el.Types, ty)
	}
	if countDefaults(el.Types) > 1 {
		return p.errAt(el, msgMultipleDefaultTypes(el))
	}
	return nil
}

func (p *populator) properties(el *Element, tmpl *Value) error {
	if !tmpl.IsMap() {
		return p.errAt(el, msgElementNotNormalized(el))
	}
	props := tmpl.Get("properties")
	if props.IsNull() {
		return nil
	}
	g := p.g
	if props.IsList() && el.Properties == nil {
		// Made at the length of the list (fallbacks, appended later,
		// copy it): grown from nil, an element's properties were the
		// build's most frequent allocation left.
		el.Properties = p.elementLists[el.Kind].Cut(len(props.List()))[:0]
	}
	notList := func() error { return p.errAt(el, msgListOfNotNormalized("Properties", el)) }
	err := p.listed(props, notList, func(i int, name string, raw, item *Value) error {
		if !raw.IsMap() {
			return p.errVal(item, "expected a property assignment map, found "+describe(raw))
		}
		prop := p.newElement(KindProperty, name, i, el, raw, item)
		prop.Value = raw.Get("value")
		prop.Expression = raw.Get("expression")
		prop.Conditions = p.initialConditions(KindProperty, raw)
		prop.DefaultAlternative = raw.Get("default_alternative").Truthy()
		el.Properties = append(el.Properties, prop)
		g.Properties = p.appendTo(KindProperty, g.Properties, prop)
		return nil
	})
	if err != nil {
		return err
	}
	groups := p.names.Groups(el.Properties)
	// Fallback properties (§3.4.3), only while bratans are unknown.
	if !g.Variability().Get("options").Get("bratans_unknown").IsTrue() {
		for _, group := range groups {
			if countDefaults(group) > 0 {
				continue
			}
			some := group[0]
			raw := yamlsrc.MapOf(
				"value", fallbackValue,
				"default_alternative", fallbackTrue,
				"implied", fallbackTrue,
				"pruning", fallbackTrue,
			)
			// The reference numbers a new fallback by the size of its name
			// group, but only the next build's ids are ever used, and there
			// the index is the position in the list (variability.md §3.4.3).
			fb := p.newElement(KindProperty, some.Name, len(el.Properties), el, raw, some.Entry)
			fb.Value = raw.Get("value")
			fb.Conditions = p.initialConditions(KindProperty, raw)
			fb.DefaultAlternative = true
			el.Properties = append(el.Properties, fb)
			g.Properties = p.appendTo(KindProperty, g.Properties, fb)
			list := tmpl.Get("properties")
			if el.Kind == KindRelation {
				list = el.Relationship.Raw.Get("properties")
			}
			list.SetList(append(list.List(), g.Values.MapOf1(some.Name, raw)))
		}
		groups = p.names.Groups(el.Properties)
	}
	for _, group := range groups {
		if countDefaults(group) > 1 {
			return p.errAt(group[0], msgMultipleDefaults(group[0]))
		}
	}
	for _, prop := range el.Properties {
		if prop.Value.IsNull() && prop.Expression.IsNull() {
			return p.errAt(prop, msgNoValueOrExpression(prop))
		}
	}
	return nil
}

// fallbackValue and fallbackTrue are the values of every fallback
// property: a template with many properties has a fallback for most of
// them, and no stage changes a value in place (they replace it).
var fallbackValue, fallbackTrue = yamlsrc.NewString(VintnerUndefined), yamlsrc.NewBool(true)

func (p *populator) relations(node *Element, tmpl *Value) error {
	g := p.g
	notList := func() error { return p.errAt(node, msgRequirementsNotArray(node)) }
	reqs := tmpl.Get("requirements")
	if reqs.IsList() && node.Outgoing == nil {
		// Each entry makes a relation or fails.
		node.Outgoing = p.elementLists[KindNode].Cut(len(reqs.List()))[:0]
	}
	err := p.listed(reqs, notList, func(i int, name string, raw, item *Value) error {
		switch {
		case raw.IsNull():
			return p.errRef(valueOr(raw, item), `expected the requirement assignment "`+name+`" of `+node.Display()+` as a map or a string, found null`,
				MsgCannotReadNull("relationship"))
		case raw.IsList() || raw.Kind == yamlsrc.KindTime:
			// The reference reads on without a target node (the target
			// check fails).
		case !raw.IsMap():
			return p.errVal(item, msgRequirementNotNormalized(name, node))
		}
		rel := raw.Get("relationship")
		if rel.IsMap() || rel.IsList() {
			return p.errVal(item, msgRelationshipTemplateInline(name, node))
		}
		r := p.newElement(KindRelation, name, i, node, raw, item)
		r.Conditions = p.initialConditions(KindRelation, raw)
		r.DefaultAlternative = raw.Get("default_alternative").Truthy()
		node.Outgoing = append(node.Outgoing, r)
		g.Relations = p.appendTo(KindRelation, g.Relations, r)
		p.targets = append(p.targets, relationTarget(raw))
		if rel == nil || rel.Kind != yamlsrc.KindString {
			return nil
		}
		at := -1
		if p.rts.IsMap() {
			at = p.rts.Map().IndexNear(rel.Str(), p.nextRT)
			p.nextRT = at + 1
		}
		var rt *Value
		if at >= 0 {
			rt = p.rts.Map().Val(at)
		}
		if rt.IsNull() {
			return p.errVal(rel, msgRelationshipMissing(rel.Str(), name, node))
		}
		if p.rtsUsed[at] {
			return p.errVal(rel, msgRelationshipUsedTwice(rel.Str()))
		}
		p.rtsUsed[at] = true
		rs := p.newRelationship(rel.Str(), rt)
		r.Relationship = rs
		return p.typesAndProperties(r, rt)
	})
	if err != nil {
		return err
	}
	if first := firstMultipleDefaults(node.Outgoing); first != nil {
		return p.errAt(first, msgMultipleDefaults(first))
	}
	return nil
}

// listed calls each for every entry of list, a normalised list of named
// entries ({name: definition}, variability.md §3.2): null has none, and a
// value that is no list is the error notList gives.
func (p *populator) listed(list *Value, notList func() error, each func(i int, name string, raw, item *Value) error) error {
	if list.IsNull() {
		return nil
	}
	if !list.IsList() {
		return notList()
	}
	for i, item := range list.List() {
		name, raw, err := entry(p.g.File, item)
		if err != nil {
			return err
		}
		if err := each(i, name, raw, item); err != nil {
			return err
		}
	}
	return nil
}

func (p *populator) artifacts(node *Element, tmpl *Value) error {
	g := p.g
	arts := tmpl.Get("artifacts")
	if arts.IsList() && node.Artifacts == nil {
		node.Artifacts = p.elementLists[KindNode].Cut(len(arts.List()))[:0]
	}
	notList := func() error { return p.errAt(node, msgListOfNotNormalized("Artifacts", node)) }
	err := p.listed(arts, notList, func(i int, name string, raw, item *Value) error {
		if !raw.IsMap() {
			return p.errVal(item, msgArtifactNotNormalized(name, node))
		}
		a := p.newElement(KindArtifact, name, i, node, raw, item)
		a.Conditions = p.initialConditions(KindArtifact, raw)
		a.DefaultAlternative = raw.Get("default_alternative").Truthy()
		if err := p.typesAndProperties(a, raw); err != nil {
			return err
		}
		node.Artifacts = append(node.Artifacts, a)
		g.Artifacts = p.appendTo(KindArtifact, g.Artifacts, a)
		return nil
	})
	if err != nil {
		return err
	}
	if first := firstMultipleDefaults(node.Artifacts); first != nil {
		return p.errAt(first, msgMultipleDefaults(first))
	}
	return nil
}

func (p *populator) technologies(node *Element, tmpl *Value) error {
	g := p.g
	notList := func() error { return p.errAt(node, msgListOfNotNormalized("Technologies", node)) }
	err := p.listed(tmpl.Get("technology"), notList, func(i int, name string, raw, item *Value) error {
		t := p.newElement(KindTechnology, name, i, node, raw, item)
		if !raw.IsMap() || raw.Get("assign").IsNull() {
			return p.errAt(t, msgElementNotNormalized(t))
		}
		t.Assign = yamlsrc.String(raw.Get("assign"))
		t.Conditions = p.initialConditions(KindTechnology, raw)
		t.DefaultAlternative = raw.Get("default_alternative").Truthy()
		t.Weight = 1
		if w := raw.Get("weight"); !w.IsNull() {
			if w.Kind != yamlsrc.KindNumber {
				return p.errAt(t, MsgNotNumber(w))
			}
			if w.Num() < 0 {
				return p.errAt(t, msgWeightNegative(w, t))
			}
			if w.Num() > 1 {
				return p.errAt(t, msgWeightAboveOne(w, t))
			}
			t.Weight = w.Num()
		}
		node.Technologies = append(node.Technologies, t)
		g.Technologies = p.appendTo(KindTechnology, g.Technologies, t)
		return nil
	})
	if err != nil {
		return err
	}
	if countDefaults(node.Technologies) > 1 {
		return p.errAt(node, msgMultipleDefaultTechnologies(node))
	}
	return nil
}

// consumers implements §3.4.4.
func (p *populator) consumers() error {
	g := p.g
	for _, prop := range g.Properties {
		v := prop.Value
		if !v.IsMap() {
			continue
		}
		if gi := v.Get("get_input"); !gi.IsNull() {
			if gi.Kind != yamlsrc.KindString && gi.Kind != yamlsrc.KindNumber {
				return p.errAt(prop, MsgNotStringOrNumber(gi))
			}
			input, err := g.GetInput(gi, Context{})
			if err != nil {
				return withPos(err, g.File, gi)
			}
			input.Consumers = append(input.Consumers, prop)
			prop.Consuming = append(prop.Consuming, input)
			continue
		}
		ref, err := parseReference(v)
		if err != nil {
			return withPos(err, g.File, v)
		}
		if ref == nil {
			continue
		}
		if ref.containerContainer == "" {
			el, err := g.guessElement(ref.container, Context{Element: prop.Container})
			if err != nil {
				return withPos(err, g.File, v)
			}
			if el.Kind != KindNode && el.Kind != KindGroup && el.Kind != KindPolicy {
				return p.errAt(prop, msgNotPropertyContainer(el))
			}
			prop.Consuming = append(prop.Consuming, el)
			continue
		}
		node, err := g.GetNode(yamlsrc.NewString(ref.containerContainer), Context{Element: prop.Container})
		if err != nil {
			return withPos(err, g.File, v)
		}
		found := false
		for _, r := range node.Outgoing {
			if r.Name == ref.container {
				prop.Consuming = append(prop.Consuming, r.Target)
				found = true
			}
		}
		if found {
			continue
		}
		if arts := node.ArtifactsNamed(ref.container); len(arts) > 0 {
			prop.Consuming = append(prop.Consuming, arts...)
			continue
		}
		return p.errAt(prop, msgReferenceNotFound(prop))
	}
	return nil
}

// producers implements §3.4.5.
func (p *populator) producers() error {
	g := p.g
	for _, out := range g.Outputs {
		v := out.Raw.Get("value")
		if v.IsNull() {
			return p.errAt(out, MsgUnexpected)
		}
		ref, err := parseReference(v)
		if err != nil {
			return withPos(err, g.File, v)
		}
		if ref == nil {
			continue
		}
		if ref.containerContainer != "" {
			return p.errAt(out, msgNotImplemented)
		}
		node := g.nodesByName[ref.container]
		if node == nil {
			return p.errAt(out, msgNotFound("Node", ref.container))
		}
		out.Producers = append(out.Producers, node)
	}
	return nil
}

type reference struct {
	containerContainer, container string
}

// parseReference recognises get_property/get_attribute, Unfurl's eval and
// the Jinja eval filter (§3.4.4, §3.4.5).
func parseReference(v *Value) (*reference, error) {
	if v.IsMap() {
		args := v.Get("get_property")
		if args.IsNull() {
			args = v.Get("get_attribute")
		}
		if !args.IsNull() {
			if !args.IsList() {
				return nil, diag.New(diag.StageLoad, MsgNotArray(args))
			}
			for _, a := range args.List() {
				if a == nil || a.Kind != yamlsrc.KindString {
					return nil, diag.New(diag.StageLoad, MsgNotString(a))
				}
			}
			switch len(args.List()) {
			case 2:
				return &reference{container: args.List()[0].Str()}, nil
			case 3:
				return &reference{containerContainer: args.List()[0].Str(), container: args.List()[1].Str()}, nil
			}
		}
		if ev := v.Get("eval"); !ev.IsNull() {
			if ev.Kind != yamlsrc.KindString {
				return nil, diag.New(diag.StageLoad, MsgNotString(ev))
			}
			parts := strings.Split(ev.Str(), "::")
			if len(parts) == 2 {
				return &reference{container: parts[0]}, nil
			}
		}
		return nil, nil
	}
	if v != nil && v.Kind == yamlsrc.KindString {
		if node, ok := matchJinjaEval(v.Str()); ok {
			return &reference{container: node}, nil
		}
	}
	return nil, nil
}

// matchJinjaEval matches /\{\{ ['"]::(?<node>.*)::(?<property>.*)['"] \| eval \}\}/
// with JavaScript's greedy, leftmost semantics.
func matchJinjaEval(s string) (string, bool) {
	for start := 0; start+3 <= len(s); start++ {
		if !strings.HasPrefix(s[start:], "{{ ") {
			continue
		}
		rest := s[start+3:]
		if len(rest) < 3 || (rest[0] != '\'' && rest[0] != '"') || rest[1] != ':' || rest[2] != ':' {
			continue
		}
		body := rest[3:]
		// Greedy: the last possible end marker first.
		for end := len(body); end >= 0; end-- {
			tail := body[end:]
			if len(tail) < len(`' | eval }}`) || (tail[0] != '\'' && tail[0] != '"') || !strings.HasPrefix(tail[1:], " | eval }}") {
				continue
			}
			mid := body[:end]
			// node is greedy: the last "::" in mid.
			if i := strings.LastIndex(mid, "::"); i >= 0 {
				node := mid[:i]
				if !strings.ContainsAny(node, "\n\r") && !strings.ContainsAny(mid[i+2:], "\n\r") {
					return node, true
				}
			}
		}
	}
	return "", false
}

func firstOrNil(list []*Value) *Value {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

func itoa(i int) string { return js.FormatNumber(float64(i)) }

// withPos adds a position to a diagnostic that has none.
func withPos(err error, file string, v *Value) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos.File = file
		if v != nil {
			d.Pos.Line, d.Pos.Col = int(v.Line), int(v.Col)
		}
	}
	return err
}
