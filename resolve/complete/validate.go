package complete

import (
	"v4t/model/diag"
)

// Spec completion.md §5 (validation). Each check collects its messages in
// the reference's order; the caller stops after a check that found any.

// at returns the position of a value in the template.
func (t *template) at(v *value) diag.Pos {
	return diag.Pos{File: t.file, Line: v.line(), Col: v.col()}
}

// checkComponents reports the first COMPONENT that names no node template
// (§5.1). Group names are not accepted.
func (t *template) checkComponents(components []string) diag.List {
	for _, c := range components {
		if t.byName[c] == nil {
			return diag.List{newDiag(StageComponents, "component", diag.Pos{File: t.file}, msgComponentNotFound(c))}
		}
	}
	return nil
}

// checkFilters validates the host node filters of every node template
// (§5.2) against the supported software list.
func (t *template) checkFilters(supported []string) diag.List {
	known := make(map[string]bool, len(supported))
	for _, s := range supported {
		known[s] = true
	}
	var out diag.List
	add := func(v *value, msg string) {
		out.Add(newDiag(StageFilters, "node-filter", t.at(v), msg))
	}
	for _, n := range t.nodes {
		props := n.constraints()
		if props == nil {
			continue
		}
		notList := func(v *value) {
			// Improvement (§5.2): the reference crashes on an item that is
			// not a map.
			add(v, msgFilterNotList(n.name))
		}
		eachListEntry(props, notList, func(e entry) {
			if !e.k.isStr() {
				return
			}
			switch e.k.s {
			case "os_distribution":
				if !e.v.isStr() {
					add(e.v, msgOSNotString(n.name))
				}
			case "supported_sw":
				t.checkSoftware(n, e.v, known, add)
			}
		})
	}
	return out
}

// checkSoftware validates one supported_sw value.
func (t *template) checkSoftware(n *nodeTemplate, sw *value, known map[string]bool, add func(*value, string)) {
	notList := func(v *value) {
		// Improvement (§5.2): the reference crashes on an item that is not
		// a map.
		add(v, msgSoftwareNotList(n.name))
	}
	eachListEntry(sw, notList, func(e entry) {
		name := pyStr(e.k)
		if !known[name] {
			add(e.k, msgSoftwareUnsupported(n.name, name))
		}
		if !e.v.isStr() || !versionValid().MatchString(e.v.s) {
			add(e.v, msgVersionPattern(n.name, name, pyStr(e.v)))
		}
	})
}

// hostOf returns the node template a node's host requirement names, or nil.
func (t *template) hostOf(n *nodeTemplate) *nodeTemplate {
	if n.hostName == "" {
		return nil
	}
	return t.byName[n.hostName]
}

// isType reports whether the node exists and has exactly the type typ.
func isType(n *nodeTemplate, typ string) bool { return n != nil && n.typ == typ }

// checkGroups validates every group (§5.3).
func (t *template) checkGroups(force bool) diag.List {
	var out diag.List
	add := func(v *value, msg string) {
		out.Add(newDiag(StageGroups, "group", t.at(v), msg))
	}
	count := map[string]int{}
	for _, g := range t.groups {
		for _, m := range g.members {
			count[m]++
		}
	}
	for _, g := range t.groups {
		dup := false
		for _, m := range g.members {
			dup = dup || count[m] > 1
		}
		if dup {
			add(g.val, msgGroupsNotDisjoint)
			break
		}
	}
	for _, g := range t.groups {
		isMember := map[string]bool{}
		for _, m := range g.members {
			isMember[m] = true
		}
		var c *nodeTemplate
		for _, m := range g.members {
			if h := t.hostOf(t.byName[m]); isType(h, typeContainer) {
				c = h
				break
			}
		}
		for _, name := range g.members {
			m := t.byName[name]
			if !isType(m, typeSoftware) {
				add(g.val, msgGroupMemberNotSoftware(g.name, name))
				continue
			}
			h := t.hostOf(m)
			if !force && c != nil {
				if m.hostName == "" || (isType(h, typeContainer) && h != c) {
					add(g.val, msgGroupNotSameContainer(g.name, c.name))
				}
				continue
			}
			if isType(h, typeSoftware) && !isMember[h.name] {
				add(g.val, msgGroupHostNotMember(name, g.name, h.name))
			}
		}
		for _, x := range t.nodes {
			if isMember[x.name] {
				continue
			}
			if h := t.hostOf(x); h != nil && isMember[h.name] {
				add(x.val, msgHostInOtherGroup(x.name, g.name))
			}
		}
	}
	return out
}
