package complete

import (
	"strings"

	"v4t/model/diag"
)

// Spec completion.md §6 (selecting what to complete) and §7 (merging).

// unit is one thing to complete: a group, or a single node template.
type unit struct {
	name  string
	group *group
	// nodes are the node templates to rewrite: the eligible members of a
	// group in member order, or the single node.
	nodes []*nodeTemplate
	// constraints is the unit's constraint list: the merged list for a
	// group (property entries in first-seen order), the node's raw list
	// for a single node.
	constraints []entry
}

// container returns the name of the unit's container node.
func (u *unit) container() string { return u.name + "_container" }

// eligible reports whether a node is to be completed (§6).
func (t *template) eligible(n *nodeTemplate, components map[string]bool, force bool) bool {
	if n.typ != typeSoftware {
		return false
	}
	// Improvement (§6): a Software node without a host requirement is not
	// completed; the reference appends a container nothing points to.
	if !n.hasHostReq() {
		return false
	}
	if isType(t.hostOf(n), typeSoftware) {
		return false // not a bottom component
	}
	if len(components) > 0 && !components[n.name] {
		return false
	}
	// Quirk: force-without-filter (§6): under --force a bottom component
	// whose host names a node is re-completed even without a node_filter,
	// as the documentation's prose says (its pseudocode disagrees).
	return n.hostName == "" || force
}

// selectUnits forms the units in order (§6) and merges the constraints of
// group units (§7). It returns the merge errors, or "no abstract node
// founded" when there is nothing to complete.
func (t *template) selectUnits(components []string, force bool) ([]*unit, diag.List) {
	selected := map[string]bool{}
	for _, c := range components {
		selected[c] = true
	}
	var units []*unit
	var diags diag.List
	handled := map[string]bool{}
	for _, g := range t.groups {
		u := &unit{name: g.name, group: g}
		var lists []*value
		for _, m := range g.members {
			handled[m] = true
			n := t.byName[m]
			if t.eligible(n, selected, force) {
				u.nodes = append(u.nodes, n)
			}
			lists = append(lists, n.constraints())
		}
		if len(u.nodes) == 0 {
			continue
		}
		merged, errs := mergeConstraints(lists)
		for _, msg := range errs {
			diags.Add(newDiag(StageMerge, "merge", t.at(g.val), msg))
		}
		u.constraints = merged
		units = append(units, u)
	}
	for _, n := range t.nodes {
		if handled[n.name] || !t.eligible(n, selected, force) {
			continue
		}
		u := &unit{name: n.name, nodes: []*nodeTemplate{n}}
		if props := n.constraints(); props.isList() {
			for _, item := range props.l {
				u.constraints = append(u.constraints, item.m...)
			}
		}
		units = append(units, u)
	}
	if len(diags) > 0 {
		return nil, diags
	}
	if len(units) == 0 {
		return nil, diag.List{newDiag(StageSelection, "nothing", diag.Pos{File: t.file}, msgNoAbstractNode)}
	}
	return units, nil
}

// collapse turns a constraint list's entries into dict entries.
//
// Quirk: last-property-wins (§7, §11.2): for a single node, a repeated
// property keeps its first position and takes its last value, in the query
// and in the container's properties, as a Python dict does.
func collapse(entries []entry) []entry {
	d := newMap()
	for _, e := range entries {
		d.set(e.k, e.v)
	}
	return d.m
}

// mergedProp is one property of a merge in progress.
type mergedProp struct {
	key *value
	// list is set for a property whose value is a list of maps; its
	// entries are then in items, else the value is in val.
	list  bool
	items *value
	val   *value
}

// mergeConstraints merges the constraint lists of a group's members, in
// member order (§7). It returns the merged list and the failures.
func mergeConstraints(lists []*value) ([]entry, []string) {
	var props []*mergedProp
	find := func(k *value) *mergedProp {
		for _, p := range props {
			if pyEqual(p.key, k) {
				return p
			}
		}
		return nil
	}
	var errs []string
	for _, list := range lists {
		eachListEntry(list, nil, func(e entry) {
			p := find(e.k)
			isList := listOfMaps(e.v)
			switch {
			case p == nil && isList:
				p = &mergedProp{key: e.k, list: true, items: newMap()}
				props = append(props, p)
			case p == nil:
				props = append(props, &mergedProp{key: e.k, val: e.v})
				return
			case p.list != isList:
				// The reference crashes on a property that is a list in
				// one member and not in another; report a conflict.
				errs = append(errs, msgCannotMerge(pyStr(p.value()), pyStr(e.v), pyStr(e.k)))
				return
			case !isList:
				if !pyEqual(p.val, e.v) {
					errs = append(errs, msgCannotMerge(pyStr(p.val), pyStr(e.v), pyStr(e.k)))
				}
				return
			}
			sw := e.k.isStr() && e.k.s == "supported_sw"
			for _, x := range e.v.l {
				for _, kv := range x.m {
					i := p.items.lookup(kv.k)
					if i < 0 {
						p.items.set(kv.k, kv.v)
						continue
					}
					old := p.items.m[i].v
					if sw {
						if merged, ok := mergeVersion(old, kv.v); ok {
							p.items.m[i].v = newStr(merged)
							continue
						}
					} else if pyEqual(old, kv.v) {
						continue
					}
					errs = append(errs, msgCannotMerge(pyStr(old), pyStr(kv.v), pyStr(e.k)+"."+pyStr(kv.k)))
				}
			}
		})
	}
	out := make([]entry, 0, len(props))
	for _, p := range props {
		out = append(out, entry{p.key, p.value()})
	}
	return out, errs
}

// value returns the merged property as a constraint value: a list
// property becomes a list of single-key maps again; any other value is
// copied unchanged (an improvement for maps other than get_input, §7).
func (p *mergedProp) value() *value {
	if !p.list {
		return p.val
	}
	l := &value{kind: kList}
	for _, e := range p.items.m {
		l.l = append(l.l, &value{kind: kMap, m: []entry{e}})
	}
	return l
}

// listOfMaps reports whether v is a list whose items are all maps (the
// shape of supported_sw, ports and env_variable).
func listOfMaps(v *value) bool {
	if !v.isList() {
		return false
	}
	for _, x := range v.l {
		if !x.isMap() {
			return false
		}
	}
	return true
}

// mergeVersion merges two version constraints (§7): "6.2.x" and "6.2.0"
// give "6.2.0"; "6.x" and "6.2.x" give "6.2.x"; different parts fail.
func mergeVersion(a, b *value) (string, bool) {
	if !a.isStr() || !b.isStr() {
		return "", false
	}
	v1, v2 := strings.Split(a.s, "."), strings.Split(b.s, ".")
	var out []string
	i := 0
	for ; i < len(v1) && i < len(v2) && v1[i] != "x" && v2[i] != "x"; i++ {
		if v1[i] != v2[i] {
			return "", false
		}
		out = append(out, v1[i])
	}
	switch {
	case i < len(v1) && v1[i] == "x":
		out = append(out, v2[i:]...)
	case i < len(v2) && v2[i] == "x":
		out = append(out, v1[i:]...)
	case len(v1) != len(v2):
		return "", false
	}
	return strings.Join(out, "."), true
}
