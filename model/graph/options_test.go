package graph

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

func doc(t *testing.T, src string) *yamlsrc.Value {
	t.Helper()
	v, err := yamlsrc.Parse([]byte(src), "t.yaml")
	require.NoError(t, err)
	return v
}

func switches(s KindSwitches) string {
	b := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	return fmt.Sprintf("%d%d%d/%d%d%d", b(s.Default), b(s.DefaultConsistency), b(s.DefaultSemantic),
		b(s.Pruning), b(s.ConsistencyPruning), b(s.SemanticPruning))
}

// TestModeTables checks the effective switches of variability.md §4.2.
func TestModeTables(t *testing.T) {
	cases := []struct {
		mode              string
		kinds, ioV1, ioV3 string
	}{
		{"manual", "000/000", "000/000", "000/000"},
		{"strict", "000/000", "000/000", "000/000"},
		{"consistent-strict", "110/000", "000/000", "110/000"},
		{"consistent-loose", "000/110", "000/000", "000/110"},
		{"default", "111/000", "000/000", "111/000"},
		{"semantic-strict", "111/110", "000/000", "111/110"},
		{"semantic-loose", "000/111", "000/000", "000/111"},
		{"loose", "000/111", "000/000", "000/111"},
	}
	for _, tc := range cases {
		for _, version := range []string{"tosca_variability_1_0", "tosca_variability_1_0_rc_2", "tosca_variability_1_0_rc_3"} {
			t.Run(tc.mode+"/"+version, func(t *testing.T) {
				d := doc(t, "tosca_definitions_version: "+version+"\ntopology_template:\n  variability:\n    options:\n      mode: "+tc.mode+"\n")
				v, ok := ParseVersion(d.Get("tosca_definitions_version"))
				require.True(t, ok)
				o, err := ResolveOptions(d, "t.yaml", v)
				require.NoError(t, err)
				for _, k := range eightKinds {
					require.Equal(t, tc.kinds, switches(o.Kinds[k]), "kind %s", k)
				}
				io := tc.ioV1
				if v == RC3 {
					io = tc.ioV3
				}
				require.Equal(t, io, switches(o.Kinds[KindInput]), "inputs")
				require.Equal(t, io, switches(o.Kinds[KindOutput]), "outputs")
			})
		}
	}
}

func TestOptionPrecedence(t *testing.T) {
	// A mode-table value for a specific option beats a user value of a more
	// general option (variability.md §4.1).
	d := doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    options:\n      mode: semantic-strict\n      pruning: false\n")
	o, err := ResolveOptions(d, "t.yaml", V1)
	require.NoError(t, err)
	require.True(t, o.Kinds[KindNode].Pruning)
	require.False(t, o.Kinds[KindInput].Pruning)
}

func TestOptionDefaults(t *testing.T) {
	for _, tc := range []struct {
		version                      string
		checks, topo, techMax, techs bool
		nodeMode, artifactMode       string
		hostingStack                 bool
	}{
		{"tosca_variability_1_0", true, false, false, false, "incoming-artifact", "container", false},
		{"tosca_variability_1_0_rc_2", true, true, true, true, "incomingnaive-artifact-host", "container", true},
		{"tosca_variability_1_0_rc_3", false, true, true, true, "incomingnaive-artifact-host", "container-managed", true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			d := doc(t, "tosca_definitions_version: "+tc.version+"\n")
			v, _ := ParseVersion(d.Get("tosca_definitions_version"))
			o, err := ResolveOptions(d, "t.yaml", v)
			require.NoError(t, err)
			require.Equal(t, tc.checks, o.Checks.Checks)
			require.Equal(t, tc.topo, o.Solver.Topology.Optimize)
			require.Equal(t, tc.techMax, o.Solver.Technologies.Max)
			require.Equal(t, tc.techs, o.Enricher.Technologies)
			require.Equal(t, tc.nodeMode, o.Kinds[KindNode].Mode)
			require.Equal(t, tc.artifactMode, o.Kinds[KindArtifact].Mode)
			require.Equal(t, tc.hostingStack, o.Constraints.HostingStack)
			require.True(t, o.Solver.Topology.Unique)
			require.False(t, o.Solver.Technologies.Unique)
		})
	}
}

func TestOptionErrors(t *testing.T) {
	for _, tc := range []struct{ option, want string }{
		{"mode: foo", `Pruning mode "foo" unknown`},
		{"node_pruning: 'yes'", `Element ""yes"" is not a boolean`},
		{"optimization_topology: maybe", `Option optimization_topology must be a boolean, "min", or "max"`},
		{"optimization_topology_mode: size", `Option optimization_topology_mode must be "weight" or "count"`},
		{"optimization_technologies_mode: weight-count", `Option optimization_technology_mode must be "weight" or "count"`},
	} {
		t.Run(tc.option, func(t *testing.T) {
			d := doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    options:\n      "+tc.option+"\n")
			_, err := ResolveOptions(d, "t.yaml", V1)
			require.EqualError(t, err, tc.want)
		})
	}
}

// ResolveOptions keeps the options of an option map of scalars and hands
// out copies: the same entries give equal options whatever the file, a
// change to one copy changes no other, the version is part of the key,
// and an error, which names its file, is never kept.
func TestResolveOptionsCache(t *testing.T) {
	src := func(version, mode string) *Value {
		return doc(t, "tosca_definitions_version: "+version+"\ntopology_template:\n  variability:\n    options:\n      mode: "+mode+"\n      optimization_topology: min\n")
	}
	d := src("tosca_variability_1_0", "consistent-loose")
	o1, err := ResolveOptions(d, "a.yaml", V1)
	require.NoError(t, err)
	o2, err := ResolveOptions(d, "b.yaml", V1)
	require.NoError(t, err)
	require.Equal(t, *o1, *o2)
	require.NotSame(t, o1, o2)
	o2.Mode = "changed"
	o2.Kinds[KindInput].Pruning = !o2.Kinds[KindInput].Pruning
	o3, err := ResolveOptions(d, "c.yaml", V1)
	require.NoError(t, err)
	require.Equal(t, *o1, *o3)

	// The inputs' switches of consistent-loose differ by version.
	d3 := src("tosca_variability_1_0_rc_3", "consistent-loose")
	o4, err := ResolveOptions(d3, "a.yaml", RC3)
	require.NoError(t, err)
	require.NotEqual(t, o1.Kinds[KindInput], o4.Kinds[KindInput])

	bad := src("tosca_variability_1_0", "bogus")
	for _, file := range []string{"a.yaml", "b.yaml"} {
		_, err := ResolveOptions(bad, file, V1)
		var d *diag.Diagnostic
		require.ErrorAs(t, err, &d)
		require.Equal(t, file, d.Pos.File)
	}
}

// The cache's copies are whole copies only while Options holds plain
// values and strings: no pointers, slices or maps.
func TestOptionsArePlainValues(t *testing.T) {
	var check func(t *testing.T, ty reflect.Type, path string)
	check = func(t *testing.T, ty reflect.Type, path string) {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				check(t, ty.Field(i).Type, path+"."+ty.Field(i).Name)
			}
		case reflect.Array:
			check(t, ty.Elem(), path+"[]")
		case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		default:
			t.Errorf("%s is a %s", path, ty.Kind())
		}
	}
	check(t, reflect.TypeOf(Options{}), "Options")
}

// The spelled-out option names are those the option reader looks up.
func TestOptionNameList(t *testing.T) {
	require.Equal(t, readOptionNames(), optionNameList)
}
