// Package graph owns the Variability4TOSCA element model of a service
// template (variability.md §3): the version check, the normaliser that
// rewrites a document into list form, the populator that builds elements
// with their ids, displays and global order, option resolution (§4), lookups
// of elements by reference (§8.5), and type inheritance walks (§5.3).
//
// A build mutates the document, exactly like the reference's graph builds,
// because enrichment writes its results back into the document and builds
// again (§1, §5.1).
//
// Checks performed by a build, in the reference's order: version, normaliser
// shape errors, option values, inputs and outputs (multiple defaults), node
// templates (names, types, properties and fallback properties, relations and
// relationship templates, artifacts, technologies and their weights), unused
// relationship templates, relation targets, groups (members, variability
// groups), policies (targets), imports, consumers and producers of property
// and output values, and the persistent-node check.
package graph

import (
	"slices"
	"strconv"
	"strings"

	"v4t/model/diag"
	"v4t/model/reuse"
	"v4t/model/yamlsrc"
)

// Value is a document node.
type Value = yamlsrc.Value

// Kind is the kind of an element.
type Kind uint8

// Element kinds.
const (
	KindNode Kind = iota
	KindRelation
	KindProperty
	KindType
	KindArtifact
	KindTechnology
	KindPolicy
	KindGroup
	KindInput
	KindOutput
	KindImport
)

var kindNames = [...]string{"node", "relation", "property", "type", "artifact", "technology", "policy", "group", "input", "output", "import"}

func (k Kind) String() string { return kindNames[k] }

// Version classes (variability.md §0).
type Version uint8

// The version classes.
const (
	V1 Version = iota
	RC2
	RC3
)

// VintnerUndefined is the value of fallback properties (§3.4.3).
const VintnerUndefined = "VINTNER_UNDEFINED"

// Element is anything that can be present or absent.
//
// The fields that only some kinds have sit behind embedded pointers, set
// for those kinds only (newElement): an element with every kind's fields
// inline took 496 bytes, and a large template has tens of thousands of
// type elements that use none of them (with the template fields inline too,
// every element took 232 bytes; now 128). Reading a promoted field of another
// kind dereferences a nil pointer, so code reads them only after checking
// the kind.
type Element struct {
	Kind               Kind
	DefaultAlternative bool
	// Present is the presence in the chosen model.
	Present bool
	// Variability marks a variability group (groups only).
	Variability bool
	// ContainerPresence says that the element's final condition is the
	// generated presence of its container alone: condition enrichment of a
	// lean build sets it on a type element, instead of making that condition
	// ({node_presence: ...} with _generated) and leaving it in Conditions,
	// and the encoder translates it as it would that condition. A large
	// template has a type per template: the condition maps were a tenth of
	// what enrichment allocated.
	ContainerPresence bool
	// Keys says which of the keys in KeySet the element's map had when
	// the graph was built.
	Keys KeySet
	Name string
	// Index is the position in the container's list, or -1; Seq is the
	// element's position in the global element order. Both are 32 bits,
	// as a document's lists are, so that together they take one word.
	Index, Seq int32
	Container  *Element
	// Raw is the element's own map in the document (for relations the
	// requirement assignment, for properties the wrapped assignment).
	Raw *Value
	// Entry is the list entry that holds the element, for positions.
	Entry *Value
	// Conditions is the element's condition list (§3.4.2; after enrichment
	// the final list, §5.6).
	Conditions []*Value

	Graph *Graph

	// names caches ID and Display, made on first use: most elements need
	// neither.
	names *elementNames

	*TemplateParts // nodes, relations, artifacts, policies, groups, technologies
	*NodeLinks     // nodes
	*PropertyParts // properties
	*Links         // technologies, policies, groups, inputs, outputs
}

// KeySet is a set of the element keys that enrichment and the encoder
// look up on every element of a kind, and that most elements do not have.
// The build records them while each element's map is at hand; the passes
// after it test the set first and look up only keys that are there: on the
// ring, each lookup pass over the elements' maps, long out of the cache,
// cost a tenth of its stage. Nothing adds these keys to an element's map
// after the build (enrichment's cleanup removes some, and clears them
// here), so a key outside the set is not in the map.
type KeySet uint16

// The keys of KeySet.
const (
	KeyImplies KeySet = 1 << iota
	KeyImplied
	KeyDefaultConditionMode
	KeyDefaultCondition
	KeyDefaultConsistencyCondition
	KeyDefaultSemanticCondition
	KeyPruning
	KeyConsistencyPruning
	KeySemanticPruning
	KeyPersistent
	KeyDefaultAlternative
)

// KeyOf is the KeySet member named k, 0 for any other key.
func KeyOf(k string) KeySet {
	switch k {
	case "implies":
		return KeyImplies
	case "implied":
		return KeyImplied
	case "default_condition_mode":
		return KeyDefaultConditionMode
	case "default_condition":
		return KeyDefaultCondition
	case "default_consistency_condition":
		return KeyDefaultConsistencyCondition
	case "default_semantic_condition":
		return KeyDefaultSemanticCondition
	case "pruning":
		return KeyPruning
	case "consistency_pruning":
		return KeyConsistencyPruning
	case "semantic_pruning":
		return KeySemanticPruning
	case "persistent":
		return KeyPersistent
	case "default_alternative":
		return KeyDefaultAlternative
	}
	return 0
}

// KeysOf is the KeySet of keys, as far as they are members.
func KeysOf(keys ...string) KeySet {
	var s KeySet
	for _, k := range keys {
		s |= KeyOf(k)
	}
	return s
}

// keysOf is the KeySet of the map raw (empty for anything else).
func keysOf(raw *Value) KeySet {
	if !raw.IsMap() {
		return 0
	}
	return KeysOf(raw.Map().Keys()...)
}

// TemplateParts are the fields of templates and of what they hold: type,
// property, input, output and import elements, often half of a
// template's elements, have none of them.
type TemplateParts struct {
	// Containers: node, relation, policy, group, artifact.
	Types      []*Element
	Properties []*Element

	// Groups are the groups a node or relation is a member of.
	Groups []*Element
	// Weight is a node's or technology's weight.
	Weight float64

	// Relation.
	Target       *Element
	Relationship *Relationship
}

// elementNames are an element's ID, ManualID and Display, and the values
// of the first two, once made.
type elementNames struct {
	id, manual, display string
	// idValue is IDValue, in the same allocation: most elements whose
	// names are asked for are named by a generated constraint too.
	idValue     Value
	manualValue *Value
}

// NodeLinks are a node's own elements and relations.
type NodeLinks struct {
	Outgoing     []*Element
	Ingoing      []*Element
	Artifacts    []*Element
	Technologies []*Element
	// nameValue is NameValue, once made.
	nameValue *Value
	// at is the node's position in Graph.Nodes when the build made it,
	// where the build's connect looks first for the next relation's
	// target.
	at int32
}

// PropertyParts are a property's value and what its value expression
// consumes.
type PropertyParts struct {
	Value      *Value
	Expression *Value
	Consuming  []*Element
}

// Links are the fields of the kinds with few elements.
type Links struct {
	// Assign is a technology's assign.
	Assign string
	// Targets are a policy's targets.
	Targets []*Element
	// Members are a group's members.
	Members []*Element
	// Consumers are the elements that consume an input.
	Consumers []*Element
	// Producers are the elements an output's value comes from.
	Producers []*Element
}

// Relationship is a relationship template used by a relation.
type Relationship struct {
	Name string
	Raw  *Value
}

// ID is the element's SAT variable name (§3.3).
func (e *Element) ID() string {
	n := e.cachedNames()
	if n.id == "" {
		n.id = e.spell("", ".", "", ".", (*Element).ID)
	}
	return n.id
}

// ManualID is the name of the element's manual variable.
func (e *Element) ManualID() string {
	n := e.cachedNames()
	switch {
	case n.manual != "":
	case n.id != "":
		n.manual = manualPrefix + n.id
	default:
		// One allocation for both: the id is the manual name's tail.
		n.manual = e.spell(manualPrefix, ".", "", ".", (*Element).ID)
		n.id = n.manual[len(manualPrefix):]
	}
	return n.manual
}

// manualPrefix starts the name of every manual variable.
const manualPrefix = "manual."

// IDValue is ID as a string value, made once per element: generated
// constraints name an element many times, and no stage changes a string
// value in place.
func (e *Element) IDValue() *Value {
	n := e.cachedNames()
	if n.idValue.Kind != yamlsrc.KindString {
		n.idValue = yamlsrc.Value{Kind: yamlsrc.KindString}
		n.idValue.SetStr(e.ID())
		n.idValue.SetTag(uint64(uint32(e.Seq)) + 1) // ElementOfID's shortcut
	}
	return &n.idValue
}

// ManualIDValue is ManualID as a string value, made once per element.
func (e *Element) ManualIDValue() *Value {
	n := e.cachedNames()
	if n.manualValue == nil {
		n.manualValue = e.Graph.values().String(e.ManualID())
		n.manualValue.SetTag(manualTag | (uint64(uint32(e.Seq)) + 1)) // ElementOfID's shortcut
	}
	return n.manualValue
}

// manualTag marks the tag of a ManualIDValue (yamlsrc.Value.Tag); the
// low bits are the element's Seq plus one, as an IDValue's tag.
const manualTag = 1 << 63

// ElementOfID returns the element whose IDValue or ManualIDValue v is
// (manual for the latter), found through the value's tag, or ok false,
// where v is another value or its element is not in g at the same
// position: a hint checked against the id, since values are copied
// between the graphs of a run and reused (yamlsrc.Value.Tag). An element's
// variable is named by its id, so a caller that finds it here may take the
// element's variable instead of looking the name up.
func (g *Graph) ElementOfID(v *Value) (e *Element, manual, ok bool) {
	t := v.Tag()
	manual = t&manualTag != 0
	i := t&^manualTag - 1
	if t == 0 || g == nil || i >= uint64(len(g.Elements)) {
		return nil, false, false
	}
	e = g.Elements[i]
	if manual {
		ok = e.ManualID() == v.Str()
	} else {
		ok = e.ID() == v.Str()
	}
	return e, manual, ok
}

// NameValue is Name as a string value. A node's is made once: generated
// conditions name a node from its types, relations and members, and no
// stage changes a string value in place (IDValue). Other kinds get a new
// value each call.
func (e *Element) NameValue() *Value {
	if e.NodeLinks == nil {
		return e.Graph.values().String(e.Name)
	}
	if e.nameValue == nil {
		e.nameValue = e.Graph.values().String(e.Name)
		e.nameValue.SetTag(uint64(e.at) + 1) // GetNode's shortcut
	}
	return e.nameValue
}

// Display is the element's lower-case display name (§3.3).
func (e *Element) Display() string {
	n := e.cachedNames()
	if n.display == "" {
		n.display = e.spell("", ` "`, `"`, " of ", (*Element).Display)
	}
	return n.display
}

func (e *Element) cachedNames() *elementNames {
	if e.names == nil {
		e.newNames()
	}
	return e.names
}

// newNames gives e the room for its names, out of line so that
// cachedNames inlines.
//
//go:noinline
func (e *Element) newNames() {
	if e.Graph == nil {
		e.names = &elementNames{}
		return
	}
	// Cut from the graph's slab: a batch run of the motivation space
	// names 75 elements, and their names were a tenth of its bytes.
	e.names = e.Graph.names.New()
}

// spell writes prefix, kind, open, name, @index, close, and then, for an
// element with a container, of and the container as container spells it:
// ID, ManualID and Display differ only in these.
func (e *Element) spell(prefix, open, close, of string, container func(*Element) string) string {
	var c string
	if e.Container != nil {
		c = container(e.Container)
	}
	kind := e.Kind.String()
	var b strings.Builder
	// One allocation: grown write by write, an id took three or four, a
	// tenth of all a batch run allocated. 12 is "@" and the longest int32.
	b.Grow(len(prefix) + len(kind) + len(open) + len(e.Name) + 12 + len(close) + len(of) + len(c))
	b.WriteString(prefix)
	b.WriteString(kind)
	b.WriteString(open)
	b.WriteString(e.Name)
	if e.Index >= 0 {
		b.WriteByte('@')
		b.WriteString(strconv.Itoa(int(e.Index)))
	}
	b.WriteString(close)
	if e.Container != nil {
		b.WriteString(of)
		b.WriteString(c)
	}
	return b.String()
}

// DisplayUpper is Display with the first character upper-cased.
func (e *Element) DisplayUpper() string {
	d := e.Display()
	return strings.ToUpper(d[:1]) + d[1:]
}

// Pos is the document position of the element.
func (e *Element) Pos() diag.Pos {
	v := e.Raw
	if v == nil || v.Line == 0 {
		v = e.Entry
	}
	p := diag.Pos{File: e.Graph.File}
	if v != nil {
		p.Line, p.Col = int(v.Line), int(v.Col)
	}
	return p
}

// WeightPos is the position of the element's weight (a node's or a
// technology's) where the template gives it, else the element's position,
// or for a technology that enrichment added, its node's. Weights that
// enrichment copies from technology rules keep the lines of the rules,
// which may be in another file: they are only used inside an entry that
// the template itself holds.
func (e *Element) WeightPos() diag.Pos {
	if e.Raw.IsMap() && e.Raw.Line > 0 {
		if w := e.Raw.Get("weight"); w != nil && w.Line > 0 {
			return diag.Pos{File: e.Graph.File, Line: int(w.Line), Col: int(w.Col)}
		}
	}
	p := e.Pos()
	if p.Line == 0 && e.Container != nil {
		return e.Container.Pos()
	}
	return p
}

// IsHostedOn reports whether a relation is a hosting relation
// (^(.*_)?host(_.*)?$).
func (e *Element) IsHostedOn() bool {
	n := e.Name
	i := strings.Index(n, "host")
	for i >= 0 {
		before := i == 0 || n[i-1] == '_'
		after := i+4 == len(n) || n[i+4] == '_'
		if before && after {
			return true
		}
		j := strings.Index(n[i+1:], "host")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// Source is the source node of a relation.
func (e *Element) Source() *Element { return e.Container }

// Hosts returns the targets of a node's hosting relations.
func (e *Element) Hosts() []*Element {
	var hosts []*Element
	for _, r := range e.Outgoing {
		if r.IsHostedOn() {
			hosts = append(hosts, r.Target)
		}
	}
	return hosts
}

// HasHost reports whether a node has a hosting relation.
func (e *Element) HasHost() bool {
	for _, r := range e.Outgoing {
		if r.IsHostedOn() {
			return true
		}
	}
	return false
}

// Persistent is the node's persistent flag (validated during population).
func (e *Element) Persistent() bool { return e.Raw.Get("persistent").IsTrue() }

// Graph is the element graph of one build.
type Graph struct {
	Doc     *Value
	File    string
	Version Version
	// Lean says that the graph was built with BuildOptions.Lean.
	Lean    bool
	Options *Options
	// Values is where the values that enrichment generates for the
	// graph's elements are made (BuildOptions.Values); nil makes each
	// on its own.
	Values *yamlsrc.Values
	// Warnings are the coercions of malformed input the build accepted as
	// the reference does (BuildWarn).
	Warnings diag.List

	Elements     []*Element
	Types        []*Element
	Nodes        []*Element
	Relations    []*Element
	Properties   []*Element
	Policies     []*Element
	Groups       []*Element
	Inputs       []*Element
	Artifacts    []*Element
	Imports      []*Element
	Technologies []*Element
	Outputs      []*Element
	// lists is where assemble takes the element order from (nil:
	// allocated; BuildOptions.Arrays).
	lists *reuse.Arrays[*Element]

	nodesByName   map[string]*Element
	groupsByName  map[string]*Element
	byName        map[namedKey]*nameIndex
	policiesByNm  map[string][]*Element
	inputsByName  map[string][]*Element
	outputsByName map[string][]*Element
	typeIndex     map[string]map[string]*Value
	// ambiguousIDs is set where an element's id might be another's too
	// (AmbiguousID), as the build creates the elements.
	ambiguousIDs bool
	// anyKeys is the union of the Keys the build gave its elements.
	anyKeys KeySet
	// names holds the elements' names as they are asked for
	// (cachedNames), cut from the build's Arrays where it had them.
	names reuse.Slab[elementNames]
}

// AnyKeys returns the keys of KeySet that some element of the build had:
// a pass that looks up only such keys can skip every element when none
// has one, without reading their memory. Keys only leave elements after
// the build, so the union stays a superset of their Keys.
func (g *Graph) AnyKeys() KeySet { return g.anyKeys }

// UniqueIDs reports that the ids of the graph's elements are certainly
// distinct: no element the build created has an AmbiguousID. It is known
// without reading the elements again (the encoder asks before it reads
// them, and on a large template each read misses the cache). A graph
// that holds only some of its build's elements (AfterCleanup) may answer
// false where its own elements would allow true; false is always safe.
func (g *Graph) UniqueIDs() bool { return !g.ambiguousIDs }

// AmbiguousID reports whether the id of an element named name might also
// be another element's. An id is kind.name[@index][.container id]; it can
// be read back unambiguously, hence is unique, unless the name holds an
// "@", or holds a "." where no index follows it but a container id does
// (index < 0 for an element without one).
func AmbiguousID(name string, index int, hasContainer bool) bool {
	return strings.IndexByte(name, '@') >= 0 || index < 0 && hasContainer && strings.IndexByte(name, '.') >= 0
}

// Topology returns topology_template, or nil.
func (g *Graph) Topology() *Value { return g.Doc.Get("topology_template") }

// Variability returns topology_template.variability, or nil.
func (g *Graph) Variability() *Value { return g.Topology().Get("variability") }

// values is where the values generated for the graph's elements are
// made (Values; nil: allocated).
func (g *Graph) values() *yamlsrc.Values {
	if g == nil {
		return nil
	}
	return g.Values
}

// NodeByName returns the node with the name, or nil.
func (g *Graph) NodeByName(name string) *Element { return g.nodesByName[name] }

// GroupByName returns the group with the name, or nil.
func (g *Graph) GroupByName(name string) *Element { return g.groupsByName[name] }

// InputsByName returns the inputs with a name.
func (g *Graph) InputsByName(name string) []*Element { return g.inputsByName[name] }

// OutputsByName returns the outputs with a name.
func (g *Graph) OutputsByName(name string) []*Element { return g.outputsByName[name] }

// PropertiesNamed returns the properties of a container with a name.
func (c *Element) PropertiesNamed(name string) []*Element {
	return c.Graph.named(c, 'p', c.Properties, name)
}

// TypesNamed returns the types of a container with a name.
func (c *Element) TypesNamed(name string) []*Element {
	return c.Graph.named(c, 't', c.Types, name)
}

// OutgoingNamed returns the outgoing relations of a node with a name.
func (c *Element) OutgoingNamed(name string) []*Element {
	return c.Graph.named(c, 'r', c.Outgoing, name)
}

// ArtifactsNamed returns the artifacts of a node with a name.
func (c *Element) ArtifactsNamed(name string) []*Element {
	return c.Graph.named(c, 'a', c.Artifacts, name)
}

// named finds elements by name with a lazily built index per container and
// list, so that lookups stay linear overall.
func (g *Graph) named(c *Element, list byte, elems []*Element, name string) []*Element {
	if len(elems) <= 8 {
		var out []*Element
		for _, e := range elems {
			if e.Name == name {
				out = append(out, e)
			}
		}
		return out
	}
	if g.byName == nil {
		g.byName = map[namedKey]*nameIndex{}
	}
	k := namedKey{c: c, list: list}
	idx := g.byName[k]
	if idx == nil {
		idx = &nameIndex{}
		idx.group, idx.groups = groupByName(elems)
		g.byName[k] = idx
	}
	if gi, ok := idx.group[name]; ok {
		return idx.groups[gi]
	}
	return nil
}

// namedKey is one of a container's lists.
type namedKey struct {
	c    *Element
	list byte
}

// nameIndex is the elements of a list grouped by name.
type nameIndex struct {
	group  map[string]int32
	groups [][]*Element
}

// NameGroups returns the elements grouped by name in order of first
// appearance of each name.
func NameGroups(elems []*Element) [][]*Element {
	if len(elems) <= smallGroups {
		groups, _ := smallNameGroups(elems, nil, nil)
		return groups
	}
	_, groups := groupByName(elems)
	return groups
}

// NameGrouper is NameGroups for a pass that groups many short lists one
// after another (constraint enrichment, for every node's properties,
// artifacts and relations): the groups of a list of at most smallGroups
// elements live in the grouper's storage until its next call, where
// NameGroups allocated twice per list (2.3% of the allocations of a batch
// of the motivation space).
type NameGrouper struct {
	flat   []*Element
	groups [][]*Element
	// index, of and sizes are groupByName's, for longer lists: a node
	// with many properties made a map per build (wide seed 3,000: 5% of
	// the bytes a resolve allocates). indexLen is the longest list index
	// has grouped since it was made.
	index    map[string]int32
	indexLen int
	of       []int32
	sizes    []int
}

// Groups is NameGroups(elems), valid until the next call.
func (ng *NameGrouper) Groups(elems []*Element) [][]*Element {
	if len(elems) > smallGroups {
		return ng.large(elems)
	}
	groups, flat := smallNameGroups(elems, ng.flat, ng.groups)
	if groups != nil {
		ng.flat, ng.groups = flat, groups
	}
	return groups
}

// large groups a list of any length by name in the grouper's storage, with
// a map from each name to its group. Clearing a map costs its size, so a
// map that grouped a list more than four times as long is dropped rather
// than cleared.
func (ng *NameGrouper) large(elems []*Element) [][]*Element {
	if ng.index == nil || ng.indexLen > 4*len(elems) {
		ng.index, ng.indexLen = make(map[string]int32, len(elems)), 0
	} else {
		clear(ng.index)
	}
	ng.indexLen = max(ng.indexLen, len(elems))
	ng.of = slices.Grow(ng.of[:0], len(elems))[:len(elems)]
	ng.sizes = ng.sizes[:0]
	for i, e := range elems {
		g, ok := ng.index[e.Name]
		if !ok {
			g = int32(len(ng.sizes))
			ng.index[e.Name] = g
			ng.sizes = append(ng.sizes, 0)
		}
		ng.sizes[g]++
		ng.of[i] = g
	}
	ng.flat = slices.Grow(ng.flat[:0], len(elems))[:len(elems)]
	ng.groups = slices.Grow(ng.groups[:0], len(ng.sizes))[:len(ng.sizes)]
	start := 0
	for g, n := range ng.sizes {
		ng.groups[g] = ng.flat[start : start : start+n]
		start += n
	}
	for i, e := range elems {
		ng.groups[ng.of[i]] = append(ng.groups[ng.of[i]], e)
	}
	return ng.groups
}

// smallNameGroups is NameGroups for at most smallGroups elements: it
// searches the names met so far instead of a map, and cuts the groups from
// one array, two allocations where a slice per name took one each, and
// the list of groups one per doubling. The array and the list of groups
// reuse flat's and groups' storage where it is large enough; it returns
// the groups and the array.
func smallNameGroups(elems, flat []*Element, groups [][]*Element) ([][]*Element, []*Element) {
	if len(elems) == 0 {
		return nil, flat
	}
	var of, first, size [smallGroups]int8
	n := 0
	for i, e := range elems {
		g := 0
		for g < n && elems[first[g]].Name != e.Name {
			g++
		}
		if g == n {
			first[n] = int8(i)
			n++
		}
		of[i] = int8(g)
		size[g]++
	}
	if cap(flat) < len(elems) {
		flat = make([]*Element, len(elems))
	}
	flat = flat[:len(elems)]
	out := groups[:0]
	if cap(out) < n {
		out = make([][]*Element, n)
	}
	out = out[:n]
	pos := 0
	for g := range out {
		end := pos + int(size[g])
		out[g] = flat[pos:pos:end]
		pos = end
	}
	for i, e := range elems {
		out[of[i]] = append(out[of[i]], e)
	}
	return out, flat
}

// groupByName groups elements by name in order of first appearance, with
// the group number of each name, in storage of their own (NameGrouper's,
// kept by no grouper). Large lists are mostly of distinct names, so the
// groups are cut from one array rather than a slice per name.
func groupByName(elems []*Element) (map[string]int32, [][]*Element) {
	var ng NameGrouper
	groups := ng.large(elems)
	return ng.index, groups
}

// smallGroups is the most elements NameGroups groups without a map.
const smallGroups = 8

// firstMultipleDefaults is the first element of the first name group of
// NameGroups(elems) with more than one default alternative, or nil.
func firstMultipleDefaults(elems []*Element) *Element {
	if len(elems) > smallGroups {
		for _, group := range NameGroups(elems) {
			if countDefaults(group) > 1 {
				return group[0]
			}
		}
		return nil
	}
next:
	for i, e := range elems {
		for _, f := range elems[:i] {
			if f.Name == e.Name {
				continue next
			}
		}
		n := 0
		for _, f := range elems[i:] {
			if f.Name == e.Name && f.DefaultAlternative {
				n++
			}
		}
		if n > 1 {
			return e
		}
	}
	return nil
}
