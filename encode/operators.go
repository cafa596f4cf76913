package encode

import (
	"regexp"
	"strings"
	"sync"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8.4/§8.5 (logic and presence operators): the
// translation of each operator that a condition map may name (logicKeys).

// logicOp translates the logic operator key of the condition map x, whose
// operand arg is x's value at key, with context element ctx.
type logicOp[F any] func(e *encoder[F], key string, x, arg *Value, ctx *Element) (F, error)

// sharedOps are the operator tables of the formula types this package
// translates into: literals (Encode), any (Translate from resolve) and
// strings (display). Go has no generic variables; building a table costs
// an allocation per operator, which an encoder of one of these types
// saves.
var sharedOps = []any{logicOps[Lit](), logicOps[any](), logicOps[string]()}

// logicOpsFor returns the operator table for formulas of type F: a shared
// one, or else a new one.
func logicOpsFor[F any]() []logicOp[F] {
	for _, t := range sharedOps {
		if ops, ok := t.([]logicOp[F]); ok {
			return ops
		}
	}
	return logicOps[F]()
}

// logicOps is the translation of each operator of logicKeys, by its rank
// (logicRank): translate finds the rank anyway.
func logicOps[F any]() []logicOp[F] {
	byKey := logicOpsByKey[F]()
	ops := make([]logicOp[F], len(logicKeys))
	for k, op := range byKey {
		if r := logicRank.Rank(k); r >= 0 {
			ops[r] = op
		}
	}
	return ops
}

// logicOpsByKey maps each operator of logicKeys to its translation.
func logicOpsByKey[F any]() map[string]logicOp[F] {
	ops := map[string]logicOp[F]{
		"logic_expression": (*encoder[F]).opLogicExpression,
		"and":              (*encoder[F]).opNary,
		"or":               (*encoder[F]).opNary,
		"not":              (*encoder[F]).opNot,
		"xor":              (*encoder[F]).opNary,
		"exo":              (*encoder[F]).opNary,
		"implies":          (*encoder[F]).opImplies,
		"amo":              (*encoder[F]).opNary,

		"container_presence": (*encoder[F]).opContainerPresence,
		"is_managed":         (*encoder[F]).opIsManaged,

		"node_property_presence":     (*encoder[F]).opPropertyPresence,
		"relation_property_presence": (*encoder[F]).opPropertyPresence,
		"group_property_presence":    (*encoder[F]).opPropertyPresence,
		"policy_property_presence":   (*encoder[F]).opPropertyPresence,
		"artifact_property_presence": (*encoder[F]).opPropertyPresence,

		"node_type_presence":     (*encoder[F]).opTypePresence,
		"relation_type_presence": (*encoder[F]).opTypePresence,
		"group_type_presence":    (*encoder[F]).opTypePresence,
		"policy_type_presence":   (*encoder[F]).opTypePresence,
		"artifact_type_presence": (*encoder[F]).opTypePresence,
	}
	for _, p := range []struct {
		key string
		get lookup
		of  func(*encoder[F], *Element) F
	}{
		{"node_presence", (*graph.Graph).GetNode, (*encoder[F]).present},
		{"host_presence", (*graph.Graph).GetNode, (*encoder[F]).hostPresent},
		{"has_source", (*graph.Graph).GetNode, (*encoder[F]).hasSource},
		{"has_incoming_relation", (*graph.Graph).GetNode, (*encoder[F]).hasIncoming},
		{"has_incoming_relation_naive", (*graph.Graph).GetNode, (*encoder[F]).anyIngoing},
		{"has_outgoing_relation", (*graph.Graph).GetNode, (*encoder[F]).hasOutgoing},
		{"has_outgoing_relation_naive", (*graph.Graph).GetNode, (*encoder[F]).anyOutgoing},
		{"has_artifact", (*graph.Graph).GetNode, (*encoder[F]).hasArtifact},
		{"has_artifact_naive", (*graph.Graph).GetNode, (*encoder[F]).anyArtifact},
		{"relation_presence", (*graph.Graph).GetRelation, (*encoder[F]).present},
		{"source_presence", (*graph.Graph).GetRelation, (*encoder[F]).sourcePresent},
		{"target_presence", (*graph.Graph).GetRelation, (*encoder[F]).targetPresent},
		{"policy_presence", (*graph.Graph).GetPolicy, (*encoder[F]).present},
		{"has_present_target", (*graph.Graph).GetPolicy, (*encoder[F]).hasPresentTarget},
		{"group_presence", (*graph.Graph).GetGroup, (*encoder[F]).present},
		{"has_present_member", (*graph.Graph).GetGroup, (*encoder[F]).anyMember},
		{"artifact_presence", (*graph.Graph).GetArtifact, (*encoder[F]).present},
		{"input_presence", (*graph.Graph).GetInput, (*encoder[F]).present},
		{"is_consumed", (*graph.Graph).GetInput, (*encoder[F]).anyConsumer},
		{"output_presence", (*graph.Graph).GetOutput, (*encoder[F]).present},
		{"is_produced", (*graph.Graph).GetOutput, (*encoder[F]).anyProducer},
		{"import_presence", (*graph.Graph).GetImport, (*encoder[F]).present},
		{"technology_presence", (*graph.Graph).GetTechnology, (*encoder[F]).present},
	} {
		ops[p.key] = presenceOp(p.get, p.of)
	}
	return ops
}

// operator translates the logic operator key, of rank rank, of the
// condition map x, whose value at key is arg.
func (e *encoder[F]) operator(key string, rank int, x, arg *Value, ctx *Element) (F, error) {
	if op := e.ops[rank]; op != nil {
		return op(e, key, x, arg, ctx)
	}
	return zero[F](), errf(graph.MsgUnexpected)
}

// refContext is the context of a reference made in a condition of ctx.
func refContext(ctx *Element) graph.Context { return graph.Context{Element: ctx} }

// anyPresent is the disjunction of the presence of the elements es.
func (e *encoder[F]) anyPresent(es []*Element) F { return e.b.Or(e.ids(es)...) }

// opLogicExpression translates a named logic expression once and refers to
// it by its term expression.<name> since.
func (e *encoder[F]) opLogicExpression(_ string, x, name *Value, ctx *Element) (F, error) {
	if name == e.lastName {
		return e.lastVar, nil
	}
	if name.Kind != yamlsrc.KindString {
		return zero[F](), errf(graph.MsgNotString(name))
	}
	i := -1
	if e.exprs.IsMap() {
		i = e.exprs.Map().IndexNear(name.Str(), e.nextExpr)
		e.nextExpr = i + 1
	}
	if i >= len(e.exprSeen) {
		// The cache is sized on first use where the encoder was not given
		// one (display), and grows with the expressions should anything
		// add some while encoding.
		n := e.exprs.Map().Len()
		e.exprVars = append(e.exprVars, make([]F, n-len(e.exprVars))...)
		e.exprSeen = append(e.exprSeen, make([]bool, n-len(e.exprSeen))...)
	}
	if i >= 0 && e.exprSeen[i] {
		e.lastName, e.lastVar = name, e.exprVars[i]
		return e.lastVar, nil
	}
	var found *Value
	if i >= 0 {
		found = e.exprs.Map().Val(i)
	}
	if found.IsNull() {
		return zero[F](), errf(msgLogicExpressionMissing(name.Str()))
	}
	switch found.Kind {
	case yamlsrc.KindString:
		return zero[F](), errf(msgLogicExpressionString(x))
	case yamlsrc.KindBool:
		return e.translate(found, ctx)
	case yamlsrc.KindNumber:
		return zero[F](), diag.AtRef(e.valuePos(found), diag.StageSolve, `expected the logic expression "`+name.Str()+`" as a map, a list or a boolean, found a number`,
			graph.MsgCannotCreateProperty("_id", found))
	case yamlsrc.KindTime:
		return zero[F](), errf(msgUnknownValueExpression(found))
	}
	if v, ok := e.named[found]; ok {
		e.exprVars[i], e.exprSeen[i] = v, true
		return v, nil
	}
	v := e.exprTerm("expression." + name.Str())
	if e.named != nil {
		e.named[found] = v
	}
	e.exprVars[i], e.exprSeen[i] = v, true
	l, err := e.translate(found, ctx)
	if err != nil {
		return zero[F](), err
	}
	e.b.RequireEquiv(v, l)
	if err := e.settle(); err != nil {
		return zero[F](), err
	}
	e.lastName, e.lastVar = name, v
	return v, nil
}

// opNary translates and, or, xor, exo and amo over a list of operands.
func (e *encoder[F]) opNary(key string, _, arg *Value, ctx *Element) (F, error) {
	if !arg.IsList() {
		return zero[F](), diag.AtRef(e.valuePos(arg), diag.StageSolve, "expected the operands of "+key+" as a list, found "+graph.Describe(arg),
			graph.MsgNotAFunction("expression."+key+".map"))
	}
	return e.nary(key, arg.List(), ctx)
}

func (e *encoder[F]) opNot(_ string, _, arg *Value, ctx *Element) (F, error) {
	l, err := e.translate(arg, ctx)
	return e.b.Not(l), err
}

// opImplies translates the first two operands of a list; missing ones are
// undefined.
func (e *encoder[F]) opImplies(_ string, _, arg *Value, ctx *Element) (F, error) {
	var a0, a1 *Value
	if arg.IsList() {
		if len(arg.List()) > 0 {
			a0 = arg.List()[0]
		}
		if len(arg.List()) > 1 {
			a1 = arg.List()[1]
		}
	}
	l0, err := e.translate(a0, ctx)
	if err != nil {
		return zero[F](), err
	}
	l1, err := e.translate(a1, ctx)
	if err != nil {
		return zero[F](), err
	}
	return e.b.Implies(l0, l1), nil
}

// lookup resolves the operand of a presence operator to an element.
type lookup func(g *graph.Graph, arg *Value, ctx graph.Context) (*Element, error)

// presenceOp is the presence operator whose operand get resolves to an
// element el, in the context of the condition's element, and which
// translates to of(el).
func presenceOp[F any](get lookup, of func(e *encoder[F], el *Element) F) logicOp[F] {
	return func(e *encoder[F], _ string, _, arg *Value, ctx *Element) (F, error) {
		el, err := get(e.g, arg, refContext(ctx))
		if err != nil {
			return zero[F](), err
		}
		return of(e, el), nil
	}
}

// orOf is the disjunction of f over es, its operands on the encoder's
// stack where it has one (operandStack).
func orOf[F any](e *encoder[F], es []*Element, f func(*Element) F) F {
	if e.stack == nil {
		ls := make([]F, len(es))
		for i, x := range es {
			ls[i] = f(x)
		}
		return e.b.Or(ls...)
	}
	base := len(*e.stack)
	for _, x := range es {
		l := f(x) // which may use the stack above base
		*e.stack = append(*e.stack, l)
	}
	l := e.b.Or((*e.stack)[base:]...)
	*e.stack = (*e.stack)[:base]
	return l
}

// and2 is And of x and y, its operands on the encoder's stack where it has
// one: a call of the backend's And(x, y) through its interface made a
// list of the two on the heap each time (the ring and pruning families'
// relations: a tenth of a batch run's allocations).
func (e *encoder[F]) and2(x, y F) F {
	if e.stack == nil {
		return e.b.And(x, y)
	}
	base := len(*e.stack)
	*e.stack = append(*e.stack, x, y)
	l := e.b.And((*e.stack)[base:]...)
	*e.stack = (*e.stack)[:base]
	return l
}

// present is the presence of el itself.
func (e *encoder[F]) present(el *Element) F { return e.b.Element(el) }

// sourcePresent and targetPresent are the presence of a relation's ends.
func (e *encoder[F]) sourcePresent(r *Element) F { return e.b.Element(r.Container) }
func (e *encoder[F]) targetPresent(r *Element) F { return e.b.Element(r.Target) }

// hostPresent is whether a host of the node is present: the target of
// one of its hosted-on relations.
func (e *encoder[F]) hostPresent(n *Element) F {
	var ls []F
	for _, r := range n.Outgoing {
		if r.IsHostedOn() {
			ls = append(ls, e.b.Element(r.Target))
		}
	}
	return e.b.Or(ls...)
}

// hasSource is whether the source of an incoming relation of the node is
// present.
func (e *encoder[F]) hasSource(n *Element) F { return orOf(e, n.Ingoing, e.sourcePresent) }

// hasIncoming and hasOutgoing are whether a relation of the node, manually
// present, has its other end present.
func (e *encoder[F]) hasIncoming(n *Element) F {
	return orOf(e, n.Ingoing, func(r *Element) F { return e.and2(e.b.Manual(r), e.b.Element(r.Container)) })
}

func (e *encoder[F]) hasOutgoing(n *Element) F {
	return orOf(e, n.Outgoing, func(r *Element) F { return e.and2(e.b.Manual(r), e.b.Element(r.Target)) })
}

// hasArtifact is whether an artifact of the node is manually present.
func (e *encoder[F]) hasArtifact(n *Element) F { return orOf(e, n.Artifacts, e.b.Manual) }

// hasPresentTarget is whether a target of the policy is present: a node,
// or a group with a present member.
func (e *encoder[F]) hasPresentTarget(p *Element) F {
	return orOf(e, p.Targets, func(t *Element) F {
		if t.Kind == graph.KindNode {
			return e.b.Element(t)
		}
		return e.anyPresent(t.Members)
	})
}

// The naive operators: whether any of a list of the element is present.
func (e *encoder[F]) anyIngoing(n *Element) F    { return e.anyPresent(n.Ingoing) }
func (e *encoder[F]) anyOutgoing(n *Element) F   { return e.anyPresent(n.Outgoing) }
func (e *encoder[F]) anyArtifact(n *Element) F   { return e.anyPresent(n.Artifacts) }
func (e *encoder[F]) anyMember(gr *Element) F    { return e.anyPresent(gr.Members) }
func (e *encoder[F]) anyConsumer(in *Element) F  { return e.anyPresent(in.Consumers) }
func (e *encoder[F]) anyProducer(out *Element) F { return e.anyPresent(out.Producers) }

// opContainerPresence is the presence of the container (SELF) or of the
// container's container (CONTAINER) of the context element.
func (e *encoder[F]) opContainerPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	if !arg.IsString() || (arg.Str() != "SELF" && arg.Str() != "CONTAINER") {
		return zero[F](), errf(graph.MsgUnexpected)
	}
	cont, err := e.g.GetContainer(ctx)
	if err != nil {
		return zero[F](), err
	}
	if arg.Str() == "CONTAINER" {
		if cont, err = e.g.GetContainer(cont); err != nil {
			return zero[F](), err
		}
	}
	return e.b.Element(cont), nil
}

// opIsManaged is whether a technology that manages the artifact is present.
func (e *encoder[F]) opIsManaged(_ string, _, arg *Value, ctx *Element) (F, error) {
	a, err := e.g.GetArtifact(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	techs, err := managing(e.g, a)
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(techs), nil
}

// opPropertyPresence translates <kind>_property_presence.
func (e *encoder[F]) opPropertyPresence(key string, _, arg *Value, ctx *Element) (F, error) {
	p, err := e.g.GetProperty(refKind(key), arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(p), nil
}

// opTypePresence translates <kind>_type_presence.
func (e *encoder[F]) opTypePresence(key string, _, arg *Value, ctx *Element) (F, error) {
	t, err := e.g.GetType(refKind(key), arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(t), nil
}

// refKind is the kind of element whose property or type a
// <kind>_property_presence or <kind>_type_presence operator names.
func refKind(key string) graph.PropertyKind {
	switch {
	case strings.HasPrefix(key, "relation_"):
		return graph.RefRelation
	case strings.HasPrefix(key, "group_"):
		return graph.RefGroup
	case strings.HasPrefix(key, "policy_"):
		return graph.RefPolicy
	case strings.HasPrefix(key, "artifact_"):
		return graph.RefArtifact
	}
	return graph.RefNode
}

// implementationName matches <type>~<component>[#<artifact>]::<technology>[@<hosting>]
// (compiled on first use).
var implementationName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([^~]*)~([^#]*)(#([^:]*))?::([^@]*)(@(.*))?`)
})

// managing returns the technologies of an artifact's node whose
// implementation name manages the artifact's type (is_managed, §8.5).
func managing(g *graph.Graph, a *Element) ([]*Element, error) {
	var out []*Element
	for _, t := range a.Container.Technologies {
		m := implementationName().FindStringSubmatch(t.Assign)
		if m == nil {
			return nil, errf(graph.MsgUnexpected)
		}
		if m[3] == "" {
			continue
		}
		at, err := a.SingleType()
		if err != nil {
			return nil, err
		}
		ok, err := g.IsA("artifact_types", at.Name, m[4])
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, t)
		}
	}
	return out, nil
}
