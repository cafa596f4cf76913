package validate

import (
	"maps"
	"sort"
	"sync"

	"v4t/model/yamlsrc"
)

// The grammar: for each entity, its fields, the YAML kinds each field may
// have, and whether it is required. TOSCA 1.3 §3.6 (definitions), §3.7
// (types), §3.8 (templates), §3.9 (topology template), §3.10 (service
// template); the Variability4TOSCA extensions (variability.md §3–§5) are
// added only to the grammar of variable templates.

// kinds is a set of YAML kinds.
type kinds uint16

const (
	kNull kinds = 1 << iota
	kBool
	kNumber
	kString
	kTime
	kMap
	kList

	kScalar = kBool | kNumber | kString | kTime
	kAnyK   = kNull | kScalar | kMap | kList
)

func kindBit(x *yamlsrc.Value) kinds {
	if x == nil {
		return kNull
	}
	switch x.Kind {
	case yamlsrc.KindBool:
		return kBool
	case yamlsrc.KindNumber:
		return kNumber
	case yamlsrc.KindString:
		return kString
	case yamlsrc.KindTime:
		return kTime
	case yamlsrc.KindMap:
		return kMap
	case yamlsrc.KindList:
		return kList
	}
	return kNull
}

// expected names a kind set for messages.
func (k kinds) expected() string {
	k &^= kNull
	switch k {
	case kMap:
		return "a map"
	case kList:
		return "a list"
	case kString:
		return "a string"
	case kBool:
		return "a boolean"
	case kNumber:
		return "a number"
	case kMap | kList:
		return "a map or a list"
	case kString | kMap:
		return "a string or a map"
	case kString | kList:
		return "a string or a list"
	case kBool | kNumber:
		return "a number or a boolean"
	case kString | kMap | kList:
		return "a string, a map or a list"
	}
	if k&kScalar == k {
		return "a scalar"
	}
	return "a value"
}

type field struct {
	kinds    kinds
	required bool
}

// fieldSet is the grammar of one entity: its fields by name, and the
// names of the required ones in order, so that checking a map for missing
// fields does not walk the whole grammar.
type fieldSet struct {
	m        map[string]field
	required []string
}

type fields = *fieldSet

// mk returns the field set of m.
func mk(m map[string]field) fields {
	f := &fieldSet{m: m}
	for k, fl := range m {
		if fl.required {
			f.required = append(f.required, k)
		}
	}
	sort.Strings(f.required)
	return f
}

func opt(k kinds) field { return field{kinds: k | kNull} }
func req(k kinds) field { return field{kinds: k, required: true} }

// with returns a copy of f with more fields.
func (f *fieldSet) with(more ...fields) fields {
	out := make(map[string]field, len(f.m)+8)
	maps.Copy(out, f.m)
	for _, m := range more {
		maps.Copy(out, m.m)
	}
	return mk(out)
}

// grammarTables are the field tables of the grammar, made on first use:
// only validation reads them (v4t validate, completion, the hint of a
// failed resolve), and making them at start-up cost every v4t process
// three hundred allocations.
type grammarTables struct {
	elementFields                   fields
	serviceTemplateFields           fields
	importFieldsPlain               fields
	importFieldsVariable            fields
	typeFields                      fields
	typeGrammar                     [nKinds]fields
	propertyDefFields               fields
	schemaFields                    fields
	capabilityDefFields             fields
	requirementDefFields            fields
	artifactDefFields               fields
	topologyFieldsPlain             fields
	topologyFieldsVariable          fields
	variabilityFields               fields
	presetFields                    fields
	parameterFieldsPlain            fields
	parameterFieldsVariable         fields
	nodeTemplateFieldsPlain         fields
	nodeTemplateFieldsVariable      fields
	requirementAssignFieldsPlain    fields
	requirementAssignFieldsVariable fields
	relationshipAssignFields        fields
	capabilityAssignFields          fields
	operationFields                 fields
	implementationFields            fields
	artifactFieldsPlain             fields
	artifactFieldsVariable          fields
	relTemplateFieldsPlain          fields
	relTemplateFieldsVariable       fields
	groupFieldsPlain                fields
	groupFieldsVariable             fields
	policyFieldsPlain               fields
	policyFieldsVariable            fields
	typeAssignFields                fields
	propertyWrapFields              fields
	technologyFields                fields
}

// grammar returns the field tables.
var grammar = sync.OnceValue(func() *grammarTables {
	// elementFields are the Variability4TOSCA keys any conditional element
	// may carry (variability.md §3.4.2, §5.7, §5.12).
	elementFields := mk(map[string]field{
		"conditions":                    opt(kAnyK),
		"default_alternative":           opt(kBool),
		"implied":                       opt(kBool),
		"implies":                       opt(kList),
		"pruning":                       opt(kBool),
		"consistency_pruning":           opt(kBool),
		"semantic_pruning":              opt(kBool),
		"default_condition":             opt(kBool),
		"default_consistency_condition": opt(kBool),
		"default_semantic_condition":    opt(kBool),
		"default_condition_mode":        opt(kString),
	})

	serviceTemplateFields := mk(map[string]field{
		"tosca_definitions_version": req(kString),
		"namespace":                 opt(kString),
		"metadata":                  opt(kMap),
		"description":               opt(kString),
		"dsl_definitions":           opt(kAnyK),
		"repositories":              opt(kMap),
		"imports":                   opt(kList),
		"artifact_types":            opt(kMap),
		"data_types":                opt(kMap),
		"capability_types":          opt(kMap),
		"interface_types":           opt(kMap),
		"relationship_types":        opt(kMap),
		"node_types":                opt(kMap),
		"group_types":               opt(kMap),
		"policy_types":              opt(kMap),
		"topology_template":         opt(kMap),
	})

	importFieldsPlain := mk(map[string]field{
		"file":             req(kString),
		"repository":       opt(kString),
		"namespace_uri":    opt(kString),
		"namespace_prefix": opt(kString),
	})
	importFieldsVariable := importFieldsPlain.with(elementFields)

	typeFields := mk(map[string]field{
		"derived_from": opt(kString),
		"version":      opt(kScalar),
		"metadata":     opt(kMap),
		"description":  opt(kString),
	})

	typeGrammar := [nKinds]fields{
		kArtifact:     typeFields.with(mk(map[string]field{"mime_type": opt(kString), "file_ext": opt(kList), "properties": opt(kMap)})),
		kData:         typeFields.with(mk(map[string]field{"constraints": opt(kList), "properties": opt(kMap), "key_schema": opt(kString | kMap), "entry_schema": opt(kString | kMap)})),
		kCapability:   typeFields.with(mk(map[string]field{"properties": opt(kMap), "attributes": opt(kMap), "valid_source_types": opt(kList)})),
		kInterface:    nil, // operations may be keys of their own (TOSCA 1.2 form): checked in decodeType
		kRelationship: typeFields.with(mk(map[string]field{"properties": opt(kMap), "attributes": opt(kMap), "interfaces": opt(kMap), "valid_target_types": opt(kList)})),
		kNode:         typeFields.with(mk(map[string]field{"properties": opt(kMap), "attributes": opt(kMap), "requirements": opt(kList), "capabilities": opt(kMap), "interfaces": opt(kMap), "artifacts": opt(kMap)})),
		kGroup:        typeFields.with(mk(map[string]field{"properties": opt(kMap), "attributes": opt(kMap), "members": opt(kList), "requirements": opt(kList), "capabilities": opt(kMap), "interfaces": opt(kMap)})),
		kPolicy:       typeFields.with(mk(map[string]field{"properties": opt(kMap), "targets": opt(kList), "triggers": opt(kMap)})),
	}

	propertyDefFields := mk(map[string]field{
		"type":            req(kString),
		"description":     opt(kString),
		"required":        opt(kBool),
		"default":         opt(kAnyK),
		"value":           opt(kAnyK),
		"status":          opt(kString),
		"constraints":     opt(kList),
		"key_schema":      opt(kString | kMap),
		"entry_schema":    opt(kString | kMap),
		"external_schema": opt(kString),
		"metadata":        opt(kMap),
	})

	schemaFields := mk(map[string]field{
		"type":         req(kString),
		"description":  opt(kString),
		"constraints":  opt(kList),
		"key_schema":   opt(kString | kMap),
		"entry_schema": opt(kString | kMap),
	})

	capabilityDefFields := mk(map[string]field{
		"type":               req(kString),
		"description":        opt(kString),
		"properties":         opt(kMap),
		"attributes":         opt(kMap),
		"valid_source_types": opt(kList),
		"occurrences":        opt(kList),
	})

	requirementDefFields := mk(map[string]field{
		"capability":   req(kString),
		"node":         opt(kString),
		"relationship": opt(kString | kMap),
		"occurrences":  opt(kList),
		"description":  opt(kString),
		"node_filter":  opt(kMap),
	})

	artifactDefFields := mk(map[string]field{
		"type":               req(kString),
		"file":               req(kString),
		"repository":         opt(kString),
		"description":        opt(kString),
		"deploy_path":        opt(kString),
		"artifact_version":   opt(kScalar),
		"checksum":           opt(kString),
		"checksum_algorithm": opt(kString),
		"properties":         opt(kMap),
	})

	topologyFieldsPlain := mk(map[string]field{
		"description":            opt(kString),
		"inputs":                 opt(kMap),
		"node_templates":         opt(kMap),
		"relationship_templates": opt(kMap),
		"groups":                 opt(kMap),
		"policies":               opt(kList),
		"outputs":                opt(kMap),
		"substitution_mappings":  opt(kMap),
		"workflows":              opt(kMap),
	})
	// In a variable template, inputs, outputs, node templates and groups
	// may be lists of single-entry maps (variability.md §3.2).
	topologyFieldsVariable := topologyFieldsPlain.with(mk(map[string]field{
		"inputs":         opt(kMap | kList),
		"node_templates": opt(kMap | kList),
		"groups":         opt(kMap | kList),
		"outputs":        opt(kMap | kList),
		"variability":    opt(kMap),
	}))

	variabilityFields := mk(map[string]field{
		"inputs":                   opt(kMap),
		"presets":                  opt(kMap),
		"expressions":              opt(kMap),
		"constraints":              opt(kList),
		"options":                  opt(kMap),
		"type_specific_conditions": opt(kString | kMap),
		"qualities":                opt(kString | kList),
		"plugins":                  opt(kMap),
	})

	// presetFields are the keys of a variability preset (variability.md §6):
	// the resolver merges its inputs map and ignores the rest, so a preset
	// that is not a map, or inputs that are not one, assign nothing.
	presetFields := mk(map[string]field{
		"name":        opt(kString),
		"description": opt(kString),
		"inputs":      opt(kMap),
	})

	parameterFieldsPlain := mk(map[string]field{
		"type":            opt(kString),
		"description":     opt(kString),
		"value":           opt(kAnyK),
		"required":        opt(kBool),
		"default":         opt(kAnyK),
		"status":          opt(kString),
		"constraints":     opt(kList),
		"key_schema":      opt(kString | kMap),
		"entry_schema":    opt(kString | kMap),
		"external_schema": opt(kString),
		"metadata":        opt(kMap),
	})
	parameterFieldsVariable := parameterFieldsPlain.with(elementFields)

	nodeTemplateFieldsPlain := mk(map[string]field{
		"type":         req(kString),
		"description":  opt(kString),
		"metadata":     opt(kMap),
		"directives":   opt(kList),
		"properties":   opt(kMap),
		"attributes":   opt(kMap),
		"requirements": opt(kList),
		"capabilities": opt(kMap),
		"interfaces":   opt(kMap),
		"artifacts":    opt(kMap),
		"node_filter":  opt(kMap),
		"copy":         opt(kString),
	})
	nodeTemplateFieldsVariable := nodeTemplateFieldsPlain.with(elementFields, mk(map[string]field{
		"type":       req(kString | kList),
		"properties": opt(kMap | kList),
		"artifacts":  opt(kMap | kList),
		"weight":     opt(kNumber | kBool),
		"persistent": opt(kBool),
		"managed":    opt(kBool),
		"technology": opt(kString | kList),
	}))

	requirementAssignFieldsPlain := mk(map[string]field{
		"capability":   opt(kString),
		"node":         opt(kString),
		"relationship": opt(kString | kMap),
		"node_filter":  opt(kMap),
		"occurrences":  opt(kList),
		"description":  opt(kString),
	})
	requirementAssignFieldsVariable := requirementAssignFieldsPlain.with(elementFields)

	relationshipAssignFields := mk(map[string]field{
		"type":       req(kString),
		"properties": opt(kMap),
		"interfaces": opt(kMap),
	})

	capabilityAssignFields := mk(map[string]field{
		"properties":  opt(kMap),
		"attributes":  opt(kMap),
		"occurrences": opt(kList),
	})

	operationFields := mk(map[string]field{
		"description":    opt(kString),
		"implementation": opt(kString | kMap),
		"inputs":         opt(kMap),
		"outputs":        opt(kMap),
	})
	implementationFields := mk(map[string]field{
		"primary":        opt(kString | kMap),
		"dependencies":   opt(kList),
		"timeout":        opt(kNumber),
		"operation_host": opt(kString),
	})

	artifactFieldsPlain := artifactDefFields
	artifactFieldsVariable := artifactDefFields.with(elementFields, mk(map[string]field{"type": opt(kString | kList), "properties": opt(kMap | kList)}))
	relTemplateFieldsPlain := mk(map[string]field{"type": req(kString), "description": opt(kString), "metadata": opt(kMap), "properties": opt(kMap), "attributes": opt(kMap), "interfaces": opt(kMap), "copy": opt(kString)})
	relTemplateFieldsVariable := relTemplateFieldsPlain.with(elementFields, mk(map[string]field{"type": req(kString | kList), "properties": opt(kMap | kList)}))
	groupFieldsPlain := mk(map[string]field{"type": req(kString), "description": opt(kString), "metadata": opt(kMap), "properties": opt(kMap), "attributes": opt(kMap), "members": opt(kList), "interfaces": opt(kMap)})
	groupFieldsVariable := groupFieldsPlain.with(elementFields, mk(map[string]field{"type": req(kString | kList), "properties": opt(kMap | kList)}))
	policyFieldsPlain := mk(map[string]field{"type": req(kString), "description": opt(kString), "metadata": opt(kMap), "properties": opt(kMap), "targets": opt(kList), "triggers": opt(kMap)})
	policyFieldsVariable := policyFieldsPlain.with(elementFields, mk(map[string]field{"type": req(kString | kList), "properties": opt(kMap | kList)}))

	// typeAssignFields are the keys of an entry of a V4T type list.
	typeAssignFields := elementFields
	// propertyWrapFields are the keys of a wrapped V4T property in list form.
	propertyWrapFields := elementFields.with(mk(map[string]field{"value": opt(kAnyK), "expression": opt(kAnyK)}))
	// technologyFields are the keys of a V4T technology entry.
	technologyFields := elementFields.with(mk(map[string]field{"assign": opt(kString), "weight": opt(kNumber | kBool), "hosting": opt(kList)}))
	return &grammarTables{
		elementFields:                   elementFields,
		serviceTemplateFields:           serviceTemplateFields,
		importFieldsPlain:               importFieldsPlain,
		importFieldsVariable:            importFieldsVariable,
		typeFields:                      typeFields,
		typeGrammar:                     typeGrammar,
		propertyDefFields:               propertyDefFields,
		schemaFields:                    schemaFields,
		capabilityDefFields:             capabilityDefFields,
		requirementDefFields:            requirementDefFields,
		artifactDefFields:               artifactDefFields,
		topologyFieldsPlain:             topologyFieldsPlain,
		topologyFieldsVariable:          topologyFieldsVariable,
		variabilityFields:               variabilityFields,
		presetFields:                    presetFields,
		parameterFieldsPlain:            parameterFieldsPlain,
		parameterFieldsVariable:         parameterFieldsVariable,
		nodeTemplateFieldsPlain:         nodeTemplateFieldsPlain,
		nodeTemplateFieldsVariable:      nodeTemplateFieldsVariable,
		requirementAssignFieldsPlain:    requirementAssignFieldsPlain,
		requirementAssignFieldsVariable: requirementAssignFieldsVariable,
		relationshipAssignFields:        relationshipAssignFields,
		capabilityAssignFields:          capabilityAssignFields,
		operationFields:                 operationFields,
		implementationFields:            implementationFields,
		artifactFieldsPlain:             artifactFieldsPlain,
		artifactFieldsVariable:          artifactFieldsVariable,
		relTemplateFieldsPlain:          relTemplateFieldsPlain,
		relTemplateFieldsVariable:       relTemplateFieldsVariable,
		groupFieldsPlain:                groupFieldsPlain,
		groupFieldsVariable:             groupFieldsVariable,
		policyFieldsPlain:               policyFieldsPlain,
		policyFieldsVariable:            policyFieldsVariable,
		typeAssignFields:                typeAssignFields,
		propertyWrapFields:              propertyWrapFields,
		technologyFields:                technologyFields,
	}
})

func importFields(variable bool) fields {
	if variable {
		return grammar().importFieldsVariable
	}
	return grammar().importFieldsPlain
}

func pick(variable bool, plain, v fields) fields {
	if variable {
		return v
	}
	return plain
}
