package resolve

import (
	"os"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// namePositions moves the positions of the space's nodes and relations
// from their first value to their names ("cache:" rather than the line of
// its type), where a report points a reader at an element. The template is
// read and parsed again for it: values keep their own positions only, and
// the pipeline has rewritten the document.
func (s *Space) namePositions() {
	data, err := os.ReadFile(s.File)
	if err != nil {
		return
	}
	doc, err := yamlsrc.Parse(data, s.File)
	if err != nil {
		return
	}
	lines := yamlsrc.NewLines(data)
	nodes := doc.Get("topology_template").Get("node_templates")
	for i := range s.Elements {
		e := &s.Elements[i]
		switch e.el.Kind {
		case graph.KindNode:
			if !nodes.IsMap() {
				continue
			}
			for k, name := range nodes.Map().Keys() {
				if name == e.el.Name {
					if line, col, ok := lines.KeyPos(nodes, k); ok {
						e.Pos.Line, e.Pos.Col = line, col
					}
					break
				}
			}
		case graph.KindRelation:
			if m := e.el.Entry; m.IsMap() && m.Map().Len() == 1 {
				if line, col, ok := lines.KeyPos(m, 0); ok {
					e.Pos.Line, e.Pos.Col = line, col
				}
			}
		}
	}
}
