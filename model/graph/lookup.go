package graph

import (
	"math"
	"unicode/utf16"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8.5 (reference arguments and lookup errors). The
// lookups reproduce the reference's argument checks and messages; a failed
// lookup returns a diagnostic without position (the caller adds one).

// Context is the element a reference is resolved against.
type Context struct {
	Element *Element
}

func fail(msg string) error { return diag.New(diag.StageSolve, msg) }

// PrettyOf renders JSON.stringify(v, null, 4), "undefined" for nil.
func PrettyOf(v *Value) string {
	if v == nil {
		return "undefined"
	}
	return yamlsrc.Pretty(v)
}

func isStr(v *Value) bool { return v != nil && v.Kind == yamlsrc.KindString }
func isNum(v *Value) bool { return v != nil && v.Kind == yamlsrc.KindNumber }
func isSelf(v *Value) bool {
	return isStr(v) && v.Str() == "SELF"
}
func isContainer(v *Value) bool {
	return isStr(v) && v.Str() == "CONTAINER"
}

func assertString(v *Value) error {
	if !isStr(v) {
		return fail(MsgNotString(v))
	}
	return nil
}

func assertStringOrNumber(v *Value) error {
	if !isStr(v) && !isNum(v) {
		return fail(MsgNotStringOrNumber(v))
	}
	return nil
}

// assertNameKey checks a [name, name or index] pair like the reference.
func assertNameKey(name, key *Value) error {
	if err := assertString(name); err != nil {
		return err
	}
	return assertStringOrNumber(key)
}

// at is JavaScript's x[i] for a list or a string.
func at(v *Value, i int) *Value {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case yamlsrc.KindList:
		if i < len(v.List()) {
			return v.List()[i]
		}
	case yamlsrc.KindString:
		u := utf16.Encode([]rune(v.Str()))
		if i < len(u) {
			return yamlsrc.NewString(string(utf16.Decode(u[i : i+1])))
		}
	}
	return nil
}

// last is the reference's utils.last: x[x.length - 1].
func last(v *Value) *Value {
	if v.IsList() && len(v.List()) > 0 {
		return v.List()[len(v.List())-1]
	}
	if isStr(v) {
		u := utf16.Encode([]rune(v.Str()))
		if len(u) > 0 {
			return yamlsrc.NewString(string(utf16.Decode(u[len(u)-1:])))
		}
	}
	return nil
}

// index returns list[n] for a JS number n, or nil.
func index(list []*Element, n float64) *Element {
	if n < 0 || n != math.Trunc(n) || n >= float64(len(list)) {
		return nil
	}
	return list[int(n)]
}

// pick is the reference's name-or-index selection: by name from named when
// key is a string (ambiguous when several share it), by index into list when
// key is a number, nil otherwise.
func pick(key *Value, named, list []*Element) (e *Element, ambiguous bool) {
	switch {
	case isStr(key):
		if len(named) > 1 {
			return nil, true
		}
		if len(named) == 1 {
			return named[0], false
		}
	case isNum(key):
		return index(list, key.Num()), false
	}
	return nil, false
}

// choose is pick with the reference's messages for word: they show printed
// pretty-printed, or key itself when printed is nil.
func choose(word string, key, printed *Value, named, list []*Element) (*Element, error) {
	e, ambiguous := pick(key, named, list)
	if ambiguous {
		if printed != nil {
			return nil, fail(msgAmbiguous(word, PrettyOf(printed)))
		}
		return nil, fail(msgAmbiguous(word, key.Str()))
	}
	if e == nil {
		if printed != nil {
			return nil, fail(msgNotFound(word, PrettyOf(printed)))
		}
		return nil, fail(msgNotFound(word, yamlsrc.String(key)))
	}
	return e, nil
}

// chooseIn is choose over list, whose elements named finds by name; it is
// asked only for a string key.
func chooseIn(word string, key, printed *Value, list []*Element, named func(string) []*Element) (*Element, error) {
	var found []*Element
	if isStr(key) {
		found = named(key.Str())
	}
	return choose(word, key, printed, found, list)
}

func notElement(e *Element, what string) error {
	if e == nil {
		return fail(msgElementNotDefined)
	}
	return fail(MsgIsNot(e, what))
}

// GetContainer returns the container of an element.
func (g *Graph) GetContainer(e *Element) (*Element, error) {
	if e == nil {
		return nil, fail(msgContainerUndefined)
	}
	if e.Container == nil {
		return nil, fail(msgNoContainer(e))
	}
	return e.Container, nil
}

// selfOrContainer resolves SELF and CONTAINER; ok is false for other values.
func (g *Graph) selfOrContainer(v *Value, ctx Context, kind Kind, what string) (*Element, bool, error) {
	var e *Element
	switch {
	case isSelf(v):
		e = ctx.Element
	case isContainer(v):
		c, err := g.GetContainer(ctx.Element)
		if err != nil {
			return nil, true, err
		}
		e = c
	default:
		return nil, false, nil
	}
	if e == nil || e.Kind != kind {
		return nil, true, notElement(e, what)
	}
	return e, true, nil
}

// GetNode resolves a node reference.
func (g *Graph) GetNode(v *Value, ctx Context) (*Element, error) {
	if err := assertString(v); err != nil {
		return nil, err
	}
	if e, ok, err := g.selfOrContainer(v, ctx, KindNode, "a node"); ok {
		return e, err
	}
	switch v.Str() {
	case "TARGET", "SOURCE":
		r := ctx.Element
		if r == nil || r.Kind != KindRelation {
			return nil, notElement(r, "a relation")
		}
		if v.Str() == "TARGET" {
			return r.Target, nil
		}
		return r.Container, nil
	}
	// A node's NameValue names it by its number: a hint, checked by the
	// name (node names are unique), since the value may have been copied
	// into another graph or reused (yamlsrc.Value.Tag).
	if t := v.Tag(); t-1 < uint64(len(g.Nodes)) {
		if n := g.Nodes[t-1]; n.Name == v.Str() {
			return n, nil
		}
	}
	n := g.nodesByName[v.Str()]
	if n == nil {
		return nil, fail(msgNotFound("Node", v.Str()))
	}
	return n, nil
}

// GetRelation resolves a relation reference.
func (g *Graph) GetRelation(member *Value, ctx Context) (*Element, error) {
	if e, ok, err := g.selfOrContainer(member, ctx, KindRelation, "a relation"); ok {
		return e, err
	}
	if !member.IsList() {
		return nil, fail(MsgNotArray(member))
	}
	return g.relationOf(member, at(member, 0), at(member, 1), ctx)
}

func (g *Graph) relationOf(printed, nodeRef, rel *Value, ctx Context) (*Element, error) {
	node, err := g.memberNode(nodeRef, rel, ctx)
	if err != nil {
		return nil, err
	}
	return chooseIn("Relation", rel, printed, node.Outgoing, node.OutgoingNamed)
}

// memberNode resolves the node of a [node, member] reference after checking
// the shape of both parts.
func (g *Graph) memberNode(nodeRef, member *Value, ctx Context) (*Element, error) {
	if err := assertNameKey(nodeRef, member); err != nil {
		return nil, err
	}
	return g.GetNode(nodeRef, ctx)
}

// GetGroup resolves a group reference.
func (g *Graph) GetGroup(v *Value, ctx Context) (*Element, error) {
	if err := assertString(v); err != nil {
		return nil, err
	}
	if e, ok, err := g.selfOrContainer(v, ctx, KindGroup, "a group"); ok {
		return e, err
	}
	gr := g.groupsByName[v.Str()]
	if gr == nil {
		return nil, fail(msgNotFound("Group", v.Str()))
	}
	return gr, nil
}

// GetPolicy resolves a policy reference (name or index).
func (g *Graph) GetPolicy(v *Value, ctx Context) (*Element, error) {
	if err := assertStringOrNumber(v); err != nil {
		return nil, err
	}
	if e, ok, err := g.selfOrContainer(v, ctx, KindPolicy, "a policy"); ok {
		return e, err
	}
	return choose("Policy", v, nil, g.policiesByNm[v.Str()], g.Policies)
}

// GetArtifact resolves an artifact reference. The node part ignores the
// context (variability.md §17.21).
func (g *Graph) GetArtifact(member *Value, ctx Context) (*Element, error) {
	if e, ok, err := g.selfOrContainer(member, ctx, KindArtifact, "an artifact"); ok {
		return e, err
	}
	return g.artifactOf(member, at(member, 0), at(member, 1))
}

func (g *Graph) artifactOf(printed, nodeRef, art *Value) (*Element, error) {
	node, err := g.memberNode(nodeRef, art, Context{})
	if err != nil {
		return nil, err
	}
	return chooseIn("Artifact", art, printed, node.Artifacts, node.ArtifactsNamed)
}

// GetImport resolves an import reference (an index).
func (g *Graph) GetImport(v *Value, ctx Context) (*Element, error) {
	if e, ok, err := g.selfOrContainer(v, ctx, KindImport, "a import"); ok {
		return e, err
	}
	if !isNum(v) {
		return nil, fail(MsgNotNumber(v))
	}
	imp := index(g.Imports, v.Num())
	if imp == nil {
		return nil, fail(msgNotFound("Import", yamlsrc.String(v)))
	}
	return imp, nil
}

// GetInput resolves an input reference (name or index).
func (g *Graph) GetInput(v *Value, ctx Context) (*Element, error) {
	return g.inputOutput(v, ctx, KindInput, "a input", "Input", g.inputsByName, g.Inputs)
}

// GetOutput resolves an output reference (name or index).
func (g *Graph) GetOutput(v *Value, ctx Context) (*Element, error) {
	return g.inputOutput(v, ctx, KindOutput, "an output", "Output", g.outputsByName, g.Outputs)
}

func (g *Graph) inputOutput(v *Value, ctx Context, kind Kind, what, word string, byName map[string][]*Element, list []*Element) (*Element, error) {
	if e, ok, err := g.selfOrContainer(v, ctx, kind, what); ok {
		return e, err
	}
	if err := assertStringOrNumber(v); err != nil {
		return nil, err
	}
	return choose(word, v, nil, byName[v.Str()], list)
}

// GetTechnology resolves [node, technology name or index].
func (g *Graph) GetTechnology(data *Value, ctx Context) (*Element, error) {
	if !data.IsList() {
		return nil, fail(MsgNotArray(data))
	}
	d0, d1 := at(data, 0), at(data, 1)
	node, err := g.memberNode(d0, d1, ctx)
	if err != nil {
		return nil, err
	}
	var found []*Element
	if isStr(d1) {
		for _, x := range node.Technologies {
			if x.Name == d1.Str() {
				found = append(found, x)
			}
		}
	}
	t, ambiguous := pick(d1, found, node.Technologies)
	if ambiguous {
		return nil, fail(msgAmbiguous("Technology", PrettyOf(data)))
	}
	if t == nil {
		// Quirk: the closing quote is missing (variability.md §17.22).
		return nil, fail(msgTechnologyNotFound(data))
	}
	return t, nil
}

// propertyOf selects from a container's properties by the last item of data
// (name or index).
func propertyOf(c *Element, data *Value) (*Element, error) {
	return chooseIn("Property", last(data), data, c.Properties, c.PropertiesNamed)
}

// typeOf selects from a container's types by the last item of data.
func typeOf(c *Element, data *Value) (*Element, error) {
	return chooseIn("Type", last(data), data, c.Types, c.TypesNamed)
}

// PropertyKind selects which container a property or type reference names.
type PropertyKind uint8

// Reference kinds for node/relation/group/policy/artifact properties and types.
const (
	RefNode PropertyKind = iota
	RefRelation
	RefGroup
	RefPolicy
	RefArtifact
)

// containerOf resolves the container part of a property or type reference
// with the reference's argument checks.
func (g *Graph) containerOf(kind PropertyKind, data *Value, ctx Context, typeRef bool) (*Element, error) {
	d0, d1, d2 := at(data, 0), at(data, 1), at(data, 2)
	c := Context{Element: ctx.Element}
	switch kind {
	case RefNode, RefGroup:
		if err := assertNameKey(d0, d1); err != nil {
			return nil, err
		}
		if kind == RefNode {
			return g.GetNode(d0, c)
		}
		return g.GetGroup(d0, c)
	case RefPolicy:
		if typeRef {
			if err := assertString(d0); err != nil {
				return nil, err
			}
		} else if err := assertStringOrNumber(d0); err != nil {
			return nil, err
		}
		if err := assertStringOrNumber(d1); err != nil {
			return nil, err
		}
		return g.GetPolicy(d0, c)
	}
	// Relations and artifacts: [node, name or index, member].
	if err := assertNameKey(d0, d1); err != nil {
		return nil, err
	}
	if err := assertStringOrNumber(d2); err != nil {
		return nil, err
	}
	if kind == RefRelation {
		return g.relationOf(yamlsrc.NewList(d0, d1), d0, d1, c)
	}
	return g.artifactOf(yamlsrc.NewList(d0, d1), d0, d1)
}

// GetProperty resolves a *_property_presence reference.
func (g *Graph) GetProperty(kind PropertyKind, data *Value, ctx Context) (*Element, error) {
	c, err := g.containerOf(kind, data, ctx, false)
	if err != nil {
		return nil, err
	}
	return propertyOf(c, data)
}

// GetType resolves a *_type_presence reference.
func (g *Graph) GetType(kind PropertyKind, data *Value, ctx Context) (*Element, error) {
	c, err := g.containerOf(kind, data, ctx, true)
	if err != nil {
		return nil, err
	}
	return typeOf(c, data)
}

// guessElement resolves a get_property container: node, else group, else
// policy.
func (g *Graph) guessElement(name string, ctx Context) (*Element, error) {
	v := yamlsrc.NewString(name)
	if e, err := g.GetNode(v, ctx); err == nil {
		return e, nil
	}
	if e, err := g.GetGroup(v, ctx); err == nil {
		return e, nil
	}
	if e, err := g.GetPolicy(v, ctx); err == nil {
		return e, nil
	}
	display := "undefined"
	if ctx.Element != nil {
		display = ctx.Element.Display()
	}
	return nil, fail(msgCouldNotGetElement(name, display))
}
