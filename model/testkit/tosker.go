package testkit

import "strings"

// ToskerHeader starts a template for completion (v4t complete): it imports
// the TosKer types and opens node_templates, so that node templates such as
// HostFilterNode's follow it.
const ToskerHeader = `tosca_definitions_version: tosca_simple_yaml_1_0
imports:
- tosker: https://di-unipi-socc.github.io/tosker-types/1.0.0/tosker.yaml
topology_template:
  node_templates:
`

// HostFilterNode is the node template name, of type typ, whose host
// requirement is a node filter with the properties props, each an entry
// written in flow style (e.g. "supported_sw: [{node: 6.x}]"): the node that
// completion gives a container, laid out to follow ToskerHeader.
func HostFilterNode(name, typ string, props ...string) string {
	var b strings.Builder
	b.WriteString(`    ` + name + `:
      type: ` + typ + `
      requirements:
      - host:
          node_filter:
            properties:
`)
	for _, p := range props {
		b.WriteString("            - " + p + "\n")
	}
	return b.String()
}
