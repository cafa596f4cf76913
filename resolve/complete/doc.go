// Package complete owns TOSCA completion with TosKeriser 0.2.3 semantics
// (completion.md): for software components whose Docker host is abstract (a
// host requirement with only a node_filter), and for deployment-unit
// groups, it picks a Docker image that satisfies the merged constraints,
// adds a tosker.nodes.Container node running it and points the host
// requirements at that node.
//
// The pipeline (completion.md §1), in Complete:
//
//  1. parse (template.go, §3, §10.2): the YAML template, or the CSAR read by
//     model/tosca in memory (entries that escape the archive are rejected);
//     imports, with the TosKer types URL served by an embedded copy;
//     checks that node types are known and that requirement targets and
//     group members are node templates ("Validation error:<details>");
//  2. components (§5.1): the first unknown COMPONENT stops the run;
//  3. node filters (§5.2): every node template's host node_filter, against
//     the source's supported software;
//  4. groups (§5.3): disjointness, software members, one container, hosts
//     inside the group;
//  5. selection and merge (units.go, §6, §7): eligible components, group
//     units with merged constraints (the version merge), single units;
//  6. per unit: the query (query.go, §8), the search (catalog.go,
//     dockerfinder.go, §9), the choice (choose.go, §10.1: through package
//     solver, as a pseudo-Boolean problem whose lexicographic objective is
//     the policy), and the rewrite (rewrite.go, §11);
//  7. the output document or archive (§12); Complete never writes files.
//
// Each of stages 1–5 collects its messages and stops the run if there are
// any; stage 6 runs every unit and then stops if any unit had query errors.
// The messages are the reference's, built in messages.go.
//
// Documents are read into this package's own values (value.go): the
// reference types node filters as a YAML 1.1 loader does and prints values
// with Python's str(), which the project's JavaScript-flavoured yamlsrc
// values cannot express (integer keys such as ports' 8080, int versus
// float). The yaml.v3 node tree is rewritten in place, so the output keeps
// the input's comments, key order and scalar styles.
//
// The corpus runner (runner.go) runs the TosKeriser case format of
// conformance/toskeriser (args.yaml, expected.yaml, errors.txt, ...);
// resolve/suite uses it for `v4t test`.
package complete
