package validate

import (
	"strconv"
	"strings"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// References between templates that rendering checks besides requirement
// targets: the members of groups (TOSCA 1.3 §3.8.5; also
// also [node, requirement name or index], variability.md §3.4), the
// targets of policies (§3.8.6), and the valid_source_types of the target
// capability of a requirement (§3.6.2, §3.7.2).

// renderMembers checks the members of a group: node templates, or
// relations of node templates. Relations are a Variability4TOSCA form,
// accepted in plain templates too: the resolver keeps them as written in
// the variants it writes, which are validated as plain templates.
func (v *validator) renderMembers(u *unit, top *topology, g *entityTemplate) {
	if !g.refs.IsList() {
		return
	}
	what := sub("group", g.name, nil)
	for _, m := range g.refs.List() {
		switch {
		case m.IsString():
			if top.byName[m.Str()] == nil {
				v.add(u.at(m), "not-found", "member %q of %s is not a node template%s", m.Str(), what.text(), v.otherTemplate(top, m.Str()))
			}
		case m.IsList() && len(m.List()) == 2 && m.List()[0].IsString() && (m.List()[1].IsString() || isIndex(m.List()[1])):
			v.relationMember(u, top, m, what)
		case u.variable || m.IsList():
			v.add(u.at(m), "kind", "expected a node template name or [node template, requirement name or index] as a member of %s, found %s", what.text(), graph.Describe(m))
		default:
			v.add(u.at(m), "kind", "expected a node template name (a string) as a member of %s, found %s", what.text(), graph.Describe(m))
		}
	}
}

func isIndex(x *yamlsrc.Value) bool {
	return x != nil && x.Kind == yamlsrc.KindNumber && x.Num() >= 0 && x.Num() == float64(int(x.Num()))
}

// relationMember checks a member [node, requirement name or index]: the
// node template exists and has exactly one requirement of that name, or
// that many requirements.
func (v *validator) relationMember(u *unit, top *topology, m *yamlsrc.Value, what subject) {
	nodeX, reqX := m.List()[0], m.List()[1]
	n := top.byName[nodeX.Str()]
	if n == nil {
		v.add(u.at(nodeX), "not-found", "node template %q of member %s of %s not found%s", nodeX.Str(), flow(m), what.text(), v.suggestNode(top, nodeX.Str()))
		return
	}
	if n.nReqs < 0 {
		return // the node template is broken: reported already
	}
	if !reqX.IsString() {
		if i := int(reqX.Num()); i >= n.nReqs {
			v.add(u.at(reqX), "not-found", "requirement index %d of member %s of %s is out of range: node template %q has %s", i, flow(m), what.text(), n.name, plural(n.nReqs, "requirement"))
		}
		return
	}
	count := 0
	for _, r := range n.reqs {
		if r.name == reqX.Str() {
			count++
		}
	}
	switch {
	case count == 0:
		hint := v.suggest(reqX.Str(), func(yield func(string) bool) {
			for _, r := range n.reqs {
				if !yield(r.name) {
					return
				}
			}
		})
		v.add(u.at(reqX), "not-found", "requirement %q of member %s of %s is not a requirement of node template %q%s", reqX.Str(), flow(m), what.text(), n.name, hint)
	case count > 1:
		v.add(u.at(reqX), "ambiguous", "requirement %q of member %s of %s is ambiguous: node template %q has %d requirements %q", reqX.Str(), flow(m), what.text(), n.name, count, reqX.Str())
	}
}

// otherTemplate says what a name that is not a node template names
// instead (a group, a relationship template), or suggests a node template.
func (v *validator) otherTemplate(top *topology, name string) string {
	switch {
	case top.groupNames[name]:
		return ": it is a group"
	case top.rels[name] != nil:
		return ": it is a relationship template"
	}
	return v.suggestNode(top, name)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// renderTargets checks the targets of a policy: node templates or groups.
func (v *validator) renderTargets(u *unit, top *topology, p *entityTemplate) {
	if !p.refs.IsList() {
		return
	}
	what := sub("policy", p.name, nil)
	for _, x := range p.refs.List() {
		if !x.IsString() {
			v.add(u.at(x), "kind", "expected a node template or group name (a string) as a target of %s, found %s", what.text(), graph.Describe(x))
			continue
		}
		if top.byName[x.Str()] != nil || top.groupNames[x.Str()] {
			continue
		}
		if top.rels[x.Str()] != nil {
			v.add(u.at(x), "not-found", "target %q of %s is neither a node template nor a group: it is a relationship template", x.Str(), what.text())
			continue
		}
		hint := v.suggest(x.Str(), func(yield func(string) bool) {
			for _, n := range top.nodes {
				if !yield(n.name) {
					return
				}
			}
			for _, g := range top.groups {
				if !yield(g.name) {
					return
				}
			}
		})
		v.add(u.at(x), "not-found", "target %q of %s is neither a node template nor a group%s", x.Str(), what.text(), hint)
	}
}

// checkValidSource checks that the source node template (of type src) of a
// requirement is accepted by the valid_source_types of the capability of
// the target (of type tt) that the requirement (definition def) connects
// to. Where several capabilities of the target fit, one accepting the
// source is enough.
func (v *validator) checkValidSource(u *unit, src, tt *typeDef, def *reqDef, r reqAssign, rw subject) {
	var capT *typeDef
	named := -1
	if r.cap.name != "" {
		if named = nameIndex(tt.caps, r.cap.name); named < 0 {
			if capT = v.find(u, kCapability, r.cap.name); capT == nil {
				return
			}
		}
	} else if capT = def.capT; capT == nil {
		return
	}
	var refused *capDef
	var refusedBy *typeDef // the capability type whose list refused, or nil: the definition's
	for i, c := range tt.caps {
		if named >= 0 && i != named || named < 0 && (c.t == nil || !isA(c.t, capT)) {
			continue
		}
		// The definition's list, else (an empty list says nothing) that of
		// the capability type or its nearest parent that has one.
		list, from := c.validSrc, c.srcOwner
		var by *typeDef
		if len(list) == 0 {
			for ct := c.t; ct != nil; ct = ct.parent {
				if ct.hasSrc {
					list, from, by = ct.srcTypes, ct, ct
					break
				}
			}
		}
		if len(list) == 0 || v.accepts(from.u, list, src) {
			return
		}
		if refused == nil {
			refused, refusedBy = c, by
		}
	}
	if refused == nil {
		return
	}
	var list []nameRef
	var of string
	if refusedBy != nil {
		list = refusedBy.srcTypes
		of = "capability type " + strconv.Quote(refusedBy.name) + " of capability " + strconv.Quote(refused.name)
	} else {
		list = refused.validSrc
		of = "capability " + strconv.Quote(refused.name) + " of node type " + strconv.Quote(refused.srcOwner.name)
	}
	quoted := make([]string, len(list))
	for i, n := range list {
		quoted[i] = strconv.Quote(n.name)
	}
	v.add(r.node.pos, "valid-source", "target node template %q of %s does not accept a source of node type %q: the valid_source_types of %s are %s",
		r.node.name, rw.text(), src.name, of, strings.Join(quoted, ", "))
}

// accepts reports whether src is or derives from one of the node types
// named in list (in the namespace of unit u). A list with a name that is
// not found accepts everything: the name was reported already.
func (v *validator) accepts(u *unit, list []nameRef, src *typeDef) bool {
	for _, n := range list {
		t := v.find(u, kNode, n.name)
		if t == nil || t.broken || isA(src, t) {
			return true
		}
	}
	return false
}
