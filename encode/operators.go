package encode

import (
	"regexp"
	"strings"

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
func logicOpsFor[F any]() map[string]logicOp[F] {
	for _, t := range sharedOps {
		if ops, ok := t.(map[string]logicOp[F]); ok {
			return ops
		}
	}
	return logicOps[F]()
}

// logicOps maps each operator of logicKeys to its translation.
func logicOps[F any]() map[string]logicOp[F] {
	return map[string]logicOp[F]{
		"logic_expression": (*encoder[F]).opLogicExpression,
		"and":              (*encoder[F]).opNary,
		"or":               (*encoder[F]).opNary,
		"not":              (*encoder[F]).opNot,
		"xor":              (*encoder[F]).opNary,
		"exo":              (*encoder[F]).opNary,
		"implies":          (*encoder[F]).opImplies,
		"amo":              (*encoder[F]).opNary,

		"node_presence":               (*encoder[F]).opNodePresence,
		"host_presence":               (*encoder[F]).opHostPresence,
		"has_source":                  (*encoder[F]).opHasSource,
		"has_incoming_relation":       (*encoder[F]).opHasIncomingRelation,
		"has_incoming_relation_naive": (*encoder[F]).opHasIncomingRelationNaive,
		"has_outgoing_relation":       (*encoder[F]).opHasOutgoingRelation,
		"has_outgoing_relation_naive": (*encoder[F]).opHasOutgoingRelationNaive,
		"has_artifact":                (*encoder[F]).opHasArtifact,
		"has_artifact_naive":          (*encoder[F]).opHasArtifactNaive,

		"relation_presence": (*encoder[F]).opRelationPresence,
		"source_presence":   (*encoder[F]).opSourcePresence,
		"target_presence":   (*encoder[F]).opTargetPresence,

		"container_presence": (*encoder[F]).opContainerPresence,

		"policy_presence":    (*encoder[F]).opPolicyPresence,
		"has_present_target": (*encoder[F]).opHasPresentTarget,

		"group_presence":     (*encoder[F]).opGroupPresence,
		"has_present_member": (*encoder[F]).opHasPresentMember,

		"artifact_presence": (*encoder[F]).opArtifactPresence,
		"is_managed":        (*encoder[F]).opIsManaged,

		"node_property_presence":     (*encoder[F]).opPropertyPresence,
		"relation_property_presence": (*encoder[F]).opPropertyPresence,
		"group_property_presence":    (*encoder[F]).opPropertyPresence,
		"policy_property_presence":   (*encoder[F]).opPropertyPresence,
		"artifact_property_presence": (*encoder[F]).opPropertyPresence,

		"input_presence":  (*encoder[F]).opInputPresence,
		"is_consumed":     (*encoder[F]).opIsConsumed,
		"output_presence": (*encoder[F]).opOutputPresence,
		"is_produced":     (*encoder[F]).opIsProduced,

		"import_presence":     (*encoder[F]).opImportPresence,
		"technology_presence": (*encoder[F]).opTechnologyPresence,

		"node_type_presence":     (*encoder[F]).opTypePresence,
		"relation_type_presence": (*encoder[F]).opTypePresence,
		"group_type_presence":    (*encoder[F]).opTypePresence,
		"policy_type_presence":   (*encoder[F]).opTypePresence,
		"artifact_type_presence": (*encoder[F]).opTypePresence,
	}
}

// operator translates the logic operator key of the condition map x.
func (e *encoder[F]) operator(key string, x *Value, ctx *Element) (F, error) {
	arg := x.Get(key)
	if op, ok := e.ops[key]; ok {
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
	if name.Kind != yamlsrc.KindString {
		return zero[F](), errf(graph.MsgNotString(name))
	}
	if v, ok := e.byName[name.Str]; ok {
		return v, nil
	}
	found := e.exprs.Get(name.Str)
	if found.IsNull() {
		return zero[F](), errf(msgLogicExpressionMissing(name.Str))
	}
	switch found.Kind {
	case yamlsrc.KindString:
		return zero[F](), errf(msgLogicExpressionString(x))
	case yamlsrc.KindBool:
		return e.translate(found, ctx)
	case yamlsrc.KindNumber:
		return zero[F](), diag.AtRef(e.valuePos(found), diag.StageSolve, `expected the logic expression "`+name.Str+`" as a map, a list or a boolean, found a number`,
			graph.MsgCannotCreateProperty("_id", found))
	case yamlsrc.KindTime:
		return zero[F](), errf(msgUnknownValueExpression(found))
	}
	if v, ok := e.named[found]; ok {
		e.byName[name.Str] = v
		return v, nil
	}
	v := e.b.Term("expression." + name.Str)
	e.named[found] = v
	e.byName[name.Str] = v
	l, err := e.translate(found, ctx)
	if err != nil {
		return zero[F](), err
	}
	e.b.RequireEquiv(v, l)
	if err := e.settle(); err != nil {
		return zero[F](), err
	}
	return v, nil
}

// opNary translates and, or, xor, exo and amo over a list of operands.
func (e *encoder[F]) opNary(key string, _, arg *Value, ctx *Element) (F, error) {
	if !arg.IsList() {
		return zero[F](), diag.AtRef(e.valuePos(arg), diag.StageSolve, "expected the operands of "+key+" as a list, found "+graph.Describe(arg),
			graph.MsgNotAFunction("expression."+key+".map"))
	}
	return e.nary(key, arg.List, ctx)
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
		if len(arg.List) > 0 {
			a0 = arg.List[0]
		}
		if len(arg.List) > 1 {
			a1 = arg.List[1]
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

func (e *encoder[F]) opNodePresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(n), nil
}

// opHostPresence is whether a host of the node is present: the target of
// one of its hosted-on relations.
func (e *encoder[F]) opHostPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	var ls []F
	for _, r := range n.Outgoing {
		if r.IsHostedOn() {
			ls = append(ls, e.b.Element(r.Target))
		}
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opHasSource(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	ls := make([]F, len(n.Ingoing))
	for i, r := range n.Ingoing {
		ls[i] = e.b.Element(r.Container)
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opHasIncomingRelation(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	ls := make([]F, len(n.Ingoing))
	for i, r := range n.Ingoing {
		ls[i] = e.b.And(e.b.Manual(r), e.b.Element(r.Container))
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opHasIncomingRelationNaive(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(n.Ingoing), nil
}

func (e *encoder[F]) opHasOutgoingRelation(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	ls := make([]F, len(n.Outgoing))
	for i, r := range n.Outgoing {
		ls[i] = e.b.And(e.b.Manual(r), e.b.Element(r.Target))
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opHasOutgoingRelationNaive(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(n.Outgoing), nil
}

func (e *encoder[F]) opHasArtifact(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	ls := make([]F, len(n.Artifacts))
	for i, a := range n.Artifacts {
		ls[i] = e.b.Manual(a)
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opHasArtifactNaive(_ string, _, arg *Value, ctx *Element) (F, error) {
	n, err := e.g.GetNode(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(n.Artifacts), nil
}

func (e *encoder[F]) opRelationPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	r, err := e.g.GetRelation(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(r), nil
}

func (e *encoder[F]) opSourcePresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	r, err := e.g.GetRelation(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(r.Container), nil
}

func (e *encoder[F]) opTargetPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	r, err := e.g.GetRelation(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(r.Target), nil
}

// opContainerPresence is the presence of the container (SELF) or of the
// container's container (CONTAINER) of the context element.
func (e *encoder[F]) opContainerPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	if !arg.IsString() || (arg.Str != "SELF" && arg.Str != "CONTAINER") {
		return zero[F](), errf(graph.MsgUnexpected)
	}
	cont, err := e.g.GetContainer(ctx)
	if err != nil {
		return zero[F](), err
	}
	if arg.Str == "CONTAINER" {
		if cont, err = e.g.GetContainer(cont); err != nil {
			return zero[F](), err
		}
	}
	return e.b.Element(cont), nil
}

func (e *encoder[F]) opPolicyPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	p, err := e.g.GetPolicy(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(p), nil
}

// opHasPresentTarget is whether a target of the policy is present: a node,
// or a group with a present member.
func (e *encoder[F]) opHasPresentTarget(_ string, _, arg *Value, ctx *Element) (F, error) {
	p, err := e.g.GetPolicy(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	ls := make([]F, len(p.Targets))
	for i, t := range p.Targets {
		if t.Kind == graph.KindNode {
			ls[i] = e.b.Element(t)
		} else {
			ls[i] = e.anyPresent(t.Members)
		}
	}
	return e.b.Or(ls...), nil
}

func (e *encoder[F]) opGroupPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	gr, err := e.g.GetGroup(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(gr), nil
}

func (e *encoder[F]) opHasPresentMember(_ string, _, arg *Value, ctx *Element) (F, error) {
	gr, err := e.g.GetGroup(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(gr.Members), nil
}

func (e *encoder[F]) opArtifactPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	a, err := e.g.GetArtifact(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(a), nil
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

func (e *encoder[F]) opInputPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	in, err := e.g.GetInput(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(in), nil
}

func (e *encoder[F]) opIsConsumed(_ string, _, arg *Value, ctx *Element) (F, error) {
	in, err := e.g.GetInput(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(in.Consumers), nil
}

func (e *encoder[F]) opOutputPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	out, err := e.g.GetOutput(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(out), nil
}

func (e *encoder[F]) opIsProduced(_ string, _, arg *Value, ctx *Element) (F, error) {
	out, err := e.g.GetOutput(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.anyPresent(out.Producers), nil
}

func (e *encoder[F]) opImportPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	imp, err := e.g.GetImport(arg, refContext(ctx))
	if err != nil {
		return zero[F](), err
	}
	return e.b.Element(imp), nil
}

func (e *encoder[F]) opTechnologyPresence(_ string, _, arg *Value, ctx *Element) (F, error) {
	t, err := e.g.GetTechnology(arg, refContext(ctx))
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

// implementationName matches <type>~<component>[#<artifact>]::<technology>[@<hosting>].
var implementationName = regexp.MustCompile(`([^~]*)~([^#]*)(#([^:]*))?::([^@]*)(@(.*))?`)

// managing returns the technologies of an artifact's node whose
// implementation name manages the artifact's type (is_managed, §8.5).
func managing(g *graph.Graph, a *Element) ([]*Element, error) {
	var out []*Element
	for _, t := range a.Container.Technologies {
		m := implementationName.FindStringSubmatch(t.Assign)
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
