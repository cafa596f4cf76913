package graph

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestMessages pins the text of every message built in messages.go: each is
// the reference's, byte for byte (variability.md §16).
func TestMessages(t *testing.T) {
	node := &Element{Kind: KindNode, Name: "n", Index: -1}
	rel := &Element{Kind: KindRelation, Name: "host", Index: 0, Container: node}
	prop := &Element{Kind: KindProperty, Name: "p", Index: 1, Container: node}
	art := &Element{Kind: KindArtifact, Name: "a", Index: 0, Container: node}
	tech := &Element{Kind: KindTechnology, Name: "ansible", Index: 0, Container: node}
	group := &Element{Kind: KindGroup, Name: "g", Index: -1}
	pol := &Element{Kind: KindPolicy, Name: "pol", Index: 0}
	str, num, boolean := yamlsrc.NewString("x"), yamlsrc.NewNumber(5), yamlsrc.NewBool(false)
	list := yamlsrc.NewList(yamlsrc.NewString("n"), yamlsrc.NewNumber(0))
	obj := yamlsrc.MapOf("get_input", yamlsrc.NewString("i"))

	for _, tc := range []struct{ name, got, want string }{
		// utils/assert.js.
		{"MsgNotString", MsgNotString(num), `Element "5" is not a string`},
		{"MsgNotString undefined", MsgNotString(nil), `Element "undefined" is not a string`},
		{"MsgNotString map", MsgNotString(obj), `Element "{"get_input":"i"}" is not a string`},
		{"MsgNotStringOrNumber", MsgNotStringOrNumber(boolean), `Element "false" is neither a string nor a number`},
		{"MsgNotBoolean", MsgNotBoolean(str), `Element ""x"" is not a boolean`},
		{"MsgNotNumber", MsgNotNumber(str), `Element ""x"" is not a number`},
		{"MsgNotArray", MsgNotArray(str), `Element ""x"" is not an array`},
		{"MsgNotObject", MsgNotObject(num), `Element "5" is not an object`},
		{"MsgIsNot", MsgIsNot(prop, "a relation"), `Property "p@1" of node "n" is not a relation`},
		{"MsgIsNot import", MsgIsNot(node, "a import"), `Node "n" is not a import`},
		{"msgElementNotDefined", msgElementNotDefined, `Element not defined`},
		{"MsgUnexpected", MsgUnexpected, `Unexpected error`},
		{"msgNotImplemented", msgNotImplemented, `Not implemented`},

		// graph/graph.js.
		{"msgUnsupportedVersion", msgUnsupportedVersion, `Unsupported TOSCA definitions version`},
		{"msgNotFound", msgNotFound("Node", "web"), `Node "web" not found`},
		{"msgNotFound pretty", msgNotFound("Relation", PrettyOf(list)), "Relation \"[\n    \"n\",\n    0\n]\" not found"},
		{"msgAmbiguous", msgAmbiguous("Input", "size"), `Input "size" is ambiguous`},
		{"msgTechnologyNotFound", msgTechnologyNotFound(list), "Technology \"[\n    \"n\",\n    0\n] not found"},
		{"msgContainerUndefined", msgContainerUndefined, `Element is not defined`},
		{"msgNoContainer", msgNoContainer(node), `Node "n" has no container`},
		{"msgCouldNotGetElement", msgCouldNotGetElement("db", `property "p@1" of node "n"`),
			`Could not get element "db" from context element "property "p@1" of node "n"" and context cached "undefined"`},

		// normalizer/index.js.
		{"msgPoliciesNotArray", msgPoliciesNotArray, `Policies must be an array`},
		{"msgRulesNotLoaded", msgRulesNotLoaded, `Rules not loaded`},

		// graph/options.js.
		{"msgPruningModeUnknown", msgPruningModeUnknown("loose"), `Pruning mode "loose" unknown`},
		{"msgOptimizationValue", msgOptimizationValue("optimization_topology"), `Option optimization_topology must be a boolean, "min", or "max"`},
		{"msgTopologyMode", msgTopologyMode, `Option optimization_topology_mode must be "weight" or "count"`},
		{"msgTechnologyModeV1", msgTechnologyModeV1, `Option optimization_technology_mode must be "weight" or "count"`},
		{"msgTechnologyMode", msgTechnologyMode, `Option optimization_technology_mode must be "weight", "count", or "weight-count"`},

		// graph/populator.js and the element classes.
		{"msgNotNormalized", msgNotNormalized("Node templates"), `Node templates not normalized`},
		{"msgListOfNotNormalized", msgListOfNotNormalized("Types", art), `Types of artifact "a@0" of node "n" not normalized`},
		{"msgElementNotNormalized", msgElementNotNormalized(tech), `Technology "ansible@0" of node "n" not normalized`},
		{"msgImportNotNormalized", msgImportNotNormalized(2), `Import with index 2 not normalized`},
		{"msgRequirementNotNormalized", msgRequirementNotNormalized("host", node), `Requirement assignment "host" of "node "n"" not normalized`},
		{"msgArtifactNotNormalized", msgArtifactNotNormalized("a", node), `Artifact "a" of node "n" not normalized`},
		{"msgRequirementsNotArray", msgRequirementsNotArray(node), `Requirements assignments of "node "n" must be an array`},
		{"msgDefinedMultipleTimes", msgDefinedMultipleTimes("Group", "g"), `Group "g" defined multiple times`},
		{"msgNodeNamed", msgNodeNamed("SELF"), `Node must not be named "SELF"`},
		{"msgMultipleDefaults", msgMultipleDefaults(rel), `Relation "host@0" of node "n" has multiple defaults`},
		{"msgMultipleDefaultTypes", msgMultipleDefaultTypes(group), `Group "g" has multiple default types`},
		{"msgMultipleDefaultTechnologies", msgMultipleDefaultTechnologies(node), `Node "n" has multiple default technologies`},
		{"MsgHasNoType", MsgHasNoType(pol), `Policy "pol@0" has no type`},
		{"msgNoValueOrExpression", msgNoValueOrExpression(prop), `Property "p@1" of node "n" has no value or expression defined`},
		{"msgRelationshipTemplateInline", msgRelationshipTemplateInline("host", node),
			`Relation "host" of "node "n"" contains a relationship template which is currently not supported`},
		{"msgRelationshipMissing", msgRelationshipMissing("r", "host", node), `Relationship "r" of relation "host" of node "n" does not exist!`},
		{"msgRelationshipUsedTwice", msgRelationshipUsedTwice("r"), `Relation "r" is used multiple times`},
		{"msgRelationshipNeverUsed", msgRelationshipNeverUsed("r"), `Relation "r" is never used`},
		{"msgTargetMissing", msgTargetMissing("db", rel), `Target "db" of relation "host@0" of node "n" does not exist`},
		{"msgMemberBadFormat", msgMemberBadFormat(num), `Member "5" has bad format`},
		{"msgVariabilityGroupConditional", msgVariabilityGroupConditional(group), `Group "g" is a variability group but has conditional types`},
		{"msgPolicyTargetMissing", msgPolicyTargetMissing("db", pol), `Policy target "db" of policy "pol@0" does not exist`},
		{"msgNotPropertyContainer", msgNotPropertyContainer(art), `Artifact "a@0" of node "n" is not a property container`},
		{"msgReferenceNotFound", msgReferenceNotFound(prop), `Reference "[object Object]" at property property "p@1" of node "n" did not find any relation or artifact.`},
		{"msgPersistentRequired", msgPersistentRequired, `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`},
		{"msgWeightNotNumber", msgWeightNotNumber(str, node), `Weight "x" of node "n" is not a number or boolean`},
		{"msgWeightNegative", msgWeightNegative(yamlsrc.NewNumber(-0.5), tech), `Weight "-0.5" of technology "ansible@0" of node "n" is a negative number`},
		{"msgWeightAboveOne", msgWeightAboveOne(yamlsrc.NewNumber(2), node), `Weight "2" of node "n" is larger than 1`},

		// graph/node.js and friends, graph/inheritance.js.
		{"msgMoreThanOneType", msgMoreThanOneType(art), `Artifact "a@0" of node "n" has more than one type`},
		{"msgNodeTypeMissing", msgNodeTypeMissing("app"), `Node type "app" does not exist`},
		{"msgStartNoDefinition", msgStartNoDefinition("node_types", "app"), `starting node_types "app" has no definition`},
		{"msgNoDefinition", msgNoDefinition("artifact_types", "zip"), `artifact_types "zip" has no definition`},

		// utils/utils.js.
		{"MsgCannotCheckEmpty", MsgCannotCheckEmpty(yamlsrc.NewBool(true)), `Cannot check if object true is empty`},

		// The JavaScript runtime.
		{"MsgCannotReadNull", MsgCannotReadNull("value"), `Cannot read properties of null (reading 'value')`},
		{"MsgCannotReadUndefined", MsgCannotReadUndefined("name"), `Cannot read properties of undefined (reading 'name')`},
		{"MsgNullToObject", MsgNullToObject, `Cannot convert undefined or null to object`},
		{"MsgNotAFunction", MsgNotAFunction("raw.members.forEach"), `raw.members.forEach is not a function`},
		{"msgNotAFunctionOrIterable", msgNotAFunctionOrIterable("template.requirements.entries"),
			`template.requirements.entries is not a function or its return value is not iterable`},
		{"MsgNotIterable", MsgNotIterable("rules"), `rules is not iterable`},
		{"MsgNotIterableSymbol", MsgNotIterableSymbol("undefined"), `undefined is not iterable (cannot read property Symbol(Symbol.iterator))`},
		{"MsgCannotCreateProperty string", MsgCannotCreateProperty("assign", str), `Cannot create property 'assign' on string 'x'`},
		{"MsgCannotCreateProperty number", MsgCannotCreateProperty("assign", num), `Cannot create property 'assign' on number '5'`},
		{"MsgCannotCreateProperty boolean", MsgCannotCreateProperty("assign", boolean), `Cannot create property 'assign' on boolean 'false'`},
		{"msgCannotAssignReadOnly", msgCannotAssignReadOnly("web"), `Cannot assign to read only property '0' of string 'web'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.got)
		})
	}
}
