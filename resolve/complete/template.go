package complete

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/validate"
	"v4t/model/yamlsrc"
)

// Spec completion.md §3 (input and TOSCA parsing), §4 (host requirement and
// node filter), §10.2 (CSAR).

// ToskerTypesURL is the import URL of the TosKer types; it resolves to the
// embedded copy, never to the network.
const ToskerTypesURL = "https://di-unipi-socc.github.io/tosker-types/1.0.0/tosker.yaml"

//go:embed tosker-types.yaml
var toskerTypes []byte

// The TosKer types that completion compares by exact name (§3).
const (
	typeSoftware  = "tosker.nodes.Software"
	typeContainer = "tosker.nodes.Container"
)

// toskerTypesFile names the embedded types in positions.
const toskerTypesFile = "<tosker types>"

// Kind is the kind of an input file, chosen by its suffix.
type Kind uint8

// The input kinds.
const (
	KindYAML Kind = iota + 1
	KindCSAR
)

// InputKind returns the kind of an input by its suffix: .yaml, .YAML,
// .yml, .YML (YAML) or .csar, .CSAR, .zip (CSAR). The reference accepts only
// .yaml and .csar in either case; .yml and .zip are an improvement (§2.1).
func InputKind(name string) (Kind, bool) {
	switch filepath.Ext(name) {
	case ".yaml", ".YAML", ".yml", ".YML":
		return KindYAML, true
	case ".csar", ".CSAR", ".zip":
		return KindCSAR, true
	}
	return 0, false
}

// versions are the tosca_definitions_version values accepted.
var versions = map[string]bool{
	"tosca_simple_yaml_1_0":              true,
	"tosca_simple_yaml_1_1":              true,
	"tosca_simple_yaml_1_2":              true,
	"tosca_simple_yaml_1_3":              true,
	"tosca_simple_profile_for_nfv_1_0_0": true,
}

// template is a parsed and checked service template.
type template struct {
	// file names the template in positions.
	file string
	// path is the template's location for relative imports: a file path,
	// or an archive path inside csar.
	path string
	csar *tosca.CSAR
	// root is the yaml.v3 document, rewritten in place (§11).
	root *yaml.Node
	doc  *value
	// nodes are the node templates in template order.
	nodes  []*nodeTemplate
	byName map[string]*nodeTemplate
	groups []*group
	// nodeTypes holds every known node type name.
	nodeTypes map[string]bool
}

// nodeTemplate is one node template with what completion needs of it.
type nodeTemplate struct {
	name string
	typ  string
	key  *value
	val  *value
	// hostEntry is the requirements entry of the host requirement (§4),
	// or nil when there is none; host is its value.
	hostEntry *value
	host      *value
	// hostName is the node the host requirement names, or "".
	hostName string
	// targets are the nodes named by the other requirements, in order.
	targets []string
}

// hasHostReq reports whether the node has a host requirement.
func (n *nodeTemplate) hasHostReq() bool { return n.hostEntry != nil }

// constraints returns the node's constraint list (§4):
// host.node_filter.properties, or nil (an empty list) when a part is
// missing or null. The result may be a value that is not a list.
func (n *nodeTemplate) constraints() *value {
	if !n.host.isMap() {
		return nil
	}
	nf := n.host.get("node_filter")
	if !nf.isMap() {
		return nil
	}
	props := nf.get("properties")
	if props.isNull() {
		return nil
	}
	return props
}

// group is one group of topology_template.groups.
type group struct {
	name    string
	members []string
	val     *value
}

// loader reads a template and its imports.
type loader struct {
	in    Input
	diags diag.List
	// seen holds the imports read so far, against cycles.
	seen map[string]bool
	t    *template
	// allowOutside lets imports leave the template's directory tree.
	allowOutside bool
}

// loadTemplate reads, parses and checks the input (§1 step 1); imports
// that leave the template's directory tree are an error unless
// allowOutside.
func loadTemplate(in Input, allowOutside bool) (*template, diag.List) {
	l := &loader{in: in, seen: map[string]bool{}, allowOutside: allowOutside}
	kind, ok := InputKind(in.Name)
	if !ok {
		return nil, diag.List{newDiag(StageParse, "input", diag.Pos{File: in.Name},
			fmt.Sprintf("%s: expected a .yaml, .yml, .csar or .zip file", in.Name))}
	}
	t := &template{file: in.Name, path: in.Name, byName: map[string]*nodeTemplate{}, nodeTypes: map[string]bool{}}
	l.t = t
	data := in.Data
	if kind == KindCSAR {
		c, err := tosca.ReadCSAR(in.Data, in.Name, tosca.DefaultCSARLimits())
		if err != nil {
			d, ok := diag.As(err)
			if !ok {
				d = newDiag(StageParse, "csar", diag.Pos{File: in.Name}, err.Error())
			}
			d.Stage, d.Code = StageParse, "csar"
			return nil, diag.List{d}
		}
		t.csar = c
		t.path = c.Entry
		t.file = in.Name + "!/" + c.Entry
		data = c.File(c.Entry).Data
	}
	root, doc := l.parse(data, t.file)
	if doc == nil {
		return nil, l.diags
	}
	t.root, t.doc = root, doc
	l.check()
	if len(l.diags) > 0 {
		return nil, l.diags
	}
	return t, nil
}

// errAt records a validation error at a value's position.
func (l *loader) errAt(file string, v *value, format string, args ...any) {
	pos := diag.Pos{File: file, Line: v.line(), Col: v.col()}
	l.diags.Add(newDiag(StageParse, "validation", pos, msgValidation(fmt.Sprintf(format, args...))))
}

// parse reads one YAML document into its node tree and typed value.
func (l *loader) parse(data []byte, file string) (*yaml.Node, *value) {
	var root yaml.Node
	if err := safeUnmarshal(data, &root); err != nil {
		d := yamlsrc.SyntaxError(file, data, err)
		l.diags.Add(newDiag(StageParse, "yaml", d.Pos, msgValidation(d.Message)))
		return nil, nil
	}
	if root.Kind == 0 {
		root = yaml.Node{Kind: yaml.DocumentNode}
	}
	if d := yamlsrc.CheckNode(file, &root); d != nil {
		l.diags.Add(newDiag(StageParse, "yaml", d.Pos, msgValidation(d.Message)))
		return nil, nil
	}
	doc, err := convert(&root, yaml11, true)
	if err != nil {
		var ce *convertError
		pos := diag.Pos{File: file}
		if errors.As(err, &ce) {
			pos.Line, pos.Col = ce.node.Line, ce.node.Column
		}
		l.diags.Add(newDiag(StageParse, "yaml", pos, msgValidation(err.Error())))
		return nil, nil
	}
	return &root, doc
}

// safeUnmarshal runs yaml.v3, turning a panic of its parser into an error.
func safeUnmarshal(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(data, n)
}

// check validates what completion relies on (§3) and builds the model.
func (l *loader) check() {
	t := l.t
	doc := t.doc
	if !doc.isMap() {
		l.errAt(t.file, doc, "the template must be a map")
		return
	}
	switch v := doc.get("tosca_definitions_version"); {
	case v == nil:
		l.errAt(t.file, doc, "missing tosca_definitions_version")
	case !v.isStr() || !versions[v.s]:
		l.errAt(t.file, v, "unknown tosca_definitions_version %s", pyStr(v))
	}
	for name := range normativeNodeTypes() {
		t.nodeTypes[name] = true
	}
	l.loadTypes(t.file, t.path, doc, 0)
	l.checkTypeParents(t.file, doc)

	tt, ok := l.optionalMap(doc, "topology_template")
	if !ok {
		return
	}
	if !l.eachEntry(tt, "node_templates", l.nodeTemplate) {
		return
	}
	for _, n := range t.nodes {
		l.checkRequirements(n)
	}
	l.eachEntry(tt, "groups", l.group)
}

// optionalMap returns the value of key in x: nothing, null or a map. Any
// other value is an error, and ok is false.
func (l *loader) optionalMap(x *value, key string) (m *value, ok bool) {
	m = x.get(key)
	if !m.isNull() && !m.isMap() {
		l.errAt(l.t.file, m, "%s must be a map", key)
		return nil, false
	}
	return m, true
}

// eachEntry calls fn with every entry of the optional map at key in x; it
// reports false when the value is not a map (see optionalMap).
func (l *loader) eachEntry(x *value, key string, fn func(k, v *value)) bool {
	m, ok := l.optionalMap(x, key)
	if m != nil {
		for _, e := range m.m {
			fn(e.k, e.v)
		}
	}
	return ok
}

// nodeTemplate reads one node template.
func (l *loader) nodeTemplate(k, v *value) {
	t := l.t
	n := &nodeTemplate{name: pyStr(k), key: k, val: v}
	if !v.isMap() {
		l.errAt(t.file, v, "node template %q must be a map", n.name)
		return
	}
	typ := v.get("type")
	switch {
	case typ == nil:
		l.errAt(t.file, v, "node template %q has no type", n.name)
		return
	case !typ.isStr():
		l.errAt(t.file, typ, "node template %q: type must be a string", n.name)
		return
	case !t.nodeTypes[typ.s]:
		l.errAt(t.file, typ, "node template %q has the unknown type %q", n.name, typ.s)
	}
	n.typ = typ.s
	reqs := v.get("requirements")
	if !reqs.isNull() && !reqs.isList() {
		l.errAt(t.file, reqs, "node template %q: requirements must be a list", n.name)
	}
	if reqs.isList() {
		for _, r := range reqs.l {
			if !r.isMap() || len(r.m) == 0 {
				l.errAt(t.file, r, "node template %q: a requirement must be a map of one name", n.name)
				continue
			}
			if n.hostEntry == nil && len(r.m) == 1 && r.m[0].k.isStr() && r.m[0].k.s == "host" {
				n.hostEntry, n.host = r, r.m[0].v
				var ok bool
				if n.hostName, ok = requirementTarget(n.host); !ok {
					l.errAt(t.file, n.host, "node template %q: requirement %q must name a node, or be a map", n.name, "host")
				}
				continue
			}
			for _, e := range r.m {
				target, ok := requirementTarget(e.v)
				if !ok {
					l.errAt(t.file, e.v, "node template %q: requirement %q must name a node, or be a map", n.name, pyStr(e.k))
					continue
				}
				if target != "" {
					n.targets = append(n.targets, target)
				}
			}
		}
	}
	t.nodes = append(t.nodes, n)
	t.byName[n.name] = n
}

// requirementTarget returns the node a requirement value names: its string
// form, or the node key of its map form; "" when it names none.
func requirementTarget(v *value) (string, bool) {
	switch {
	case v.isNull():
		return "", true
	case v.isMap():
		node := v.get("node")
		if node.isNull() {
			return "", true
		}
		if node.isMap() || node.isList() {
			return "", false
		}
		return pyStr(node), true
	case v.isList():
		return "", false
	}
	return pyStr(v), true
}

// checkRequirements checks that every requirement target is a node
// template or a known node type.
func (l *loader) checkRequirements(n *nodeTemplate) {
	eachListEntry(n.val.get("requirements"), nil, func(e entry) {
		target, ok := requirementTarget(e.v)
		if !ok || target == "" {
			return
		}
		if l.t.byName[target] == nil && !l.t.nodeTypes[target] {
			at := e.v
			if e.v.isMap() {
				at = e.v.get("node")
			}
			l.errAt(l.t.file, at, "node template %q: requirement %q names %q, which is not a node template", n.name, pyStr(e.k), target)
		}
	})
}

// group reads one group.
//
// Quirk: any-group-type (§3): every group under topology_template.groups
// is a deployment unit, whatever its type.
func (l *loader) group(k, v *value) {
	g := &group{name: pyStr(k), val: v}
	if !v.isMap() {
		l.errAt(l.t.file, v, "group %q must be a map", g.name)
		return
	}
	members := v.get("members")
	if !members.isNull() && !members.isList() {
		l.errAt(l.t.file, members, "group %q: members must be a list of node template names", g.name)
		return
	}
	if members != nil {
		for _, m := range members.l {
			if m.isMap() || m.isList() || m.isNull() {
				l.errAt(l.t.file, m, "group %q: members must be a list of node template names", g.name)
				continue
			}
			name := pyStr(m)
			if l.t.byName[name] == nil {
				l.errAt(l.t.file, m, "group %q: member %q is not a node template", g.name, name)
				continue
			}
			g.members = append(g.members, name)
		}
	}
	l.t.groups = append(l.t.groups, g)
}

// maxImportDepth bounds nested imports.
const maxImportDepth = 64

// loadTypes records the node types of a document and of its imports.
func (l *loader) loadTypes(file, at string, doc *value, depth int) {
	if nt := doc.get("node_types"); nt.isMap() {
		for _, e := range nt.m {
			l.t.nodeTypes[pyStr(e.k)] = true
		}
	} else if !nt.isNull() {
		l.errAt(file, nt, "node_types must be a map")
	}
	imports := doc.get("imports")
	if imports.isNull() {
		return
	}
	if !imports.isList() {
		l.errAt(file, imports, "imports must be a list")
		return
	}
	for _, imp := range imports.l {
		uri, ok := importURI(imp)
		if !ok {
			l.errAt(file, imp, "an import must be a file name or URL, or a map naming one")
			continue
		}
		l.importFile(file, at, uri, imp, depth)
	}
}

// importURI reads an import definition: "uri", {name: "uri"},
// {name: {file: "uri", ...}} or {file: "uri", ...}.
func importURI(v *value) (string, bool) {
	switch {
	case v.isStr():
		return v.s, true
	case v.isMap():
		if f := v.get("file"); f.isStr() {
			return f.s, true
		}
		if len(v.m) == 1 {
			x := v.m[0].v
			if x.isStr() {
				return x.s, true
			}
			if f := x.get("file"); f.isStr() {
				return f.s, true
			}
		}
	}
	return "", false
}

// importFile loads one import (§3): the TosKer URL from the embedded copy;
// relative names against the importing file's directory, then the archive
// root; other URLs are an error offline.
func (l *loader) importFile(file, at, uri string, imp *value, depth int) {
	if depth >= maxImportDepth {
		l.errAt(file, imp, "imports nested deeper than %d levels", maxImportDepth)
		return
	}
	if uri == ToskerTypesURL {
		if l.seen[uri] {
			return
		}
		l.seen[uri] = true
		_, doc := l.parse(toskerTypes, toskerTypesFile)
		if doc != nil {
			l.loadTypes(toskerTypesFile, "", doc, depth+1)
		}
		return
	}
	if strings.Contains(uri, "://") {
		l.errAt(file, imp, "cannot import %q: remote imports are not available offline", uri)
		return
	}
	var data []byte
	var name, display string
	if c := l.t.csar; c != nil {
		name = path.Join(path.Dir(at), uri)
		f := c.File(name)
		if f == nil || strings.HasPrefix(name, "../") {
			name = path.Clean(uri)
			f = c.File(name)
		}
		if f == nil || strings.HasPrefix(name, "../") || path.IsAbs(uri) {
			l.errAt(file, imp, "cannot import %q: no such file in the archive", uri)
			return
		}
		data, display = f.Data, l.in.Name+"!/"+name
	} else {
		name = uri
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(at), filepath.FromSlash(uri))
		}
		// Files outside the template's tree are not read (README,
		// "Limits"), links resolved, unless allowed.
		if why := tosca.NewTree(filepath.Dir(l.in.Name)).Leaves(name); why != "" && !l.allowOutside {
			l.errAt(file, imp, "cannot import %q: it%s (--allow-outside permits it)", uri, why)
			return
		}
		b, err := validate.ReadNamedFile(name)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			l.errAt(file, imp, "cannot import %q: %v", uri, err)
			return
		}
		data, display = b, name
	}
	if l.seen[display] {
		return
	}
	l.seen[display] = true
	_, doc := l.parse(data, display)
	if doc == nil {
		return
	}
	if !doc.isMap() {
		l.errAt(display, doc, "an imported file must be a map")
		return
	}
	l.loadTypes(display, name, doc, depth+1)
}

// checkTypeParents checks that the node types of the template derive from
// known types.
func (l *loader) checkTypeParents(file string, doc *value) {
	nt := doc.get("node_types")
	if !nt.isMap() {
		return
	}
	for _, e := range nt.m {
		if !e.v.isMap() {
			l.errAt(file, e.v, "node type %q must be a map", pyStr(e.k))
			continue
		}
		parent := e.v.get("derived_from")
		if parent == nil {
			continue
		}
		if !parent.isStr() || (!l.t.nodeTypes[parent.s] && parent.s != tosca.EntityRoot) {
			l.errAt(file, parent, "node type %q derives from the unknown type %s", pyStr(e.k), pyStr(parent))
		}
	}
}

// normativeNodeTypes returns the names of the TOSCA normative node types
// (model/tosca's profile, which covers the 1.0 names). The set is computed
// once from the embedded profile and never modified: constant data, not
// state.
var normativeNodeTypes = sync.OnceValue(readNormativeNodeTypes)

func readNormativeNodeTypes() map[string]bool {
	names := map[string]bool{}
	var root yaml.Node
	if err := yaml.Unmarshal(tosca.Normative(), &root); err != nil || len(root.Content) == 0 {
		panic(fmt.Sprintf("the embedded normative types do not parse: %v", err))
	}
	doc := root.Content[0]
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value != "node_types" {
			continue
		}
		types := doc.Content[i+1]
		for j := 0; j+1 < len(types.Content); j += 2 {
			names[types.Content[j].Value] = true
		}
	}
	return names
}

// ToskerTypes returns the embedded TosKer types, which ToskerTypesURL
// names. The caller owns the returned slice.
func ToskerTypes() []byte { return append([]byte(nil), toskerTypes...) }
