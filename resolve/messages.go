package resolve

import (
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Every message of the reference (Vintner 0.1.8) that the loader, the
// validator, the solver, the checker and the transformer raise is built
// here, in one function per shape (style.md §3.5; variability.md §16); the
// element assertions and the JavaScript runtime's errors come from
// model/graph (graph.MsgNotString, graph.MsgHasNoType, …), and the checks
// of the reference's SAT library from encode (encode.MsgNotTerm, …). Each
// function names where the reference builds the message: a path under
// opentosca-vintner's build/ directory, or logic-solver, the reference's
// SAT library (logic-solver.js).

// ---------------------------------------------------------------------------
// graph/loader.js (variability.md §2).

// msgVersionNotSupported is the loader's message for a profile or library
// file whose tosca_definitions_version v is not tosca_simple_yaml_1_3.
func msgVersionNotSupported(v *yamlsrc.Value) string {
	return `TOSCA definitions version "` + yamlsrc.String(v) + `" not supported`
}

// msgTypeDuplicated is the loader's message for a type of the type map key
// that file defines again.
func msgTypeDuplicated(key, name, file string) string {
	return key + ` "` + name + `" duplicated in service template "` + file + `"`
}

// msgDerivedFromItself is the loader's message for a type of the type map
// key that names itself as derived_from.
func msgDerivedFromItself(key, name string) string {
	return key + ` "` + name + `" is derived from itself...`
}

// ---------------------------------------------------------------------------
// resolver/index.js (variability.md §6).

// msgPresetNotFound is the message for a variability preset that the
// template does not declare.
func msgPresetNotFound(name string) string { return `Did not find variability preset "` + name + `"` }

// ---------------------------------------------------------------------------
// resolver/validator.js (variability.md §7).

// msgConstraintsViolated is the validator's message for assigned inputs
// that violate the feature constraints.
const msgConstraintsViolated = "Variability inputs constraints are violated"

// ---------------------------------------------------------------------------
// resolver/solver.js and resolver/optimizer.js (variability.md §10).

// msgCouldNotSolve is the solver's message for an unsatisfiable formula.
const msgCouldNotSolve = "Could not solve"

// msgAmbiguousResult is the optimiser's message for a result that is not
// unique: what is "nodes" or "technologies", mode "without" or "besides".
func msgAmbiguousResult(what, mode string) string {
	return "The result is ambiguous considering " + what + " (" + mode + " optimization)"
}

// msgNotWholeNumbers is logic-solver's check of the weights of an
// objective; display is the weights as JavaScript joins them.
func msgNotWholeNumbers(display string) string {
	return display + " is not an array of a whole number (integer >= 0)"
}

// msgHasNoValue is the solver's (and the transformer's) message for a
// present property without value.
func msgHasNoValue(prop *graph.Element) string { return prop.DisplayUpper() + " has no value" }

// ---------------------------------------------------------------------------
// resolver/checker.js (variability.md §11), in check order.

// msgRelationSourceMissing is the message for a present relation whose
// source is absent.
func msgRelationSourceMissing(r *graph.Element) string {
	return `Relation source "` + r.Container.Name + `" of ` + r.Display() + ` does not exist`
}

// msgRelationTargetMissing is the message for a present relation whose
// target is absent.
func msgRelationTargetMissing(r *graph.Element) string {
	return `Relation target "` + r.Target.Name + `" of ` + r.Display() + ` does not exist`
}

// msgContainerMissing is the message for a present artifact, property,
// type or technology whose container is absent.
func msgContainerMissing(e *graph.Element) string {
	return "Container of " + e.Display() + " does not exist"
}

// msgAmbiguous is the message for an element that is present more than
// once under its name (artifacts, properties, types, inputs, outputs,
// relations).
func msgAmbiguous(e *graph.Element) string { return e.DisplayUpper() + " is ambiguous" }

// msgMoreThanOneHosting is the message for a node with several present
// hosting relations.
//
// Quirk: "relations" (variability.md §17.9).
func msgMoreThanOneHosting(n *graph.Element) string {
	return n.DisplayUpper() + " has more than one hosting relations"
}

// msgExpected is the message for a present node whose members of a kind
// (what) are all absent.
func msgExpected(n *graph.Element, what string) string {
	return n.DisplayUpper() + " expected to have " + what
}

// msgExpectedHosting is the message for a present node whose hosting
// relations are all absent.
func msgExpectedHosting(n *graph.Element) string { return msgExpected(n, "a hosting relation") }

// msgExpectedIncoming is the message for a present node whose incoming
// relations are all absent.
func msgExpectedIncoming(n *graph.Element) string { return msgExpected(n, "an incoming relation") }

// msgExpectedArtifact is the message for a present node whose artifacts
// are all absent.
//
// Quirk: "an deployment artifact" (variability.md §17.9).
func msgExpectedArtifact(n *graph.Element) string { return msgExpected(n, "an deployment artifact") }

// msgExpectedTechnology is the message for a present node whose
// technologies are all absent.
func msgExpectedTechnology(n *graph.Element) string { return msgExpected(n, "a technology") }

// msgMoreThanOneTechnology is the message for a node with several present
// technologies.
func msgMoreThanOneTechnology(n *graph.Element) string {
	return n.DisplayUpper() + " has more than one technology"
}

// msgNotConsumed is the message for an input that no present property
// consumes.
func msgNotConsumed(in *graph.Element) string { return in.DisplayUpper() + " is not consumed" }

// msgNotProduced is the message for an output with an absent producer.
func msgNotProduced(out *graph.Element) string { return out.DisplayUpper() + " is not produced" }

// ---------------------------------------------------------------------------
// resolver/transformer.js (variability.md §12).

// msgNoPresentType is the message for a present element without present
// type.
func msgNoPresentType(e *graph.Element) string { return e.DisplayUpper() + " has no present type" }

// msgNoPresentTechnology is the message for a present node without present
// technology.
func msgNoPresentTechnology(n *graph.Element) string {
	return n.DisplayUpper() + " has no present technology"
}

// msgPolicyTargetNotNodeOrGroup is the message for a policy target that is
// neither a node template nor a group.
func msgPolicyTargetNotNodeOrGroup(target string, pol *graph.Element) string {
	return `Policy target "` + target + `" of "` + pol.Display() + `" is neither a node template nor a group template`
}
