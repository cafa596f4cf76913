package graph

import "v4t/model/yamlsrc"

// Every message of the reference (Vintner 0.1.8) that the graph build, the
// lookups and the type walks raise is built here, in one function per
// shape (style.md §3.5; variability.md §16), and so are the shapes that
// encode, resolve and resolve/enrich share with them: those are exported.
// The spelling, typos included, is the reference's. Each function names
// where the reference builds the message, as a path under the package's
// build/ directory (opentosca-vintner 0.1.8), or, for the errors of the
// JavaScript runtime that the reference fails with, the runtime.
//
// A message that takes an element renders it as the reference's display
// (Display, or DisplayUpper for its capitalised Display); one that takes a
// value renders it as the reference does: JSON.stringify (JSONOf), the
// pretty-printed JSON.stringify(v, null, 4) (PrettyOf) or a template
// string's conversion (yamlsrc.String).

// ---------------------------------------------------------------------------
// utils/assert.js: the element assertions.

// MsgNotString is assert.isString's message.
func MsgNotString(v *Value) string { return `Element "` + JSONOf(v) + `" is not a string` }

// MsgNotStringOrNumber is assert.isStringOrNumber's message.
func MsgNotStringOrNumber(v *Value) string {
	return `Element "` + JSONOf(v) + `" is neither a string nor a number`
}

// MsgNotBoolean is assert.isBoolean's default message.
func MsgNotBoolean(v *Value) string { return `Element "` + JSONOf(v) + `" is not a boolean` }

// MsgNotNumber is assert.isNumber's default message.
func MsgNotNumber(v *Value) string { return `Element "` + JSONOf(v) + `" is not a number` }

// MsgNotArray is assert.isArray's default message.
func MsgNotArray(v *Value) string { return `Element "` + JSONOf(v) + `" is not an array` }

// MsgNotObject is assert.isObject's default message.
func MsgNotObject(v *Value) string { return `Element "` + JSONOf(v) + `" is not an object` }

// MsgIsNot is the message of assert.isNode, isRelation, isPolicy, isGroup,
// isImport, isInput, isOutput, isProperty, isType, isArtifact and
// isTechnology for a defined element of another kind; what is the kind with its article as the
// reference writes it: "a node", "a relation", "a import", "an output", ….
func MsgIsNot(e *Element, what string) string { return e.DisplayUpper() + " is not " + what }

// msgElementNotDefined is the same assertions' message for an undefined
// element.
const msgElementNotDefined = "Element not defined"

// MsgUnexpected is the default message of assert.isDefined and of
// utils/error.js's UnexpectedError.
const MsgUnexpected = "Unexpected error"

// msgNotImplemented is utils/error.js's NotImplementedError.
const msgNotImplemented = "Not implemented"

// ---------------------------------------------------------------------------
// graph/graph.js: the version check and the lookups (variability.md §8.5).

// msgUnsupportedVersion is the graph's version check (§3.1).
const msgUnsupportedVersion = "Unsupported TOSCA definitions version"

// msgNotFound is the message of a lookup that finds nothing: what is
// "Node", "Relation", "Group", "Policy", "Artifact", "Import", "Input",
// "Output", "Property" or "Type", and name the reference as the lookup
// prints it (the name, or a pretty-printed member).
func msgNotFound(what, name string) string { return what + ` "` + name + `" not found` }

// msgAmbiguous is the message of a lookup that finds several elements;
// what and name as for msgNotFound (and "Technology").
func msgAmbiguous(what, name string) string { return what + ` "` + name + `" is ambiguous` }

// msgTechnologyNotFound is getTechnology's message when it finds nothing.
//
// Quirk: the closing quote is missing (variability.md §17.22).
func msgTechnologyNotFound(data *Value) string {
	return `Technology "` + PrettyOf(data) + ` not found`
}

// msgContainerUndefined is getContainer's message for an undefined
// element.
const msgContainerUndefined = "Element is not defined"

// msgNoContainer is getContainer's message for an element without
// container.
func msgNoContainer(e *Element) string { return e.DisplayUpper() + " has no container" }

// msgCouldNotGetElement is guessElement's message; display is the context
// element's display, "undefined" without one.
func msgCouldNotGetElement(name, display string) string {
	return `Could not get element "` + name + `" from context element "` + display + `" and context cached "undefined"`
}

// ---------------------------------------------------------------------------
// normalizer/index.js (variability.md §3.2).

const (
	msgPoliciesNotArray = "Policies must be an array"
	msgRulesNotLoaded   = "Rules not loaded"
)

// ---------------------------------------------------------------------------
// graph/options.js (variability.md §4).

// msgPruningModeUnknown is the message for an unknown pruning mode.
func msgPruningModeUnknown(mode string) string { return `Pruning mode "` + mode + `" unknown` }

// msgOptimizationValue is the message for optimization_topology or
// optimization_technologies (key) that is neither a boolean nor "min" or
// "max".
func msgOptimizationValue(key string) string {
	return "Option " + key + ` must be a boolean, "min", or "max"`
}

// The messages for an unknown optimisation mode: of the topology, and of
// the technologies in version 1.0 and after it.
const (
	msgTopologyMode     = `Option optimization_topology_mode must be "weight" or "count"`
	msgTechnologyModeV1 = `Option optimization_technology_mode must be "weight" or "count"`
	msgTechnologyMode   = `Option optimization_technology_mode must be "weight", "count", or "weight-count"`
)

// ---------------------------------------------------------------------------
// graph/populator.js, graph/node.js, graph/technology.js, graph/group.js
// (variability.md §3.4).

// msgNotNormalized is the populator's message for a top-level list that
// the normaliser left as no list: what is "Inputs", "Outputs", "Imports",
// "Node templates", "Groups" or "Policies".
func msgNotNormalized(what string) string { return what + " not normalized" }

// msgListOfNotNormalized is the populator's message for a list of an
// element that the normaliser left as no list: what is "Types",
// "Properties", "Artifacts" or "Technologies".
func msgListOfNotNormalized(what string, e *Element) string {
	return what + " of " + e.Display() + " not normalized"
}

// msgElementNotNormalized is the populator's message for a property
// container that is no map, and graph/technology.js's for a technology
// without assign.
func msgElementNotNormalized(e *Element) string { return e.DisplayUpper() + " not normalized" }

// msgImportNotNormalized is the populator's message for an import that is
// no object.
func msgImportNotNormalized(i int) string { return "Import with index " + itoa(i) + " not normalized" }

// msgRequirementNotNormalized is the populator's message for a requirement
// assignment that is no object.
func msgRequirementNotNormalized(name string, node *Element) string {
	return `Requirement assignment "` + name + `" of "` + node.Display() + `" not normalized`
}

// msgArtifactNotNormalized is the populator's message for an artifact that
// is no object.
func msgArtifactNotNormalized(name string, node *Element) string {
	return `Artifact "` + name + `" of ` + node.Display() + ` not normalized`
}

// msgRequirementsNotArray is the populator's message for requirements that
// are no list.
//
// Quirk: the closing quote is missing, as in the reference.
func msgRequirementsNotArray(node *Element) string {
	return `Requirements assignments of "` + node.Display() + ` must be an array`
}

// msgDefinedMultipleTimes is the populator's message for a node template
// or group (what: "Node", "Group") whose name is taken.
func msgDefinedMultipleTimes(what, name string) string {
	return what + ` "` + name + `" defined multiple times`
}

// msgNodeNamed is the populator's message for a node template named
// "SELF" or "CONTAINER".
func msgNodeNamed(name string) string { return `Node must not be named "` + name + `"` }

// msgMultipleDefaults is the populator's message for inputs, outputs,
// properties, relations or artifacts of one name with several default
// alternatives; e is the first of them.
func msgMultipleDefaults(e *Element) string { return e.DisplayUpper() + " has multiple defaults" }

// msgMultipleDefaultTypes is the populator's message for an element with
// several default types.
func msgMultipleDefaultTypes(e *Element) string {
	return e.DisplayUpper() + " has multiple default types"
}

// msgMultipleDefaultTechnologies is the populator's message for a node
// with several default technologies.
func msgMultipleDefaultTechnologies(node *Element) string {
	return node.DisplayUpper() + " has multiple default technologies"
}

// MsgHasNoType is the populator's message for an element without type,
// and the checker's (resolver/checker.js) for one without present type.
func MsgHasNoType(e *Element) string { return e.DisplayUpper() + " has no type" }

// msgNoValueOrExpression is the populator's message for a property with
// neither value nor expression.
func msgNoValueOrExpression(prop *Element) string {
	return prop.DisplayUpper() + " has no value or expression defined"
}

// msgRelationshipTemplateInline is the populator's message for a relation
// whose relationship is a template of its own.
func msgRelationshipTemplateInline(name string, node *Element) string {
	return `Relation "` + name + `" of "` + node.Display() + `" contains a relationship template which is currently not supported`
}

// msgRelationshipMissing is the populator's message for a relation that
// names a relationship template that does not exist.
func msgRelationshipMissing(relationship, name string, node *Element) string {
	return `Relationship "` + relationship + `" of relation "` + name + `" of ` + node.Display() + ` does not exist!`
}

// msgRelationshipUsedTwice is the populator's message for a relationship
// template that two relations name.
func msgRelationshipUsedTwice(relationship string) string {
	return `Relation "` + relationship + `" is used multiple times`
}

// msgRelationshipNeverUsed is the populator's message for a relationship
// template that no relation names.
func msgRelationshipNeverUsed(relationship string) string {
	return `Relation "` + relationship + `" is never used`
}

// msgTargetMissing is the populator's message for a relation whose target
// node template does not exist.
func msgTargetMissing(target string, r *Element) string {
	return `Target "` + target + `" of ` + r.Display() + ` does not exist`
}

// msgMemberBadFormat is the populator's message for a group member that is
// neither a string nor a list.
func msgMemberBadFormat(m *Value) string { return `Member "` + PrettyOf(m) + `" has bad format` }

// msgVariabilityGroupConditional is graph/group.js's message for a
// variability group with more than one type.
func msgVariabilityGroupConditional(group *Element) string {
	return group.DisplayUpper() + " is a variability group but has conditional types"
}

// msgPolicyTargetMissing is the populator's message for a policy target
// that is neither a node template nor a group.
func msgPolicyTargetMissing(target string, pol *Element) string {
	return `Policy target "` + target + `" of ` + pol.Display() + ` does not exist`
}

// msgNotPropertyContainer is the populator's message for a get_property
// container that is neither a node, a group nor a policy.
func msgNotPropertyContainer(e *Element) string {
	return e.DisplayUpper() + " is not a property container"
}

// msgReferenceNotFound is the populator's message for a get_property
// reference through a relation or artifact that the node does not have.
//
// Quirk: the reference prints the reference map as "[object Object]".
func msgReferenceNotFound(prop *Element) string {
	return `Reference "[object Object]" at property ` + prop.Display() + ` did not find any relation or artifact.`
}

// msgPersistentRequired is the populator's persistent check (§3.4.6).
const msgPersistentRequired = `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`

// The weight messages of graph/node.js (a node's weight) and
// graph/technology.js (a technology's, whose type is checked by
// assert.isNumber's default message instead).

// msgWeightNotNumber is graph/node.js's message for a weight that is not a
// number.
func msgWeightNotNumber(w *Value, e *Element) string {
	return `Weight "` + yamlsrc.String(w) + `" of ` + e.Display() + ` is not a number or boolean`
}

// msgWeightNegative is the message for a negative weight.
func msgWeightNegative(w *Value, e *Element) string {
	return `Weight "` + yamlsrc.String(w) + `" of ` + e.Display() + ` is a negative number`
}

// msgWeightAboveOne is the message for a weight above 1.
func msgWeightAboveOne(w *Value, e *Element) string {
	return `Weight "` + yamlsrc.String(w) + `" of ` + e.Display() + ` is larger than 1`
}

// ---------------------------------------------------------------------------
// graph/node.js, graph/relation.js, graph/artifact.js, graph/policy.js,
// graph/inheritance.js (variability.md §5.2, §5.3).

// msgMoreThanOneType is getType's message for an element with several
// types.
func msgMoreThanOneType(e *Element) string { return e.DisplayUpper() + " has more than one type" }

// msgNodeTypeMissing is graph/node.js's message for a node type without
// definition.
func msgNodeTypeMissing(name string) string { return `Node type "` + name + `" does not exist` }

// msgStartNoDefinition is the inheritance walk's message for a start type
// without definition in the type map key.
func msgStartNoDefinition(key, start string) string {
	return `starting ` + key + ` "` + start + `" has no definition`
}

// msgNoDefinition is the inheritance walk's message for a parent type
// without definition in the type map key.
func msgNoDefinition(key, name string) string { return key + ` "` + name + `" has no definition` }

// ---------------------------------------------------------------------------
// utils/utils.js.

// MsgCannotCheckEmpty is isEmpty's message for v, a number or a boolean
// (see JSIsEmpty).
func MsgCannotCheckEmpty(v *Value) string {
	return "Cannot check if object " + PrettyOf(v) + " is empty"
}

// ---------------------------------------------------------------------------
// The JavaScript runtime's errors, in V8's wording, where the reference
// fails on malformed input: a diagnostic keeps them as the reference's
// message beside v4t's own (diag.AtRef), or as its message.

// MsgCannotReadNull is the TypeError of reading property prop of null.
func MsgCannotReadNull(prop string) string {
	return "Cannot read properties of null (reading '" + prop + "')"
}

// MsgCannotReadUndefined is the TypeError of reading property prop of
// undefined.
func MsgCannotReadUndefined(prop string) string {
	return "Cannot read properties of undefined (reading '" + prop + "')"
}

// MsgNullToObject is the TypeError of Object.entries, Object.keys or
// delete of null or undefined.
const MsgNullToObject = "Cannot convert undefined or null to object"

// MsgNotAFunction is the TypeError of calling expr, which is no function.
func MsgNotAFunction(expr string) string { return expr + " is not a function" }

// msgNotAFunctionOrIterable is the TypeError of iterating the result of
// calling expr, where expr is no function.
func msgNotAFunctionOrIterable(expr string) string {
	return expr + " is not a function or its return value is not iterable"
}

// MsgNotIterable is the TypeError of a for-of loop over what, an object
// that is not iterable.
func MsgNotIterable(what string) string { return what + " is not iterable" }

// MsgNotIterableSymbol is the TypeError of iterating or destructuring
// what ("undefined", "object", "number 5", …), which is not iterable.
func MsgNotIterableSymbol(what string) string {
	return what + " is not iterable (cannot read property Symbol(Symbol.iterator))"
}

// MsgCannotCreateProperty is the TypeError for setting property prop on
// v, a string, a number or a boolean (JavaScript primitives take no
// properties in strict mode): "Cannot create property 'prop' on string 'x'".
func MsgCannotCreateProperty(prop string, v *Value) string {
	typ := "boolean"
	switch v.Kind {
	case yamlsrc.KindString:
		typ = "string"
	case yamlsrc.KindNumber:
		typ = "number"
	}
	return "Cannot create property '" + prop + "' on " + typ + " '" + yamlsrc.String(v) + "'"
}

// msgCannotAssignReadOnly is the TypeError for writing the first character
// of the string s.
func msgCannotAssignReadOnly(s string) string {
	return "Cannot assign to read only property '0' of string '" + s + "'"
}
