// Package tosca owns the TOSCA Simple Profile in YAML 1.3 side of service
// templates: the type maps and their hierarchy, and the embedded normative
// types that the resolver merges into every document (variability.md §2.5).
//
// The normative profile (normative.yaml) is v4t's own rendering of the
// OASIS TOSCA 1.3 normative types. Its set of type names per type map, and
// every derived_from, match the profile shipped with OpenTOSCA Vintner 0.1.8,
// because duplicate-name errors and is-a walks (variability.md §5.2–5.3)
// depend on them. Every root type derives from tosca.entity.Root, which is
// not defined anywhere: it only ends derived_from walks.
package tosca
