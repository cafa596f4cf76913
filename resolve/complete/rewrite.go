package complete

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Spec completion.md §11 (rewriting the template) and §12 (output). Only
// topology_template.node_templates changes. The rest of the yaml.v3 node
// tree is written back as it was read, so comments, key order, scalar styles
// and flow collections survive; new content is in block style.

// nodeTemplatesNode returns the mapping node of node_templates.
func (t *template) nodeTemplatesNode() *yaml.Node {
	nts := t.doc.get("topology_template").get("node_templates")
	if nts == nil {
		return nil
	}
	return nts.node
}

// pairIndex returns the index in a mapping node's Content of the key node k.
func pairIndex(m *yaml.Node, k *yaml.Node) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			return i
		}
	}
	return -1
}

// rewrite completes a unit with an image (§11).
func (t *template) rewrite(u *unit, img *Image) error {
	cn := u.container()
	nts := t.nodeTemplatesNode()
	if nts == nil || nts.Kind != yaml.MappingNode {
		return fmt.Errorf("node_templates is not a mapping")
	}
	var oldHosts []string
	for _, n := range u.nodes {
		if n.hostName != "" {
			oldHosts = append(oldHosts, n.hostName)
		}
		if err := t.rewriteHost(n, cn, u.group != nil); err != nil {
			return err
		}
	}
	// Improvement (§11.1): an old host is deleted once, and only when no
	// requirement names it any more.
	done := map[string]bool{}
	for _, h := range oldHosts {
		if h == cn || done[h] {
			continue
		}
		done[h] = true
		if t.byName[h] != nil && !t.referenced(h) {
			t.deleteNode(nts, h)
		}
	}
	c := &nodeTemplate{name: cn, typ: typeContainer}
	val := containerNode(img, u.constraints)
	if old := t.byName[cn]; old != nil {
		if i := pairIndex(nts, old.key.node); i >= 0 {
			nts.Content[i+1] = val
			c.key = old.key
			for j, n := range t.nodes {
				if n == old {
					t.nodes[j] = c
				}
			}
			t.byName[cn] = c
			return nil
		}
	}
	key := strNode(cn)
	nts.Content = append(nts.Content, key, val)
	c.key = &value{kind: kStr, s: cn, node: key}
	t.nodes = append(t.nodes, c)
	t.byName[cn] = c
	return nil
}

// rewriteHost points a node's host requirement at the container (§11.1).
func (t *template) rewriteHost(n *nodeTemplate, cn string, member bool) error {
	entry := n.hostEntry.node
	if entry == nil || entry.Kind != yaml.MappingNode {
		return fmt.Errorf("the host requirement of %q is not a mapping", n.name)
	}
	i := pairIndex(entry, n.hostEntry.m[0].k.node)
	if i < 0 {
		return fmt.Errorf("the host requirement of %q was not found", n.name)
	}
	host := n.host
	switch {
	case host.isMap():
		m := host.node
		if m == nil || m.Kind != yaml.MappingNode {
			return fmt.Errorf("the host requirement of %q is not a mapping", n.name)
		}
		set := false
		for _, e := range host.m {
			if e.k.isStr() && e.k.s == "node" {
				if j := pairIndex(m, e.k.node); j >= 0 {
					m.Content[j+1] = strNode(cn)
					set = true
				}
			}
		}
		if !set {
			m.Content = append(m.Content, strNode("node"), strNode(cn))
		}
	case host.isNull() && !member:
		// Quirk: null-host-forms (§11.1): a single node's null host
		// becomes {node: U_container} (no-image--*); a group member's
		// becomes the string form (custom-group-any-type).
		entry.Content[i+1] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
			Content: []*yaml.Node{strNode("node"), strNode(cn)}}
	default:
		entry.Content[i+1] = strNode(cn)
	}
	n.hostName = cn
	return nil
}

// referenced reports whether a requirement of any node template names h.
func (t *template) referenced(h string) bool {
	for _, n := range t.nodes {
		if n.hostName == h {
			return true
		}
		if slices.Contains(n.targets, h) {
			return true
		}
	}
	return false
}

// deleteNode removes a node template.
func (t *template) deleteNode(nts *yaml.Node, name string) {
	n := t.byName[name]
	if i := pairIndex(nts, n.key.node); i >= 0 {
		nts.Content = append(nts.Content[:i], nts.Content[i+2:]...)
	}
	delete(t.byName, name)
	for j, x := range t.nodes {
		if x == n {
			t.nodes = append(t.nodes[:j], t.nodes[j+1:]...)
			break
		}
	}
}

// containerNode builds the container node template for an image (§11.2).
func containerNode(img *Image, constraints []entry) *yaml.Node {
	props := newMap()
	if len(img.Softwares) > 0 {
		sw := newMap()
		for _, s := range img.Softwares {
			sw.set(newStr(s.Name), newStr(s.Ver))
		}
		props.set(newStr("supported_sw"), sw)
	}
	if img.Distro != nil && *img.Distro != "" {
		props.set(newStr("os_distribution"), newStr(*img.Distro))
	}
	for _, e := range collapse(constraints) {
		if e.k.isStr() && (e.k.s == "supported_sw" || e.k.s == "os_distribution") {
			continue
		}
		v := e.v
		if listOfMaps(v) {
			m := newMap()
			for _, item := range v.l {
				for _, kv := range item.m {
					m.set(kv.k, kv.v)
				}
			}
			v = m
		}
		props.set(e.k, v)
	}
	return mapNode(
		strNode("type"), strNode(typeContainer),
		strNode("properties"), toNode(props),
		strNode("artifacts"), mapNode(
			strNode("my_image"), mapNode(
				strNode("file"), strNode(img.Name),
				strNode("type"), strNode("tosker.artifacts.Image"),
				strNode("repository"), strNode("docker_hub"),
			),
		),
	)
}

func mapNode(content ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: content}
}

// strNode returns a string scalar, quoted when a YAML 1.1 or 1.2 reader
// would take it for anything but a string ('1.16', '6.00', '19', 'yes').
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if resolve11(s).kind != kStr || resolve12(s).kind != kStr {
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

// toNode renders a value as new block-style content.
func toNode(v *value) *yaml.Node {
	switch v.kind {
	case kNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case kBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v.b)}
	case kInt:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: v.i.String()}
	case kFloat:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: yamlFloat(v.f)}
	case kStr:
		return strNode(v.s)
	case kTime:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: v.s}
	case kList:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, x := range v.l {
			n.Content = append(n.Content, toNode(x))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, e := range v.m {
		n.Content = append(n.Content, toNode(e.k), toNode(e.v))
	}
	return n
}

// yamlFloat writes a float so that YAML 1.1 and 1.2 readers both read it
// as that float.
func yamlFloat(f float64) string {
	s := pyFloat(f)
	switch s {
	case "inf":
		return ".inf"
	case "-inf":
		return "-.inf"
	case "nan":
		return ".nan"
	}
	if mant, exp, ok := strings.Cut(s, "e"); ok && !strings.Contains(mant, ".") {
		return mant + ".0e" + exp
	}
	return s
}

// encodeYAML writes the document. yaml.v3 places comments by itself; should
// its output ever fail to read back, the document is written again without
// comments, which cannot change its data.
func encodeYAML(root *yaml.Node) ([]byte, error) {
	out, err := encodeNode(root)
	if err == nil {
		var check yaml.Node
		if safeUnmarshal(out, &check) == nil {
			return out, nil
		}
	}
	stripComments(root)
	return encodeNode(root)
}

func stripComments(n *yaml.Node) {
	if n == nil {
		return
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		stripComments(c)
	}
}

func encodeNode(root *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
