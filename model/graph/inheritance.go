package graph

import (
	"slices"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Spec variability.md §5.3 (is-a walks over derived_from, with
// tosca.Ancestors).

var typeFallbacks = map[string]string{
	"artifact_types":     "tosca.artifacts.Root",
	"capability_types":   "tosca.capabilities.Root",
	"data_types":         "tosca.datatypes.Root",
	"group_types":        "tosca.groups.Root",
	"interface_types":    "tosca.interfaces.Root",
	"node_types":         "tosca.nodes.Root",
	"policy_types":       "tosca.policies.Root",
	"relationship_types": "tosca.relationships.Root",
}

// TypeDef returns the definition of a type in one of the document's type
// maps, or nil.
func (g *Graph) TypeDef(key, name string) *Value {
	return g.Doc.Get(key).Get(name)
}

// TypeChain walks from start up the derived_from chain (a type without
// derived_from continues at the map's root type) and stops after the type
// whose derived_from is tosca.entity.Root. It returns the visited names and
// definitions in order.
func (g *Graph) TypeChain(key, start string) ([]string, []*Value, error) {
	types := g.Doc.Get(key)
	if !types.IsMap() || !types.Has(start) {
		return nil, nil, diag.New(diag.StageEnrich, msgStartNoDefinition(key, start))
	}
	var defs []*Value
	var missing *string // the parent that has no definition
	names, loop := tosca.Ancestors(start, func(name string) (string, bool) {
		def := types.Get(name)
		defs = append(defs, def)
		parent := def.Get("derived_from")
		next := typeFallbacks[key]
		if !parent.IsNull() {
			if parent.Kind == yamlsrc.KindString && parent.Str() == tosca.EntityRoot {
				return "", false
			}
			next = yamlsrc.String(parent)
		}
		if !types.Has(next) {
			missing = &next
			return "", false
		}
		return next, true
	})
	if missing != nil {
		return nil, nil, diag.New(diag.StageEnrich, msgNoDefinition(key, *missing))
	}
	if loop != nil {
		return nil, nil, diag.New(diag.StageEnrich, key+` "`+loop[0]+`" is derived from itself (loop in derived_from)`)
	}
	return names, defs, nil
}

// IsA reports whether type is (derived from) question in the type map key.
func (g *Graph) IsA(key, typ, question string) (bool, error) {
	names, _, err := g.TypeChain(key, typ)
	if err != nil {
		return false, err
	}
	if slices.Contains(names, question) {
		return true, nil
	}
	return false, nil
}

// SingleType returns the one type of a container, failing for several
// (`<Display> has more than one type`).
func (e *Element) SingleType() (*Element, error) {
	if len(e.Types) > 1 {
		return nil, diag.At(e.Pos(), diag.StageEnrich, msgMoreThanOneType(e))
	}
	if len(e.Types) == 0 {
		return nil, diag.AtRef(e.Pos(), diag.StageEnrich, MsgHasNoType(e), MsgCannotReadUndefined("name"))
	}
	return e.Types[0], nil
}

// Managed reports whether a node needs a deployment technology (§5.2).
func (e *Element) Managed() (bool, error) {
	if m := e.Raw.Get("managed"); !m.IsNull() {
		if m.Kind != yamlsrc.KindBool {
			return false, diag.At(e.Pos(), diag.StageEnrich, MsgNotBoolean(m))
		}
		return m.Bool, nil
	}
	if len(e.Technologies) > 0 {
		return true, nil
	}
	t, err := e.SingleType()
	if err != nil {
		return false, err
	}
	types := e.Graph.Doc.Get("node_types")
	if !types.Has(t.Name) || types.Get(t.Name).IsNull() {
		return false, diag.At(e.Pos(), diag.StageEnrich, msgNodeTypeMissing(t.Name))
	}
	md := types.Get(t.Name).Get("metadata").Get("vintner_abstract")
	// Quirk: only the string 'true' marks an abstract type (§17.20).
	if md != nil && md.Kind == yamlsrc.KindString && md.Str() == "true" {
		return false, nil
	}
	return true, nil
}

// TypeKey returns the type map that holds the types of a container kind.
func TypeKey(k Kind) string {
	switch k {
	case KindArtifact:
		return "artifact_types"
	case KindGroup:
		return "group_types"
	case KindPolicy:
		return "policy_types"
	case KindRelation:
		return "relationship_types"
	}
	return "node_types"
}

// HasArtifactDefinition reports whether any type in the node type's chain
// declares an artifact whose type is-a artifactType.
func (g *Graph) HasArtifactDefinition(nodeType, artifactType string) (bool, error) {
	_, defs, err := g.TypeChain("node_types", nodeType)
	if err != nil {
		return false, err
	}
	for _, def := range defs {
		arts := def.Get("artifacts")
		if !arts.IsMap() {
			continue
		}
		for i := 0; i < arts.Map().Len(); i++ {
			a := arts.Map().Val(i)
			t := ArtifactDefaultType
			if !isStr(a) {
				t = yamlsrc.String(a.Get("type"))
			}
			ok, err := g.IsA("artifact_types", t, artifactType)
			if err != nil {
				return false, err
			}
			if ok {
				return true, nil
			}
		}
	}
	return false, nil
}
