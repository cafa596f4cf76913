package complete

import (
	"fmt"

	"v4t/model/diag"
)

// Stage names of the completion pipeline (completion.md §1, §13).
const (
	StageSource     = "source"
	StageParse      = "parse"
	StageComponents = "components"
	StageFilters    = "node filters"
	StageGroups     = "groups"
	StageMerge      = "merge"
	StageSelection  = "selection"
	StageQuery      = "query"
	StageWrite      = "write"
)

// Every message the reference prints is built here, once (completion.md
// §13; style.md §3.5). The spelling, typos included, is the reference's.

// Quirk: reference-spelling (completion.md §13): "founded", "apper" and
// "recognise" are kept.

func msgComponentNotFound(name string) string {
	return fmt.Sprintf("component \"%s\" not founded", name)
}

func msgFilterNotList(node string) string {
	return fmt.Sprintf("Node \"%s\": \"node_filter\" requires a list of properties", node)
}

func msgOSNotString(node string) string {
	return fmt.Sprintf("Node \"%s\": property \"os_distribution\" must be a string.", node)
}

func msgSoftwareNotList(node string) string {
	return fmt.Sprintf("Node \"%s\": \"supported_sw\" must be a list of software", node)
}

func msgSoftwareUnsupported(node, sw string) string {
	return fmt.Sprintf("Node \"%s\": software \"%s\" is not supported", node, sw)
}

func msgVersionPattern(node, sw, ver string) string {
	return fmt.Sprintf("Node \"%s\": software version \"%s:%s\" must be a string with this pattern ([0-9].)*[0-9]+ or ([0-9].)*x (i.e. 1.2.2, 1.2.x).", node, sw, ver)
}

const msgGroupsNotDisjoint = "Groups are not disjoint. One or more component apper in multiple groups"

func msgGroupMemberNotSoftware(group, member string) string {
	return fmt.Sprintf("Group \"%s\" has a member, \"%s\", that is not a software component", group, member)
}

func msgGroupNotSameContainer(group, container string) string {
	return fmt.Sprintf("Group \"%s\", not all members are hosted on the \"%s\" container (use -f to exclude this check)", group, container)
}

func msgGroupHostNotMember(member, group, host string) string {
	return fmt.Sprintf("Node \"%s\",  member of the group \"%s\", requires a host to a no member component, \"%s\"", member, group, host)
}

func msgHostInOtherGroup(node, group string) string {
	return fmt.Sprintf("Node \"%s\" requires a host to a node member of another group \"%s\"", node, group)
}

func msgCannotMerge(old, new, property string) string {
	return fmt.Sprintf("Cannot merge value \"%s\" with \"%s\" of property \"%s\"", old, new, property)
}

const msgNoAbstractNode = "no abstract node founded"

func msgVersionFormat(v string) string {
	return fmt.Sprintf("in parsing %s: version format is not correct", v)
}

func msgOperator(t string) string {
	return fmt.Sprintf("in parsing %s: operator not recognise", t)
}

func msgUnit(r string) string {
	return fmt.Sprintf("in parsing %s: unit not recognise", r)
}

// v4t's own warnings about a --constraints value: the reference ignores
// what its searches do not match without a word (completion.md §8.3).

func msgConstraintIgnored(part, expected string) string {
	return fmt.Sprintf("--constraints: ignored %q: expected %s", part, expected)
}

// expectedConstraint describes a constraint of key ("size", "pulls",
// "stars"), or of any key for "".
func expectedConstraint(key string) string {
	switch key {
	case "size":
		return "size, an operator (<, <=, >, >=), a whole number and its unit (bytes, kb, mb, gb), e.g. size<=99MB"
	case "pulls", "stars":
		return key + ", an operator (<, <=, >, >=) and a whole number, e.g. " + key + ">30"
	}
	return "size, pulls or stars with an operator and a whole number, e.g. size<=99MB pulls>30 stars>10"
}

func expectedWholeNumbers(used string) string {
	return fmt.Sprintf("whole numbers and a space after %q, which is used", used)
}

func expectedOneConstraint(key, first string) string {
	return fmt.Sprintf("one %s constraint (the first, %q, is used)", key, first)
}

// MsgBadPolicy is the usage error for an unknown --policy value.
const MsgBadPolicy = `policy must be "top_rated", "size" or "most_used"`

// Messages of the DockerFinder client (completion.md §9.4). The reference
// prefixes them with "Internal error: " twice; v4t prints them bare.
const (
	MsgServerError     = "Dockerfinder server error"
	MsgSoftwareService = "Dockerfinder software service do not respond"
)

func msgValidation(detail string) string { return "Validation error:" + detail }

// Progress lines (completion.md §2.2).

func progressFound(n int, unit string) string {
	return fmt.Sprintf("founded %d images for \"%s\" node", n, unit)
}

func progressWarning(unit string) string {
	return fmt.Sprintf("[WARNING] node \"%s\" will not be completed", unit)
}

func progressComplete(group bool, unit string, img *Image) string {
	what := "node"
	if group {
		what = "group"
	}
	return fmt.Sprintf("complete %s \"%s\" with image \"%s\" (%s MB, %s pulls, %s stars)",
		what, unit, img.Name, sizeMB(img.Size), img.Pulls.pyText(), img.Stars.pyText())
}

// sizeMB renders size/1e6 with two decimals.
func sizeMB(n *Number) string {
	if n == nil {
		return "None"
	}
	return fmt.Sprintf("%.2f", n.Float/1e6)
}

// newDiag makes a diagnostic of a stage with an optional source position.
func newDiag(stage, code string, pos diag.Pos, msg string) *diag.Diagnostic {
	return &diag.Diagnostic{Pos: pos, Stage: stage, Code: code, Message: msg}
}
