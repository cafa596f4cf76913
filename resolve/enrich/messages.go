package enrich

// Every message of the reference (Vintner 0.1.8) that enrichment raises is
// built here, in one function per shape (style.md §3.5; variability.md
// §16, "Element enrichment", "Condition enrichment" and "Constraint
// enrichment"); the element assertions, the type walks and the JavaScript
// runtime's errors it shares with the graph come from model/graph
// (graph.MsgNotBoolean, graph.MsgCannotReadNull, …). Each function names
// where the reference builds the message: a path under
// opentosca-vintner's build/ directory, or the JavaScript runtime.

// ---------------------------------------------------------------------------
// enricher/elements.js (variability.md §5.3–5.5).

// msgNoImplementation is implementation enrichment's message for a manual
// technology of node that no technology rule implements.
func msgNoImplementation(node, tech *Element) string {
	return node.DisplayUpper() + " has no implementation for " + tech.Display()
}

// msgNoTechnologyCandidates is technology enrichment's message for a
// managed node without technology that no technology rule applies to.
func msgNoTechnologyCandidates(node *Element) string {
	return node.DisplayUpper() + " has no technology candidates"
}

// ---------------------------------------------------------------------------
// graph/element.js, graph/node.js, graph/relation.js, graph/property.js,
// graph/technology.js, enricher/conditions.js (variability.md §5.6–5.10).

// msgTypeSpecificWithoutConditions is the message for the type-specific
// conditions of e's type that hold no conditions.
func msgTypeSpecificWithoutConditions(e *Element) string {
	return e.DisplayUpper() + " holds type-specific condition without any condition"
}

// msgUnknownMode is the message for e's default condition mode that has a
// part the element's kind does not know.
func msgUnknownMode(e *Element, mode string) string {
	return e.DisplayUpper() + ` has unknown mode "` + mode + `" as default condition`
}

// msgNoDefaultAlternativeCondition is the conditions enricher's message for
// a default alternative without the condition that makes it one.
func msgNoDefaultAlternativeCondition(e *Element) string {
	return e.DisplayUpper() + " has no default alternative condition"
}

// ---------------------------------------------------------------------------
// enricher/constraints.js, graph/graph.js (variability.md §5.11, §5.12).

// msgLeftNotDefined is the constraints enricher's message for an implied
// value other than true, "TARGET", "SOURCE" or "CONTAINER".
const msgLeftNotDefined = "Left not defined"

// msgNoTopologyTemplate is the graph's message for adding constraints to a
// service template without topology template.
const msgNoTopologyTemplate = "Service template has no topology template"

// ---------------------------------------------------------------------------
// The JavaScript runtime.

// msgCannotSetNull is the TypeError of setting property prop of null.
func msgCannotSetNull(prop string) string {
	return "Cannot set properties of null (setting '" + prop + "')"
}

// msgCallStackExceeded is the RangeError of a recursion that overflows
// the stack (a hosting cycle in the hosting search).
const msgCallStackExceeded = "Maximum call stack size exceeded"
