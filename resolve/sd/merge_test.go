package sd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// mergeYAML merges Delta SD delta into Full SD full with mode's merge
// function and returns the result in the layout of §12 and the warnings.
func mergeYAML(t *testing.T, mode Mode, full, delta string) (string, []string, error) {
	t.Helper()
	f, d := sdDoc(t, "Full SD", full), sdDoc(t, "SD[0]", delta)
	require.NoError(t, validate(f, mode), "Full SD")
	require.NoError(t, validate(d, mode), "Delta SD")
	var warnings []string
	m := merger{fn: mode.mergeFunc(), warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) }}
	v, err := m.merge(f, d)
	if err != nil {
		return "", warnings, err
	}
	out, err := Format(v)
	require.NoError(t, err)
	return string(out), warnings, nil
}

func TestMergeExamples(t *testing.T) {
	tests := []struct {
		name              string
		mode              Mode
		full, delta, want string
		warnings          []string
	}{
		{
			name: "§8 worked example (TC-001-010)", mode: BasicMerge,
			full: `version: 2.1
type: solutionDeploy
deployMode: composite
applications:
  - version: MONITORING:0.64.1
    deployPostfix: platform-monitoring
  - version: postgres:1.32.6
    deployPostfix: postgresql-dbaas
`,
			delta: `version: 2.1
type: solutionDeploy
deployMode: composite
applications:
  - version: postgres-services:1.32.6
    deployPostfix: postgresql
  - version: postgres:1.32.7
    deployPostfix: postgresql-dbaas
`,
			want: `applications:
  - version: MONITORING:0.64.1
    deployPostfix: platform-monitoring
  - version: postgres:1.32.7
    deployPostfix: postgresql-dbaas
  - version: postgres-services:1.32.6
    deployPostfix: postgresql
`,
		},
		{
			name: "§8 alias example", mode: Replace,
			full:  "applications:\n  - {version: postgres:1.32.6, deployPostfix: postgresql, alias: pg-main, team: data}\n",
			delta: "applications:\n  - {version: postgres:1.33.0, alias: pg-other, deployPostfix: postgresql}\n",
			want:  "applications:\n  - version: postgres:1.33.0\n    deployPostfix: postgresql\n    alias: pg-main\n    team: data\n",
		},
		{
			name: "§8 consequences", mode: BasicMerge,
			full: "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: a:1, deployPostfix: ns2}\n  - {version: a:0, deployPostfix: ns}\n",
			delta: "applications:\n  - {version: n:1, deployPostfix: ns}\n  - {version: a:2, deployPostfix: ns}\n  - {version: a:3, deployPostfix: ns}\n" +
				"  - {version: n:2, deployPostfix: ns}\n",
			want: "applications:\n  - version: a:2\n    deployPostfix: ns\n  - version: a:1\n    deployPostfix: ns2\n  - version: a:2\n    deployPostfix: ns\n" +
				"  - version: n:1\n    deployPostfix: ns\n  - version: n:2\n    deployPostfix: ns\n",
		},
		{
			name: "§9 example", mode: BasicExclusionMerge,
			full: "applications:\n  - {version: MONITORING:0.64.1, deployPostfix: platform-monitoring}\n  - {version: postgres:1.32.6, deployPostfix: postgresql}\n" +
				"  - {version: postgres:1.32.6, deployPostfix: postgresql-dbaas}\n  - {version: kafka:3.6.0, deployPostfix: kafka}\n",
			delta: "applications:\n  - {version: redis:7.2.4, deployPostfix: redis-cache}\n  - {version: postgres:1.32.6, deployPostfix: postgresql}\n  - {version: zookeeper:3.9.1, deployPostfix: kafka}\n",
			want: "applications:\n  - version: MONITORING:0.64.1\n    deployPostfix: platform-monitoring\n  - version: postgres:1.32.6\n    deployPostfix: postgresql-dbaas\n" +
				"  - version: kafka:3.6.0\n    deployPostfix: kafka\n",
			warnings: []string{
				"New application 'redis:7.2.4' with deployPostfix 'redis-cache' ignored (not present in Full SD)",
				"New application 'zookeeper:3.9.1' with deployPostfix 'kafka' ignored (not present in Full SD)",
			},
		},
		{
			name: "exclusion to nothing", mode: BasicExclusionMerge,
			full:  "applications:\n  - {version: a:1, deployPostfix: ns}\n",
			delta: "applications:\n  - {version: a:1, deployPostfix: ns, alias: other}\n",
			want:  "applications: []\n",
		},
		{
			// The files of the worked example, which TestWorkedExample runs
			// through MergeFiles and the pipeline; here the merge alone.
			name: "§10 worked example (TC-001-017)", mode: ExtendedMerge,
			full: exampleFile(t, "sd.yml"), delta: exampleFile(t, "delta.json"), want: exampleFile(t, "expected-sd.yml"),
		},
		{
			name: "§10 order example", mode: ExtendedMerge,
			full: "applications:\n  - {version: pg:1, deployPostfix: pg}\ndeployGraph:\n  - {chunkName: wave1, apps: ['pg:pg']}\n  - {chunkName: wave2, apps: []}\n",
			delta: "applications:\n  - {version: kafka:3, deployPostfix: kafka}\n  - {version: zookeeper:3, deployPostfix: kafka}\n  - {version: mongodb:7, deployPostfix: mongo-db}\n" +
				"deployGraph:\n  - {chunkName: wave1, apps: ['mongodb:mongo-db', 'zookeeper:kafka', 'pg:pg']}\n  - {chunkName: wave2, apps: ['kafka:kafka', 'kafka:kafka']}\n",
			want: "applications:\n  - version: pg:1\n    deployPostfix: pg\n  - version: kafka:3\n    deployPostfix: kafka\n  - version: zookeeper:3\n    deployPostfix: kafka\n" +
				"  - version: mongodb:7\n    deployPostfix: mongo-db\ndeployGraph:\n  - chunkName: wave1\n    apps:\n      - pg:pg\n      - zookeeper:kafka\n      - mongodb:mongo-db\n" +
				"  - chunkName: wave2\n    apps:\n      - kafka:kafka\n",
		},
		{
			name: "extended: a New Application in two chunks, and keys kept", mode: ExtendedMerge,
			full:  "labels: [x]\napplications: [a:1]\nuserData: {k: v}\ndeployGraph:\n  - {chunkName: w1, apps: [a], extra: 1}\n  - {chunkName: w2, apps: [b]}\n",
			delta: "applications: [b:2, a:2]\nuserData: {k: other}\ndeployGraph:\n  - {chunkName: w2, apps: [b, a]}\n  - {chunkName: w1, apps: [b]}\n",
			want: "labels:\n  - x\napplications:\n  - a:2\n  - b:2\nuserData:\n  k: v\ndeployGraph:\n  - chunkName: w1\n    apps:\n      - a\n      - b\n    extra: 1\n" +
				"  - chunkName: w2\n    apps:\n      - b\n",
		},
		{
			name: "extended without graphs appends", mode: ExtendedMerge,
			full:  "applications:\n  - {version: a:1, deployPostfix: ns, alias: x}\n",
			delta: "applications:\n  - {version: a:2, deployPostfix: ns, alias: y}\n  - {version: a:3, deployPostfix: ns, alias: x}\n",
			want:  "applications:\n  - version: a:3\n    deployPostfix: ns\n    alias: x\n  - version: a:2\n    deployPostfix: ns\n    alias: y\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := mergeYAML(t, tc.mode, tc.full, tc.delta)
			require.NoError(t, err, "merging %s", tc.name)
			require.Equal(t, tc.want, got, "merge %s", tc.name)
			require.Equal(t, tc.warnings, warnings, "warnings of %s", tc.name)
		})
	}
}

func TestExtendedValidations(t *testing.T) {
	graph := "deployGraph:\n  - {chunkName: w1, apps: ['a:ns']}\n"
	app := "applications:\n  - {version: a:1, deployPostfix: ns}\n"
	tests := []struct {
		name, full, delta, want string
	}{
		{"V1 version", "version: 2.1\n" + app, "version: 2.2\n" + app, "Full SD and Delta SD differ in 'version': '2.1' vs '2.2'"},
		{"V1 number and string agree, type absent on one side", "version: 2.1\n" + app, "version: '2.1'\ntype: t\n" + app, "Full SD and Delta SD differ in 'type': <none> vs 't'"},
		{"V1 non-scalar", "deployMode: [a]\n" + app, "deployMode: [a]\n" + app, "Full SD and Delta SD differ in 'deployMode': <non-scalar> vs <non-scalar>"},
		{"V1 null is text", "version: ~\n" + app, "version: 'null'\ntype: [x]\n" + app, "Full SD and Delta SD differ in 'type': <none> vs <non-scalar>"},
		{"V2 first application from the Delta", "applications: []\n", "applications:\n  - a:1\n  - {version: b:1, deployPostfix: ns}\n",
			"All applications must use the same model, but Delta SD.applications[0] uses model 1 (<name>:<version> string) and Delta SD.applications[1] uses model 2 (version, deployPostfix)"},
		{"V2 inside the Full SD", "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: b:1, deployPostfix: ns, alias: b}\n", "applications: []\n",
			"All applications must use the same model, but Full SD.applications[0] uses model 2 (version, deployPostfix) and Full SD.applications[1] uses model 3 (version, deployPostfix, alias)"},
		{"V3", app, app + graph, "Delta SD contains deployGraph, but Full SD doesn't contain deployGraph."},
		{"V3 with a null Full graph", app + "deployGraph: null\n", app + graph, "Delta SD contains deployGraph, but Full SD doesn't contain deployGraph."},
		{"V4", app + graph, app + "deployGraph:\n  - {chunkName: w1, apps: ['a:ns']}\n  - {chunkName: w9, apps: []}\n", "Delta SD contains a new chunk 'w9'"},
		{"V5 without a Delta graph", app + graph, "applications:\n  - {version: b:1, deployPostfix: ns}\n", "Delta SD contains a new application 'b:ns', but doesn't contain this application in the deployGraph."},
		{"V5 is exact", app + graph, "applications:\n  - {version: b:1, deployPostfix: ns}\n" + "deployGraph:\n  - {chunkName: w1, apps: ['B:ns', 'b:ns2']}\n",
			"Delta SD contains a new application 'b:ns', but doesn't contain this application in the deployGraph."},
		{"V5 before V6", "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: c:1, deployPostfix: ns}\n" + graph,
			"applications:\n  - {version: b:1, deployPostfix: ns}\n", "Delta SD contains a new application 'b:ns', but doesn't contain this application in the deployGraph."},
		{"V6 Full", "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: c:1, deployPostfix: ns}\n" + graph, app,
			"Full SD application 'c:ns' is not present in its deployGraph"},
		{"V6 empty Full graph", app + "deployGraph: []\n", "applications: []\n", "Full SD application 'a:ns' is not present in its deployGraph"},
		{"V6 Delta", app + graph, app + "deployGraph:\n  - {chunkName: w1, apps: []}\n", "Delta SD application 'a:ns' is not present in its deployGraph"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := mergeYAML(t, ExtendedMerge, tc.full, tc.delta)
			require.Error(t, err, "merge %s", tc.name)
			require.Equal(t, "SD merge error:\n"+tc.want+"\nSD Merge is impossible.", err.Error(), "merge %s", tc.name)
		})
	}
}

func TestCombinePrefixes(t *testing.T) {
	docs := func(srcs ...string) []*doc {
		var out []*doc
		for i, s := range srcs {
			d := sdDoc(t, "SD", s)
			d.label = "SD[" + string(rune('0'+i)) + "]"
			out = append(out, d)
		}
		return out
	}
	var warnings []string
	warn := func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) }
	in := docs("applications:\n  - {version: a:1, deployPostfix: ns}\n", "applications:\n  - {version: b:1, deployPostfix: ns}\n", "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: c:1, deployPostfix: ns}\n")
	for _, d := range in {
		require.NoError(t, validate(d, BasicExclusionMerge))
	}
	res, err := combine(in, BasicExclusionMerge, warn)
	require.NoError(t, err)
	out, err := Format(res.v)
	require.NoError(t, err)
	require.Equal(t, "applications: []\n", string(out))
	require.Equal(t, []string{
		"SD[1]: New application 'b:1' with deployPostfix 'ns' ignored (not present in Full SD)",
		"SD[2]: New application 'c:1' with deployPostfix 'ns' ignored (not present in Full SD)",
	}, warnings)

	in = docs("applications: [a:1]\ndeployGraph: [{chunkName: w, apps: [a]}]\n", "applications: [a:2]\ndeployGraph: [{chunkName: w, apps: [a]}]\n", "applications: [b:1]\n")
	for _, d := range in {
		require.NoError(t, validate(d, ExtendedMerge))
	}
	_, err = combine(in, ExtendedMerge, warn)
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "SD[2]: SD merge error:\nDelta SD contains a new application 'b'"), "error %q", err)
}
