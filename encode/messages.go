package encode

import (
	"v4t/model/graph"

	"v4t/model/js"
)

// Every message of the reference (Vintner 0.1.8) and of its SAT library
// that the translation raises is built here, in one function per shape
// (style.md §3.5; variability.md §16, "Solver — translation"); the element
// assertions, the lookups and the JavaScript runtime's errors it shares
// with the graph come from model/graph (graph.MsgNotString, …). Each
// function names where the reference builds the message: a path under
// opentosca-vintner's build/ directory, or logic-solver, the reference's
// SAT library (logic-solver.js).

// ---------------------------------------------------------------------------
// resolver/solver.js.

// msgVariabilityGroups is the message for a variability group that is
// left when the conditions are translated.
const msgVariabilityGroups = "Variability groups are not allowed"

// msgLogicExpressionMissing is the message for a logic_expression that
// names no logic expression.
func msgLogicExpressionMissing(name string) string {
	return `Did not find logic expression "` + name + `"`
}

// msgLogicExpressionString is the message for a logic_expression x that
// names a logic expression that is a string.
func msgLogicExpressionString(x *Value) string {
	return `Logic expression "` + graph.PrettyOf(x) + `" must not be a string`
}

// msgUnknownValueExpression is the message for a value expression v that
// is none the reference knows.
func msgUnknownValueExpression(v *Value) string {
	return `Unknown value expression "` + graph.PrettyOf(v) + `"`
}

// msgImpliesTooLong is the message for an implies entry of el with more
// than two items.
func msgImpliesTooLong(el *Element) string {
	return el.DisplayUpper() + " has an implies with more than 2 elements"
}

// msgImpliesNoTarget is the message for an implies entry of el without
// target.
//
// Quirk: "an target" (variability.md §17.22).
func msgImpliesNoTarget(el *Element) string {
	return el.DisplayUpper() + " has an implies without an target"
}

// ---------------------------------------------------------------------------
// logic-solver: its argument checks (withDescription) print the argument,
// a string as JSON.stringify prints it and anything else as JavaScript
// converts it to a string, followed by " is not " and the description.

// MsgNotTerm is the check of a single Formula or Term argument; display is
// the argument as the check prints it (see msgStringNotTerm for a string).
func MsgNotTerm(display string) string { return display + " is not a Formula or Term" }

// MsgNotTerms is the check of an array of Formula or Term arguments;
// display is the array as JavaScript joins it (items separated by ",").
func MsgNotTerms(display string) string { return display + " is not an array of a Formula or Term" }

// msgStringNotTerm is MsgNotTerm for the string s.
func msgStringNotTerm(s string) string { return MsgNotTerm(js.Quote(s)) }

// msgGeneratedName is the message for a variable name that starts with $
// and is neither $T nor $F.
const msgGeneratedName = "Only generated variable names can start with $"
