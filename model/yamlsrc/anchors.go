package yamlsrc

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Anchors is the alias bookkeeping of a conversion of a yaml.v3 node tree
// into values of type V, shared by this package's reader and the packages
// that convert nodes with other scalar rules (completion's YAML 1.1). An
// alias resolves to the value of its anchor, converted once, so that the
// values share it as the tree shares the node; an alias inside the
// collection it names is refused, since the value would contain itself; and
// alias uses are counted, since a billion laughs is cheap to write.
// The zero value is ready to use.
type Anchors[V any] struct {
	memo map[*yaml.Node]V
	// open holds the anchored collections being converted.
	open  map[*yaml.Node]bool
	uses  int
	first *yaml.Node
}

// Remember records v as the value of n, if n has an anchor.
func (a *Anchors[V]) Remember(n *yaml.Node, v V) {
	if n.Anchor == "" {
		return
	}
	if a.memo == nil {
		a.memo = map[*yaml.Node]V{}
	}
	a.memo[n] = v
}

// Lookup returns the value remembered for n.
func (a *Anchors[V]) Lookup(n *yaml.Node) (V, bool) {
	v, ok := a.memo[n]
	return v, ok
}

// Enter marks n, if it has an anchor, as a collection being converted;
// Leave unmarks it once its items are converted.
func (a *Anchors[V]) Enter(n *yaml.Node) {
	if n.Anchor == "" {
		return
	}
	if a.open == nil {
		a.open = map[*yaml.Node]bool{}
	}
	a.open[n] = true
}

// Leave ends what Enter began.
func (a *Anchors[V]) Leave(n *yaml.Node) {
	if n.Anchor != "" {
		delete(a.open, n)
	}
}

// Use counts a use of the alias node n and returns why it cannot be
// followed to n.Alias (the message of an error at n), or "" when it can:
// more than maxUses uses, an anchor that the document lacks, or an alias
// inside the collection it names.
func (a *Anchors[V]) Use(n *yaml.Node, maxUses int) string {
	if a.uses == 0 {
		a.first = n
	}
	a.uses++
	switch {
	case a.uses > maxUses:
		return fmt.Sprintf("more than %d alias uses", maxUses)
	case n.Alias == nil:
		return "unknown anchor"
	case a.open[n.Alias]:
		// js-yaml and PyYAML build a value that contains itself; we do not.
		return fmt.Sprintf("alias *%s refers to a value that contains it", n.Value)
	}
	return ""
}

// FirstUse returns the first alias node passed to Use, nil if none was.
func (a *Anchors[V]) FirstUse() *yaml.Node { return a.first }
