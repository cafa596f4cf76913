package validate

import (
	"context"
	"maps"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// validator holds one validation run.
type validator struct {
	ctx      context.Context
	opts     Options
	root     tosca.Tree // the template's directory: imports stay below it
	order    []*unit    // units in load order (root first, then depth-first)
	problems diag.List

	normative *unit
	// unreadProps marks the templates (by the place of their name) whose
	// properties were not all read: their required properties are not
	// checked (decodeProps).
	unreadProps map[place]bool
	// suggested caches "did you mean" answers; suggestions stop after
	// maxSuggestions lookups so that many misses stay linear.
	suggested map[suggestKey]string
	nSuggest  int

	slab    []diag.Diagnostic // problems are allocated from it (addMsg)
	scratch msg               // the buffer of messages built by msg()

	// skipCons leaves constraints unchecked while the values of V4T
	// property alternatives (list form) are type-checked.
	skipCons bool
}

// unit is one file: the template, an import, a lib/ file or the normative
// types.
type unit struct {
	file     string // display path (relative to the working directory as given)
	data     []byte
	doc      *yamlsrc.Value
	lines    *yamlsrc.Lines // built on first use
	variable bool           // tosca_definitions_version is a tosca_variability_* version
	builtin  bool           // the normative types
	imports  []importRef

	defs [nKinds][]*typeDef
	ns   *namespace

	topo *topology
}

type importRef struct {
	u      *unit
	prefix string
	pos    diag.Pos
}

// Type kinds: one namespace section and one hierarchy each.
type typeKind uint8

const (
	kArtifact typeKind = iota
	kData
	kCapability
	kInterface
	kRelationship
	kNode
	kGroup
	kPolicy
	nKinds
)

var kindKeys = [nKinds]string{"artifact_types", "data_types", "capability_types", "interface_types",
	"relationship_types", "node_types", "group_types", "policy_types"}

var kindNames = [nKinds]string{"artifact type", "data type", "capability type", "interface type",
	"relationship type", "node type", "group type", "policy type"}

// kindPrefixes are the prefixes of the normative type names per kind,
// which their short names drop (tosca.nodes.Compute is Compute).
var kindPrefixes = [nKinds]string{"tosca.artifacts.", "tosca.datatypes.", "tosca.capabilities.", "tosca.interfaces.",
	"tosca.relationships.", "tosca.nodes.", "tosca.groups.", "tosca.policies."}

// typeDef is a type definition.
type typeDef struct {
	kind    typeKind
	name    string
	u       *unit
	pos     place // position of the name
	parentN string
	parentP diag.Pos
	parent  *typeDef
	// primitive is the primitive a data type derives from ("string"), if any.
	primitive string
	// walked marks a type the hierarchy phase has walked; broken a type
	// whose hierarchy is incomplete (unknown parent or loop), so that later
	// phases stay quiet.
	walked bool
	broken bool

	props    *propSet
	caps     []*capDef
	reqs     []*reqDef
	done     bool // inheritance merged
	validSrc []nameRef
	ifaces   []nameRef // interface types of the interface definitions

	cons   []constraint // a data type's constraints
	ifDefs []ifaceUse   // interface definitions, with their operations
	// ops and notifs are the operations and notifications an interface
	// type defines itself (not those of its parents).
	ops, notifs []string
	// srcTypes are a capability type's valid_source_types (hasSrc: given).
	srcTypes []nameRef
	hasSrc   bool
}

// nameRef is a name used somewhere, with its position.
type nameRef struct {
	name string
	pos  diag.Pos
}

// propDef is a property (or attribute) definition.
type propDef struct {
	name     string
	owner    *typeDef
	pos      place
	typ      nameRef
	dt       *typeDef // data type, when not primitive
	entry    *propDef // entry_schema, as a definition without name
	required bool
	hasDef   bool

	cons []constraint
	of   *propDef // the definition whose entry_schema this is
	noun string   // "input", for the definition of an input
}

// propSet is an ordered set of property definitions; sets are shared
// between a type and its parent until the type adds its own.
type propSet struct {
	list  []*propDef
	index map[string]int
}

func (s *propSet) get(name string) *propDef {
	if s == nil {
		return nil
	}
	if i, ok := s.index[name]; ok {
		return s.list[i]
	}
	return nil
}

func (s *propSet) put(p *propDef) {
	if i, ok := s.index[p.name]; ok {
		s.list[i] = p
		return
	}
	s.index[p.name] = len(s.list)
	s.list = append(s.list, p)
}

func (s *propSet) clone() *propSet {
	c := &propSet{index: make(map[string]int, len(s.list)+4)}
	if s != nil {
		c.list = append(c.list, s.list...)
		maps.Copy(c.index, s.index)
	}
	return c
}

// capDef is a capability definition of a node type.
type capDef struct {
	name     string
	owner    *typeDef
	pos      place
	typ      nameRef
	t        *typeDef
	occLower int
	hasOcc   bool
	// validSrc are the definition's valid_source_types (hasSrc: given, or
	// inherited from the definition it overrides).
	validSrc []nameRef
	hasSrc   bool
	srcOwner *typeDef // the type whose definition gave validSrc
}

// reqDef is a requirement definition of a node type.
type reqDef struct {
	name     string
	owner    *typeDef
	pos      place
	cap      nameRef
	node     nameRef
	rel      nameRef
	capT     *typeDef
	nodeT    *typeDef
	occLower int
	hasOcc   bool
}

// topology is the decoded topology_template of the root (or a variant).
type topology struct {
	inputs   map[string]bool
	nodes    []*nodeTemplate
	byName   map[string]*nodeTemplate
	rels     map[string]*relTemplate
	relList  []*relTemplate
	groups   []*entityTemplate
	policies []*entityTemplate
	// groupNames are the names of all groups, also those whose
	// definition is broken, for policy targets.
	groupNames map[string]bool
	defaults   []inputDefault
}

// inputDefault is the default value of a typed input (or variability
// input) definition.
type inputDefault struct {
	noun, name string
	def        *propDef
	value      *yamlsrc.Value
}

// entityTemplate is a group or policy.
type entityTemplate struct {
	kind  typeKind
	name  string
	pos   place
	types []nameRef
	props []propAssign
	refs  *yamlsrc.Value // members of a group, targets of a policy
}

// nodeTemplate is a node template (one alternative, in a variable
// template).
type nodeTemplate struct {
	name   string
	pos    place
	types  []nameRef // several in a variable template: alternatives
	props  []propAssign
	reqs   []reqAssign
	caps   []capAssign
	arts   []nameRef // artifact types
	ifaces []nameRef // interface types named in interface assignments
	ifUses []ifaceUse
	nReqs  int // requirement entries, as written
}

type relTemplate struct {
	name   string
	pos    place
	types  []nameRef
	props  []propAssign
	ifaces []nameRef
	ifUses []ifaceUse
}

// capAssign is a capability assignment of a node template.
type capAssign struct {
	name  string
	pos   place
	props []propAssign
}

// propAssign is a property assignment; value nil means not checkable (an
// expression or a function).
type propAssign struct {
	name  string
	pos   place
	value *yamlsrc.Value
	// alt marks an alternative of a V4T property list (an entry with
	// conditions or one of several of its name), whose constraints are
	// not checked.
	alt bool
}

// reqAssign is a requirement assignment in its full form.
type reqAssign struct {
	name    string
	pos     place
	node    nameRef
	cap     nameRef
	rel     nameRef
	hasNode bool
	relIfs  []ifaceUse // interface assignments of an inline relationship
}
