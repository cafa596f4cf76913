package sd

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// sdDoc parses an SD written in YAML.
func sdDoc(t *testing.T, label, src string) *doc {
	t.Helper()
	v, err := parseCore([]byte(src), label+".yaml")
	require.NoError(t, err, "SD %s", label)
	return &doc{v: v, label: label, file: label + ".yaml"}
}

// wantResult checks err against wantErr, the expected error's text ("" for
// none), and reports whether the result is to be checked: only when no
// error is expected.
func wantResult(t *testing.T, err error, wantErr string, msgAndArgs ...any) bool {
	t.Helper()
	if wantErr != "" {
		require.EqualError(t, err, wantErr, msgAndArgs...)
		return false
	}
	require.NoError(t, err, msgAndArgs...)
	return true
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, src string
		mode      Mode
		wantErr   string
	}{
		{name: "basic", mode: BasicMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: 5}\n  - {version: 'tool:1.0:b7', deployPostfix: ns}\n"},
		{name: "empty list", mode: BasicMerge, src: "applications: []\n"},
		{name: "no applications", mode: BasicMerge, src: "version: 2.1\n", wantErr: "SD[1] must contain an 'applications' list"},
		{name: "null applications", mode: ExtendedMerge, src: "applications:\n", wantErr: "SD[1] must contain an 'applications' list"},
		{name: "applications a mapping", mode: BasicMerge, src: "applications: {a: 1}\n", wantErr: "SD[1] must contain an 'applications' list"},
		{name: "string in basic", mode: BasicExclusionMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns}\n  - kafka\n",
			wantErr: "Application 'kafka' at SD[1].applications[1] doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: basic-exclusion-merge"},
		{name: "number", mode: BasicMerge, src: "applications:\n  - 5\n", wantErr: "Invalid application at SD[1].applications[0]: expected a mapping or a '<name>:<version>' string"},
		{name: "null", mode: ExtendedMerge, src: "applications:\n  - null\n", wantErr: "Invalid application at SD[1].applications[0]: expected a mapping or a '<name>:<version>' string"},
		{name: "list", mode: Replace, src: "applications:\n  - [a:1]\n", wantErr: "Invalid application at SD[1].applications[0]: expected a mapping or a '<name>:<version>' string"},
		{name: "version missing", mode: BasicMerge, src: "applications:\n  - {deployPostfix: ns}\n", wantErr: "Invalid application at SD[1].applications[0]: 'version' must be a string in '<name>:<version>' notation"},
		{name: "version a number", mode: BasicMerge, src: "applications:\n  - {version: 1.2, deployPostfix: ns}\n", wantErr: "Invalid application at SD[1].applications[0]: 'version' must be a string in '<name>:<version>' notation"},
		{name: "version without name", mode: ExtendedMerge, src: "applications:\n  - {version: ':1', deployPostfix: ns}\n", wantErr: "Invalid application at SD[1].applications[0]: 'version' must be a string in '<name>:<version>' notation"},
		{name: "version check before postfix", mode: BasicMerge, src: "applications:\n  - {version: a}\n", wantErr: "Invalid application at SD[1].applications[0]: 'version' must be a string in '<name>:<version>' notation"},
		{name: "postfix empty", mode: Replace, src: "applications:\n  - {version: a:1, deployPostfix: ''}\n",
			wantErr: "Application 'a:1' at SD[1].applications[0] doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: replace"},
		{name: "postfix a number", mode: BasicMerge, src: "applications:\n  - {version: a:1, deployPostfix: 7}\n",
			wantErr: "Application 'a:1' at SD[1].applications[0] doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: basic-merge"},

		{name: "extended strings", mode: ExtendedMerge, src: "applications: [a:1, 'b:2:3']\n"},
		{name: "extended bad string", mode: ExtendedMerge, src: "applications: [a:1, kafka]\n", wantErr: "Invalid application at SD[1].applications[1]: 'kafka' is not in '<name>:<version>' notation"},
		{name: "extended postfix", mode: ExtendedMerge, src: "applications:\n  - {version: a:1}\n", wantErr: "Invalid application at SD[1].applications[0]: 'deployPostfix' must be a non-empty string"},
		{name: "extended alias", mode: ExtendedMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: ''}\n", wantErr: "Invalid application at SD[1].applications[0]: 'alias' must be a non-empty string"},
		{name: "extended alias null", mode: ExtendedMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: null}\n", wantErr: "Invalid application at SD[1].applications[0]: 'alias' must be a non-empty string"},

		{name: "graph null", mode: ExtendedMerge, src: "applications: []\ndeployGraph: null\n"},
		{name: "graph not a list", mode: ExtendedMerge, src: "applications: []\ndeployGraph: {wave1: []}\n", wantErr: "Invalid deployGraph in SD[1]: expected a list of chunks"},
		{name: "graph ignored in basic", mode: BasicMerge, src: "applications: []\ndeployGraph: 5\n"},
		{name: "chunk without name", mode: ExtendedMerge, src: "applications: []\ndeployGraph:\n  - {chunkName: w1, apps: []}\n  - {apps: []}\n", wantErr: "Invalid deployGraph in SD[1]: chunk 1 has no valid 'chunkName'"},
		{name: "chunk a string", mode: ExtendedMerge, src: "applications: []\ndeployGraph: [w1]\n", wantErr: "Invalid deployGraph in SD[1]: chunk 0 has no valid 'chunkName'"},
		{name: "chunk without apps", mode: ExtendedMerge, src: "applications: []\ndeployGraph:\n  - {chunkName: w1}\n", wantErr: "Invalid deployGraph in SD[1]: chunk 'w1' must have an 'apps' list of strings"},
		{name: "chunk apps not strings", mode: ExtendedMerge, src: "applications: []\ndeployGraph:\n  - {chunkName: w1, apps: [a, 1]}\n", wantErr: "Invalid deployGraph in SD[1]: chunk 'w1' must have an 'apps' list of strings"},
		{name: "chunk twice", mode: ExtendedMerge, src: "applications: []\ndeployGraph:\n  - {chunkName: w1, apps: []}\n  - {chunkName: w1, apps: []}\n", wantErr: "Invalid deployGraph in SD[1]: chunk 'w1' is defined more than once"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validate(sdDoc(t, "SD[1]", tc.src), tc.mode)
			if tc.wantErr == "" {
				require.NoError(t, err, "SD %q in %s", tc.src, tc.mode)
			} else {
				require.EqualError(t, err, tc.wantErr, "SD %q in %s", tc.src, tc.mode)
			}
		})
	}
}

func TestAppModelsAndAliases(t *testing.T) {
	d := sdDoc(t, "SD[0]", "applications:\n  - postgres:1.32.6\n  - {version: 'tool:1.0:b7', deployPostfix: ns}\n  - {version: pg:1, deployPostfix: ns, alias: main}\n")
	require.NoError(t, validate(d, ExtendedMerge))
	want := []struct {
		model                     int
		name, version, alias, txt string
	}{
		{1, "postgres", "1.32.6", "postgres", "postgres:1.32.6"},
		{2, "tool", "1.0:b7", "tool:ns", "tool:1.0:b7"},
		{3, "pg", "1", "main", "pg:1"},
	}
	for i, w := range want {
		a := d.apps[i]
		require.Equal(t, w.model, a.model, "model of application %d", i)
		require.Equal(t, w.name, a.name, "name of application %d", i)
		require.Equal(t, w.version, a.version, "version of application %d", i)
		require.Equal(t, w.alias, a.Alias(), "alias of application %d", i)
		require.Equal(t, w.txt, a.text, "version text of application %d", i)
	}
}

func TestCheckDuplicates(t *testing.T) {
	const tail = "\nEach application must be uniquely identified by its name, version, and deployPostfix.\nRemove the duplicate entries and re-run the pipeline."
	tests := []struct {
		name, src, fullPath string
		mode                Mode
		wantErr             string
	}{
		{name: "different versions are no duplicates", mode: BasicMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: a:2, deployPostfix: ns}\n"},
		{name: "basic ignores alias", mode: BasicMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: x}\n  - {version: a:1, deployPostfix: ns, alias: y}\n  - {version: b:1, deployPostfix: ns}\n  - {version: a:1, deployPostfix: ns}\n",
			wantErr: "Duplicate applications detected in SD[2]:\n  - 'a:1' with deployPostfix 'ns' appears 3 time(s)" + tail},
		{name: "extended keys on alias", mode: ExtendedMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: x}\n  - {version: a:1, deployPostfix: ns, alias: y}\n"},
		{name: "extended strings", mode: ExtendedMerge, src: "applications: [b:1, a:1, b:1, a:1, a:1, c:1]\n",
			wantErr: "Duplicate applications detected in SD[2]:\n  - 'b:1' appears 2 time(s)\n  - 'a:1' appears 3 time(s)" + tail},
		{name: "extended with alias", mode: ExtendedMerge, src: "applications:\n  - {version: a:1, deployPostfix: ns, alias: x}\n  - {version: a:1, deployPostfix: ns, alias: x}\n",
			wantErr: "Duplicate applications detected in SD[2]:\n  - 'a:1' with deployPostfix 'ns' and alias 'x' appears 2 time(s)" + tail},
		{name: "full SD", mode: Replace, fullPath: "Inventory/solution-descriptor/sd.yaml", src: "applications:\n  - {version: a:1, deployPostfix: ns}\n  - {version: a:1, deployPostfix: ns}\n",
			wantErr: "Duplicate applications detected in the existing Full SD (Inventory/solution-descriptor/sd.yaml):\n  - 'a:1' with deployPostfix 'ns' appears 2 time(s)" + tail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sdDoc(t, "SD[2]", tc.src)
			require.NoError(t, validate(d, tc.mode))
			err := checkDuplicates(d, tc.mode.extended(), tc.fullPath)
			if tc.wantErr == "" {
				require.NoError(t, err, "SD %q", tc.src)
			} else {
				require.EqualError(t, err, tc.wantErr, "SD %q", tc.src)
			}
		})
	}
}
