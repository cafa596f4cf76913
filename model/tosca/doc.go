// Package tosca owns what the resolver, completion and the validator share
// of TOSCA Simple Profile in YAML 1.3 service templates, below their own
// models of a document:
//
//   - the type maps (TypeMaps, in the reference's merge order) and the
//     walk up a type hierarchy (Ancestors: the derived_from chain with
//     loop detection; each caller decides what a missing parent or a loop
//     means);
//   - the walk of a template's file imports (ImportWalk: imports resolved
//     against the importing file, each file read once, cycles with their
//     path, the depth bound, the directory tree and URL imports as the
//     caller's hooks);
//   - the template's directory tree (Tree, RealPath): no import or side
//     file is read from outside it, links resolved;
//   - the lib/ type files next to a template (LibFiles, variability.md
//     §2.5);
//   - CSAR reading and writing (ReadCSAR, TOSCA 1.3 §4; completion.md
//     §10.2);
//   - the embedded normative types that the resolver merges into every
//     document (Normative, variability.md §2.5).
//
// The normative profile (normative.yaml) is v4t's own rendering of the
// OASIS TOSCA 1.3 normative types. Its set of type names per type map, and
// every derived_from, match the profile shipped with OpenTOSCA Vintner 0.1.8,
// because duplicate-name errors and is-a walks (variability.md §5.2–5.3)
// depend on them. Every root type derives from tosca.entity.Root
// (EntityRoot), which is not defined anywhere: it only ends derived_from
// walks.
package tosca
