package graph

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"sync"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// KindSwitches are the resolved default-condition and pruning switches of
// one element kind (variability.md §4.1).
type KindSwitches struct {
	Default, DefaultConsistency, DefaultSemantic bool
	Pruning, ConsistencyPruning, SemanticPruning bool
	Mode                                         string
}

// Options are the resolved variability options of a document (§4).
type Options struct {
	Mode string
	// Kinds holds the switches per element kind.
	Kinds                  [KindImport + 1]KindSwitches
	RelationDefaultImplied bool

	Checks      Checks
	Solver      Solver
	Constraints Constraints
	Enricher    Enricher
}

// Checks are the checker and persistent-check switches (§4.3, §11).
type Checks struct {
	Checks, Consistency, Semantic                               bool
	RelationSource, RelationTarget, AmbiguousHosting            bool
	MissingArtifactContainer, AmbiguousArtifact                 bool
	MissingPropertyContainer, AmbiguousProperty                 bool
	MissingTypeContainer, AmbiguousType                         bool
	ExpectedHosting, ExpectedIncomingRelation, ExpectedArtifact bool
	Persistent, ExpectedTechnology                              bool
	MissingTechnologyContainer, AmbiguousTechnology             bool
	RequiredTechnology, AmbiguousRelation                       bool
	AmbiguousInput, AmbiguousOutput                             bool
	UnconsumedInput, UnproducedOutput                           bool
}

// Optimization is one optimisation setting (§4.3, §10.2).
type Optimization struct {
	Optimize, Min, Max, Unique bool
	Mode                       string
}

// Solver holds the optimisation settings.
type Solver struct {
	Topology, Technologies Optimization
}

// Constraints are the constraint-enrichment switches (§5.11).
type Constraints struct {
	Constraints, RelationSource, RelationTarget, ArtifactContainer bool
	PropertyContainer, TypeContainer, HostingStack, Technology     bool
	UniqueProperty, UniqueArtifact, UniqueInput, UniqueOutput      bool
	UniqueRelation, RequiredArtifact, RequiredIncomingRelation     bool
}

// Enricher are the enricher switches.
type Enricher struct {
	InputCondition, Technologies, Implementations bool
}

// optionKinds is the order in which the reference resolves per-kind options.
var defaultOrder = []Kind{KindInput, KindNode, KindOutput, KindRelation, KindPolicy, KindGroup, KindArtifact, KindProperty, KindType, KindTechnology}

// ParseVersion maps tosca_definitions_version to a version class.
func ParseVersion(v *Value) (Version, bool) {
	if v == nil || v.Kind != yamlsrc.KindString {
		return 0, false
	}
	switch v.Str() {
	case "tosca_simple_yaml_1_3", "tosca_variability_1_0", "tosca_variability_1_0_rc_1":
		return V1, true
	case "tosca_variability_1_0_rc_2":
		return RC2, true
	case "tosca_variability_1_0_rc_3":
		return RC3, true
	}
	return 0, false
}

// pruning-mode tables (§4.2). A nil table entry means "not set".
type modeTable map[string]bool

// defaultKeys are a kind's default-condition options: <kind>_default_condition
// and its consistency and semantic variants.
func defaultKeys(k Kind) [3]string {
	n := &kindOptions[k]
	return [3]string{n.defaultCondition, n.consistency, n.semantic}
}

// pruningKeys are a kind's pruning options: <kind>_pruning and its
// consistency and semantic variants.
func pruningKeys(k Kind) [3]string {
	n := &kindOptions[k]
	return [3]string{n.pruning, n.consistencyPruning, n.semanticPruning}
}

var eightKinds = []Kind{KindNode, KindRelation, KindPolicy, KindGroup, KindArtifact, KindProperty, KindType, KindTechnology}

// modeTables holds the tables of the known modes, made on first use: every
// graph build looked one up, and building it anew was a tenth of what
// reading the options allocated (motivation batch: 1.3% of the bytes).
// Readers never change a table.
var modeTables = sync.OnceValue(func() (t [2]map[string]modeTable) {
	for i, v2 := range []bool{false, true} {
		t[i] = map[string]modeTable{}
		for _, name := range modeNames {
			t[i][name] = buildModeTable(v2, name)
		}
	}
	return t
})

// modeNames are the modes buildModeTable knows.
var modeNames = []string{"strict", "manual", "consistent-strict", "consistent-loose", "default",
	"semantic-strict", "semantic-loose", "loose"}

// modeTableOf is the table of a mode (§4.2), nil for an unknown one.
func modeTableOf(v2 bool, name string) modeTable {
	i := 0
	if v2 {
		i = 1
	}
	return modeTables()[i][name]
}

func buildModeTable(v2 bool, name string) modeTable {
	t := modeTable{}
	set := func(kinds []Kind, keys func(Kind) [3]string, vals [3]bool) {
		for _, k := range kinds {
			for i, key := range keys(k) {
				t[key] = vals[i]
			}
		}
	}
	defs, prun := defaultKeys, pruningKeys
	io := []Kind{KindInput, KindOutput}
	forceIO := func(d, p bool) {
		if v2 {
			return
		}
		if d {
			set(io, defs, [3]bool{false, false, false})
		}
		if p {
			set(io, prun, [3]bool{false, false, false})
		}
	}
	kinds := eightKinds
	if v2 {
		kinds = append(append([]Kind{}, eightKinds...), io...)
	}
	switch name {
	case "strict", "manual":
		forceIO(true, true)
	case "consistent-strict":
		forceIO(true, false)
		set(kinds, defs, [3]bool{true, true, false})
	case "consistent-loose":
		forceIO(false, true)
		set(kinds, prun, [3]bool{true, true, false})
	case "default":
		t["default_condition"] = true
		forceIO(true, true)
	case "semantic-strict":
		t["default_condition"] = true
		forceIO(true, true)
		set(kinds, prun, [3]bool{true, true, false})
	case "semantic-loose", "loose":
		t["pruning"] = true
		forceIO(true, true)
	default:
		return nil
	}
	return t
}

type optionReader struct {
	raw   *Value
	file  string
	table modeTable
	err   error
	// seen, where not nil, collects every name the reader looks up: reading
	// empty options in each version lists the names the reference knows
	// (OptionNames) without spelling them a second time.
	seen map[string]bool
}

// valuePos is the position of an option's value in file (line 0 for one
// set by --option).
func valuePos(file string, v *Value) diag.Pos {
	return diag.Pos{File: file, Line: int(v.Line), Col: int(v.Col)}
}

// get returns the user's value of key as written, null included.
func (r *optionReader) get(key string) *Value {
	if r.seen != nil {
		r.seen[key] = true
	}
	return r.raw.Get(key)
}

func (r *optionReader) user(key string) *Value {
	v := r.get(key)
	if v.IsNull() {
		return nil
	}
	return v
}

// typed returns the user's value of key (nil when unset) and asserts its
// kind, recording msg's error; ok is false once an error is recorded.
func (r *optionReader) typed(key string, kind yamlsrc.Kind, msg func(*Value) string) (v *Value, ok bool) {
	if r.err != nil {
		return nil, false
	}
	if v = r.user(key); v != nil && v.Kind != kind {
		r.err = diag.At(valuePos(r.file, v), diag.StageLoad, msg(v))
		return nil, false
	}
	return v, true
}

// boolOpt resolves user ?? table ?? fallback and asserts a boolean.
func (r *optionReader) boolOpt(key string, fallback bool) bool {
	if b, ok := r.table[key]; ok {
		fallback = b
	}
	return r.plainBool(key, fallback)
}

// plainBool resolves user ?? fallback and asserts a boolean.
func (r *optionReader) plainBool(key string, fallback bool) bool {
	v, ok := r.typed(key, yamlsrc.KindBool, MsgNotBoolean)
	if !ok {
		return false
	}
	if v == nil {
		return fallback
	}
	return v.Bool
}

func (r *optionReader) stringOpt(key, fallback string) string {
	v, ok := r.typed(key, yamlsrc.KindString, MsgNotString)
	if !ok {
		return ""
	}
	if v == nil {
		return fallback
	}
	return v.Str()
}

// ResolveOptions resolves the options of a document (§4); file names it
// in the positions of errors. The groups of options resolve in the
// reference's order: mode, default conditions, pruning, checks, solver,
// constraints and enricher; the first error of a group stops it.
func ResolveOptions(doc *Value, file string, version Version) (*Options, error) {
	raw := doc.Get("topology_template").Get("variability").Get("options")
	if !raw.IsMap() {
		raw = yamlsrc.NewMap()
	}
	key, ok := optionsKey(raw, version)
	if ok {
		if o := resolvedOptions.get(key); o != nil {
			return o, nil
		}
	}
	o, err := (&optionReader{raw: raw, file: file}).options(version)
	if err == nil && ok {
		resolvedOptions.put(key, o)
	}
	return o, err
}

// resolvedOptions holds the options read from option maps of scalars, by
// the map's entries and the version: the options are those entries' alone
// (no position, no file), and every resolve reads them twice (graph #1
// and #3), a batch for each run, a hundred names a time (4% of a
// motivation batch run). Errors are not kept: they name a position.
var resolvedOptions = optionsCache{m: map[string]*Options{}}

// optionsCacheMax bounds the cache: a batch has a few option maps per
// template.
const optionsCacheMax = 1024

type optionsCache struct {
	mu sync.Mutex
	m  map[string]*Options
}

// get returns a copy of the options kept for key, nil where none are.
func (c *optionsCache) get(key string) *Options {
	c.mu.Lock()
	o := c.m[key]
	c.mu.Unlock()
	if o == nil {
		return nil
	}
	cp := *o
	return &cp
}

// put keeps a copy of o for key while there is room.
func (c *optionsCache) put(key string, o *Options) {
	cp := *o
	c.mu.Lock()
	if len(c.m) < optionsCacheMax {
		c.m[key] = &cp
	}
	c.mu.Unlock()
}

// optionsKey spells an option map's entries and the version as a cache
// key, each string after its length; ok is false where a value is not a
// scalar (such a map is read anew).
func optionsKey(raw *Value, version Version) (key string, ok bool) {
	b := make([]byte, 0, 64)
	b = append(b, byte(version))
	for i, k := range raw.Map().Keys() {
		v := raw.Map().Val(i)
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		switch {
		case v == nil || v.Kind == yamlsrc.KindNull:
			b = append(b, 'n')
		case v.Kind == yamlsrc.KindBool && v.Bool:
			b = append(b, 't')
		case v.Kind == yamlsrc.KindBool:
			b = append(b, 'f')
		case v.Kind == yamlsrc.KindString:
			b = append(b, 's')
			b = binary.AppendUvarint(b, uint64(len(v.Str())))
			b = append(b, v.Str()...)
		case v.Kind == yamlsrc.KindNumber:
			b = append(b, 'd')
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Num()))
		default:
			return "", false
		}
	}
	return string(b), true
}

func (r *optionReader) options(version Version) (*Options, error) {
	o := &Options{}
	mode, table, err := r.mode(version)
	if err != nil {
		return nil, err
	}
	o.Mode, r.table = mode, table
	r.defaultConditions(o, version)
	r.pruning(o)
	if r.err != nil {
		return nil, r.err
	}
	r.checks(&o.Checks, version)
	if r.err != nil {
		return nil, r.err
	}
	if err := r.optimization(&o.Solver.Topology, "optimization_topology", version != V1, false, version); err != nil {
		return nil, err
	}
	if err := r.optimization(&o.Solver.Technologies, "optimization_technologies", version != V1, true, version); err != nil {
		return nil, err
	}
	r.constraints(&o.Constraints, version)
	r.enricher(&o.Enricher, version)
	if r.err != nil {
		return nil, r.err
	}
	return o, nil
}

// mode resolves the pruning mode (§4.2) and its table: manual in version
// 1.0, semantic-loose after.
func (r *optionReader) mode(version Version) (string, modeTable, error) {
	mode := "manual"
	if version != V1 {
		mode = "semantic-loose"
	}
	modeText := mode
	modePos := diag.Pos{File: r.file}
	if v := r.get("mode"); !v.IsNull() {
		modePos = valuePos(r.file, v)
		if v.Kind == yamlsrc.KindString {
			mode, modeText = v.Str(), v.Str()
		} else {
			mode, modeText = "", yamlsrc.String(v)
		}
	}
	table := modeTableOf(version == RC3, mode)
	if table == nil {
		return "", nil, diag.At(modePos, diag.StageLoad, msgPruningModeUnknown(modeText))
	}
	return mode, table, nil
}

// kindOptions are the names of each kind's options, spelled once: every
// resolve reads them, and builds its pruning-mode table from them, twice
// (graph #1 and #3), and a batch resolves many times.
var kindOptions = func() (names [KindImport + 1]struct {
	defaultCondition, mode, consistency, semantic string
	pruning, consistencyPruning, semanticPruning  string
}) {
	for k := range names {
		name := Kind(k).String()
		n := &names[k]
		n.defaultCondition, n.mode = name+"_default_condition", name+"_default_condition_mode"
		n.consistency, n.semantic = name+"_default_consistency_condition", name+"_default_semantic_condition"
		n.pruning, n.consistencyPruning, n.semanticPruning = name+"_pruning", name+"_consistency_pruning", name+"_semantic_pruning"
	}
	return names
}()

// defaultConditions resolves the default-condition switches and modes of
// each kind, in the reference's order.
func (r *optionReader) defaultConditions(o *Options, version Version) {
	dc := r.boolOpt("default_condition", false)
	for _, k := range defaultOrder {
		s := &o.Kinds[k]
		names := &kindOptions[k]
		s.Default = r.boolOpt(names.defaultCondition, dc)
		if mode, ok := defaultConditionMode(k, version); ok {
			s.Mode = r.stringOpt(names.mode, mode)
		}
		s.DefaultConsistency = r.boolOpt(names.consistency, s.Default)
		s.DefaultSemantic = r.boolOpt(names.semantic, s.Default)
		if k == KindRelation {
			o.RelationDefaultImplied = r.plainBool("relation_default_implied", version != V1)
		}
	}
}

// defaultConditionMode is the default of the option
// <kind>_default_condition_mode in version; ok is false for the kinds that
// have no such option.
func defaultConditionMode(k Kind, version Version) (mode string, ok bool) {
	switch {
	case k == KindNode && version == V1:
		return "incoming-artifact", true
	case k == KindNode:
		return "incomingnaive-artifact-host", true
	case k == KindArtifact && version == RC3:
		return "container-managed", true
	case k == KindArtifact:
		return "container", true
	}
	mode, ok = fixedConditionModes[k]
	return mode, ok
}

// fixedConditionModes are the defaults of <kind>_default_condition_mode
// that are the same in every version.
var fixedConditionModes = map[Kind]string{
	KindRelation:   "source-target",
	KindProperty:   "container-consuming",
	KindTechnology: "container-other",
}

// pruning resolves the pruning switches of each kind.
func (r *optionReader) pruning(o *Options) {
	p := r.boolOpt("pruning", false)
	for _, k := range defaultOrder {
		s := &o.Kinds[k]
		names := &kindOptions[k]
		s.Pruning = r.boolOpt(names.pruning, p)
		s.ConsistencyPruning = r.boolOpt(names.consistencyPruning, s.Pruning)
		s.SemanticPruning = r.boolOpt(names.semanticPruning, s.Pruning)
	}
}

// checks resolves the checker switches (§4.3, §11).
func (r *optionReader) checks(c *Checks, version Version) {
	c.Checks = r.plainBool("checks", version != RC3)
	c.Consistency = r.plainBool("consistency_checks", c.Checks)
	c.RelationSource = r.plainBool("relation_source_check", c.Consistency)
	c.RelationTarget = r.plainBool("relation_target_check", c.Consistency)
	c.AmbiguousHosting = r.plainBool("ambiguous_hosting_check", c.Consistency)
	c.MissingArtifactContainer = r.plainBool("missing_artifact_container_check", c.Consistency)
	c.AmbiguousArtifact = r.plainBool("ambiguous_artifact_check", c.Consistency)
	c.MissingPropertyContainer = r.plainBool("missing_property_container_check", c.Consistency)
	c.AmbiguousProperty = r.plainBool("ambiguous_property_check", c.Consistency)
	c.MissingTypeContainer = r.plainBool("missing_type_container_check", c.Consistency)
	c.AmbiguousType = r.plainBool("ambiguous_type_check", c.Consistency)
	c.Semantic = r.plainBool("semantic_checks", c.Checks)
	c.ExpectedHosting = r.plainBool("expected_hosting_check", c.Semantic)
	c.ExpectedIncomingRelation = r.plainBool("expected_incoming_relation_check", c.Semantic)
	c.ExpectedArtifact = r.plainBool("expected_artifact_check", c.Semantic)
	c.Persistent = r.plainBool("persistent_check", c.Checks)
	c.ExpectedTechnology = r.plainBool("expected_technology_check", c.Semantic)
	c.MissingTechnologyContainer = r.plainBool("missing_technology_container_check", c.Consistency)
	c.AmbiguousTechnology = r.plainBool("ambiguous_technology_check", c.Consistency)
	c.RequiredTechnology = r.plainBool("required_technology_check", c.Semantic)
	c.AmbiguousRelation = r.plainBool("ambiguous_relation_check", c.Consistency)
	c.AmbiguousInput = r.plainBool("ambiguous_input_check", c.Consistency)
	c.AmbiguousOutput = r.plainBool("ambiguous_output_check", c.Consistency)
	if version == RC3 {
		c.UnconsumedInput = r.plainBool("unconsumed_input_check", c.Semantic)
		c.UnproducedOutput = r.plainBool("unproduced_output_check", c.Consistency)
	} else {
		c.UnconsumedInput = r.plainBool("unconsumed_input_check", false)
		c.UnproducedOutput = r.plainBool("unproduced_output_check", false)
	}
}

// constraints resolves the constraint-enrichment switches (§5.11).
func (r *optionReader) constraints(k *Constraints, version Version) {
	k.Constraints = r.plainBool("constraints", false)
	k.RelationSource = r.plainBool("relation_source_constraint", k.Constraints)
	k.RelationTarget = r.plainBool("relation_target_constraint", k.Constraints)
	k.ArtifactContainer = r.plainBool("artifact_container_constraint", k.Constraints)
	k.PropertyContainer = r.plainBool("property_container_constraint", k.Constraints)
	k.TypeContainer = r.plainBool("type_container_constraint", k.Constraints)
	// Quirk: after version 1.0 these fall back to the raw user value of
	// "constraints" (§4.3), not to its resolved value.
	fallback := func(unset bool) bool {
		if version == V1 {
			return k.Constraints
		}
		return r.userConstraints(unset)
	}
	k.HostingStack = r.plainBool("hosting_stack_constraint", fallback(true))
	k.Technology = r.plainBool("technology_constraint", fallback(true))
	k.UniqueProperty = r.plainBool("unique_property_constraint", fallback(true))
	k.UniqueArtifact = r.plainBool("unique_artifact_constraint", fallback(true))
	k.UniqueInput = r.plainBool("unique_input_constraint", fallback(true))
	k.UniqueOutput = r.plainBool("unique_output_constraint", fallback(true))
	k.UniqueRelation = r.plainBool("unique_relation_constraint", fallback(true))
	k.RequiredIncomingRelation = r.plainBool("required_incoming_relation_constraint", fallback(false))
	k.RequiredArtifact = r.plainBool("required_artifact_constraint", k.Constraints)
}

// userConstraints is the truthiness of the user's value of "constraints",
// or fallback where the user set none.
func (r *optionReader) userConstraints(fallback bool) bool {
	if v := r.user("constraints"); v != nil {
		return v.Truthy()
	}
	return fallback
}

// enricher resolves the enricher switches.
func (r *optionReader) enricher(e *Enricher, version Version) {
	e.InputCondition = r.plainBool("enrich_input_condition", true)
	e.Technologies = r.plainBool("enrich_technologies", version != V1)
	e.Implementations = r.plainBool("enrich_implementations", true)
}

// optimization resolves the solver switches of the optimisation named key
// (§4.3): key, key_unique and key_mode.
func (r *optionReader) optimization(o *Optimization, key string, defaultOn, technologies bool, version Version) error {
	file := r.file
	v := r.get(key)
	at := diag.Pos{File: file}
	if !v.IsNull() {
		at = valuePos(file, v)
	}
	isStr := func(s string) bool { return v != nil && v.Kind == yamlsrc.KindString && v.Str() == s }
	if v.IsNull() {
		v = yamlsrc.NewBool(defaultOn)
	}
	if v.Kind != yamlsrc.KindBool && !isStr("min") && !isStr("max") {
		return diag.At(at, diag.StageLoad, msgOptimizationValue(key))
	}
	o.Optimize = !v.IsFalse()
	if technologies && version != V1 {
		o.Max = isStr("max") || v.IsTrue()
		o.Min = isStr("min")
	} else {
		o.Max = isStr("max")
		o.Min = isStr("min") || v.IsTrue()
	}
	uniqueDefault := !technologies
	if u := r.get(key + "_unique"); !u.IsNull() {
		if u.Kind != yamlsrc.KindBool {
			return diag.At(valuePos(file, u), diag.StageLoad, MsgNotBoolean(u))
		}
		o.Unique = u.Bool
	} else {
		o.Unique = uniqueDefault
	}
	modeDefault := "weight"
	if technologies {
		modeDefault = "count"
		if version != V1 {
			modeDefault = "weight-count"
		}
	}
	mode := r.get(key + "_mode")
	if !mode.IsNull() {
		at = valuePos(file, mode)
	}
	o.Mode = modeDefault
	ok := true
	if !mode.IsNull() {
		if mode.Kind == yamlsrc.KindString {
			o.Mode = mode.Str()
		} else {
			ok = false
		}
	}
	msg := msgTechnologyMode
	switch {
	case !technologies:
		msg = msgTopologyMode
	case version == V1:
		msg = msgTechnologyModeV1
	}
	weightCount := technologies && version != V1
	if !ok || (o.Mode != "weight" && o.Mode != "count" && (!weightCount || o.Mode != "weight-count")) {
		return diag.At(at, diag.StageLoad, msg)
	}
	return nil
}

// JSONOf renders a value like JSON.stringify, with "undefined" for a missing
// value (as JavaScript template strings print it).
func JSONOf(v *Value) string {
	if v == nil {
		return "undefined"
	}
	return yamlsrc.JSON(v)
}

// OptionNames returns the names of the variability options Vintner 0.1.8
// reads (variability.md §4), sorted; the reference silently ignores any
// other name, which is why v4t validate reports them.
func OptionNames() []string { return slices.Clone(optionNames()) }

// optionNames returns the names the option reader looks up when it
// resolves empty options in every version, and the two global options the
// schema declares but the reference never reads (§4.1): readOptionNames.
// They are spelled out (optionNameList), since reading the options three
// times on the first use was a tenth of a small template's resolve
// (ring seed 10: 550,000 of 5 million instructions); TestOptionNameList
// holds the list to the reader.
func optionNames() []string { return optionNameList }

var optionNameList = []string{
	"ambiguous_artifact_check", "ambiguous_hosting_check", "ambiguous_input_check",
	"ambiguous_output_check", "ambiguous_property_check", "ambiguous_relation_check",
	"ambiguous_technology_check", "ambiguous_type_check", "artifact_consistency_pruning",
	"artifact_container_constraint", "artifact_default_condition",
	"artifact_default_condition_mode", "artifact_default_consistency_condition",
	"artifact_default_semantic_condition", "artifact_pruning", "artifact_semantic_pruning",
	"checks", "consistency_checks", "consistency_pruning", "constraints", "default_condition",
	"enrich_implementations", "enrich_input_condition", "enrich_technologies",
	"expected_artifact_check", "expected_hosting_check", "expected_incoming_relation_check",
	"expected_technology_check", "group_consistency_pruning", "group_default_condition",
	"group_default_consistency_condition", "group_default_semantic_condition", "group_pruning",
	"group_semantic_pruning", "hosting_stack_constraint", "input_consistency_pruning",
	"input_default_condition", "input_default_consistency_condition",
	"input_default_semantic_condition", "input_pruning", "input_semantic_pruning",
	"missing_artifact_container_check", "missing_property_container_check",
	"missing_technology_container_check", "missing_type_container_check", "mode",
	"node_consistency_pruning", "node_default_condition", "node_default_condition_mode",
	"node_default_consistency_condition", "node_default_semantic_condition", "node_pruning",
	"node_semantic_pruning", "optimization_technologies", "optimization_technologies_mode",
	"optimization_technologies_unique", "optimization_topology", "optimization_topology_mode",
	"optimization_topology_unique", "output_consistency_pruning", "output_default_condition",
	"output_default_consistency_condition", "output_default_semantic_condition", "output_pruning",
	"output_semantic_pruning", "persistent_check", "policy_consistency_pruning",
	"policy_default_condition", "policy_default_consistency_condition",
	"policy_default_semantic_condition", "policy_pruning", "policy_semantic_pruning",
	"property_consistency_pruning", "property_container_constraint", "property_default_condition",
	"property_default_condition_mode", "property_default_consistency_condition",
	"property_default_semantic_condition", "property_pruning", "property_semantic_pruning",
	"pruning", "relation_consistency_pruning", "relation_default_condition",
	"relation_default_condition_mode", "relation_default_consistency_condition",
	"relation_default_implied", "relation_default_semantic_condition", "relation_pruning",
	"relation_semantic_pruning", "relation_source_check", "relation_source_constraint",
	"relation_target_check", "relation_target_constraint", "required_artifact_constraint",
	"required_incoming_relation_constraint", "required_technology_check", "semantic_checks",
	"semantic_pruning", "technology_consistency_pruning", "technology_constraint",
	"technology_default_condition", "technology_default_condition_mode",
	"technology_default_consistency_condition", "technology_default_semantic_condition",
	"technology_pruning", "technology_semantic_pruning", "type_consistency_pruning",
	"type_container_constraint", "type_default_condition", "type_default_consistency_condition",
	"type_default_semantic_condition", "type_pruning", "type_semantic_pruning",
	"unconsumed_input_check", "unique_artifact_constraint", "unique_input_constraint",
	"unique_output_constraint", "unique_property_constraint", "unique_relation_constraint",
	"unproduced_output_check",
}

// readOptionNames is optionNames as the option reader spells them.
func readOptionNames() []string {
	seen := map[string]bool{"consistency_pruning": true, "semantic_pruning": true}
	for _, version := range []Version{V1, RC2, RC3} {
		r := &optionReader{raw: yamlsrc.NewMap(), seen: seen}
		if _, err := r.options(version); err != nil {
			panic("graph: the default options do not resolve: " + err.Error())
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// knownOptions holds OptionNames and the two option names the reference
// accepts without reading them as options of §4 (variability.md §4.4):
// technology_required, which the normaliser deletes, and bratans_unknown,
// which the resolver sets itself.
var knownOptions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"technology_required": true, "bratans_unknown": true}
	for _, n := range optionNames() {
		m[n] = true
	}
	return m
})

// IsOption reports whether name is a variability option that Vintner 0.1.8
// knows (OptionNames, §4.4); it ignores every other name silently.
func IsOption(name string) bool { return knownOptions()[name] }
