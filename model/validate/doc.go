// Package validate owns the static validation of TOSCA 1.3 and
// Variability4TOSCA service templates: it reads a template and the files it
// imports, and reports every problem it finds, each with a file, line and
// column, instead of stopping at the first one. It never resolves
// variability; package resolve does that, and may call Validate to explain a
// failure.
//
// The checks run in phases, after go-puccini's parser (style.md §7.1). A
// phase that fails to read a document leaves it out of the later phases;
// every other problem is reported and the phases go on with what is left,
// so that one run reports everything.
//
//  1. Reading (read.go): the template, its imports (file imports resolved
//     against the importing file, recursively, each file read once, by
//     tosca.ImportWalk, the walk the resolver uses too), and the lib/ type
//     files next to the template that the resolver merges (variability.md
//     §2.5; not with Options.NoLib). Problems: unreadable files, YAML
//     errors (at the offending token, or the tab in an indentation, which
//     yamlsrc/locate.go finds from the text: yaml.v3 names a line only,
//     often an earlier one), documents that are not a map, import entries
//     that are neither a file name nor a map, import cycles ("import cycle:
//     a.yaml → b.yaml → a.yaml"), chains of imports deeper than
//     tosca.MaxImportDepth, URL imports that no embedded file serves
//     (Options.Embedded; there is no network access), imports and lib/
//     type files that leave the template's directory tree (unless
//     Options.AllowOutside), and repositories.
//  2. Syntax (syntax.go, grammar.go): the TOSCA 1.3 service-template
//     grammar (TOSCA 1.3 §3.6–3.10), of a tosca_definitions_version v4t
//     reads, and, in templates whose tosca_definitions_version is a
//     tosca_variability_* version, the Variability4TOSCA extensions
//     (conditions, the variability section, default_alternative, implies,
//     weight, list forms of node templates, types, properties, artifacts,
//     ...). Problems: wrong YAML kinds for a
//     field, unknown fields (with a suggestion), required fields missing,
//     operations and implementations of interface definitions and
//     assignments, constraint clauses (constraints.go: operators of TOSCA
//     1.3 §3.6.3 only, with a suggestion, and arguments of their shapes) in
//     property, schema, input, output and data type definitions, the
//     occurrences of capability and requirement definitions, and
//     variability option names the reference does not read (variability.md
//     §4; it ignores them silently). Short notations (requirement and capability definitions,
//     requirement assignments, V4T type lists and property lists) are
//     normalised to the full form while decoding. Two normative properties
//     are optional as TOSCA 1.3's tables have them (optionalNormative).
//  3. Namespace (namespace.go): the names of each unit, with the import's
//     namespace_prefix, merged into the importer's namespace per entity
//     kind. The normative types are known everywhere under their full name,
//     their short names (Compute, PortDef for tosca.datatypes.network.PortDef)
//     and their prefixed names (tosca:Compute). Problems: ambiguous names
//     (one name, two definitions), redefined normative types, and names not
//     found (a name of another kind says so; else with a suggestion, for a
//     data type from TOSCA's own names first, bool → boolean, then the
//     declared ones).
//  4. Hierarchy (hierarchy.go): derived_from parents that do not exist or
//     are of another kind, and loops in derived_from (walked by
//     tosca.Ancestors, as the resolver walks them). Types whose hierarchy
//     is incomplete are marked broken, and a loop is cut, so that the later
//     phases neither repeat the problem nor walk without end.
//  5. Inheritance (inherit.go): properties, capabilities and requirements
//     are merged down the hierarchy; an override must keep its parent's
//     contract: a property's type stays the same or derives from the
//     parent's, and a capability's type, a requirement's capability type
//     and a requirement's node type stay the same or derive from the
//     parent's.
//  6. Rendering (render.go): node, relationship, group and policy templates
//     against their types: the type exists, properties are defined by it and
//     their values have the declared type (the fields of data type values
//     too), required properties and fields without a default are present,
//     requirements and capabilities are defined, a requirement's
//     relationship names a relationship template or type, requirement
//     targets exist and have a compatible type and capability,
//     capability assignments' properties are defined by the capability type
//     and of their types, the lower bound of an explicit occurrences is met,
//     get_input names an input, interface types exist, and the default of a
//     typed input or variability input has its type. Literal values of the
//     right type also meet the constraints of their definitions and data
//     types (constraints.go; not the alternatives of V4T property lists).
//     Operations and notifications of interface definitions and
//     assignments are defined by the interface type or its parents, and an
//     assignment's interface by the template's type (operations.go). Group
//     members name node templates (or [node, requirement]), policy targets
//     node templates or groups, and the capability a requirement's target
//     offers accepts the source's type by its valid_source_types
//     (relations.go).
//  7. Variability (variability.go), in templates of a tosca_variability_*
//     version only: what the resolver would read in conditions, implies,
//     constraints, expressions, default_expression and presets, each at the
//     offending word. Problems: variability inputs that are not declared,
//     logic_expression and value_expression names not in
//     variability.expressions, presence operators (node_presence,
//     relation_presence, ... by name or index) naming elements that do not
//     exist, unknown operators (with a suggestion from the evaluator's and
//     the translator's tables), and presets assigning undeclared inputs. It
//     is the validator's view: what resolve accepts does not change.
//
// Problems are returned as a diag.List sorted by file, line and column,
// without duplicates and without follow-ons: a problem that says again
// what one reported before it says of the same value or key is dropped
// (defectClass in problems.go). Follow-ons at other positions are avoided
// where they arise: properties that cannot be read (a list in a plain
// template) leave the template's required properties unchecked. Messages
// are our own (style.md §3.5): lower case, naming the offending key or
// name.
//
// Cost: a template with tens of thousands of templates and as many
// problems must stay cheap next to a resolve (BenchmarkValidateRing). The
// names of entities in messages (subject), key positions (place) and the
// messages themselves are therefore built only for problems that are
// reported; a clean template builds none of them.
package validate
