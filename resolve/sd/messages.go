package sd

import (
	"fmt"
	"strings"

	"v4t/model/diag"
)

// Every message of sd-merge.md is built here, in exactly one function, so
// that the code and the tests share one spelling.

// Stage names (sd-merge.md §5).
const (
	StageEnv      = "env"      // §5 step 1
	StageParams   = "params"   // steps 2 and 3
	StageFiles    = "files"    // step 4
	StageInput    = "input"    // step 5
	StageValidate = "validate" // step 6
	StageCombine  = "combine"  // step 7
	StageMerge    = "merge"    // step 8
	StageWrite    = "write"    // step 9
)

func newDiag(stage, code, msg string) *diag.Diagnostic {
	return &diag.Diagnostic{Stage: stage, Code: code, Message: msg}
}

func diagAt(pos diag.Pos, path, stage, code, msg string) *diag.Diagnostic {
	return &diag.Diagnostic{Pos: pos, Path: path, Stage: stage, Code: code, Message: msg}
}

// §2: the environment directory.

func errEnvDirUnset() error {
	return newDiag(StageEnv, "env-dir-unset", "The environment directory is not set: use --env-dir, or set CLUSTER_NAME and ENVIRONMENT_NAME")
}

func errEnvDirMissing(dir string) error {
	return newDiag(StageEnv, "env-dir-missing", fmt.Sprintf("The environment directory %s does not exist", dir))
}

// §3.1: SD_SOURCE_TYPE.

func errSourceType(pos diag.Pos) error {
	return diagAt(pos, "", StageParams, "source-type", `SD_SOURCE_TYPE must be set either to "artifact" or "json"`)
}

// §3.2: the merge mode.

func errInvalidMode(pos diag.Pos, param, value string) error {
	return diagAt(pos, "", StageParams, "merge-mode", fmt.Sprintf("Invalid %s: '%s'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace", param, value))
}

func errModesDiffer(a, b string) error {
	return newDiag(StageParams, "merge-modes-differ", fmt.Sprintf("SD_MERGE_MODE ('%s') and SD_REPO_MERGE_MODE ('%s') differ; set only one of them", a, b))
}

// §3.3: SD_DELTA.

func errInvalidDelta(pos diag.Pos, value string) error {
	return diagAt(pos, "", StageParams, "sd-delta", fmt.Sprintf("Invalid SD_DELTA: '%s'. Valid values are: true, false", value))
}

func errDeltaConflictsReplace(pos diag.Pos) error {
	return diagAt(pos, "", StageParams, "sd-delta-replace", "SD_DELTA=true conflicts with merge mode 'replace'")
}

// noteDeltaDefaultMode says which mode an explicit SD_DELTA=true without a
// merge mode merges with (§3.2, §3.3). It is a note, not a warning of the
// spec: sd-merge.md §13.2 lets no warning arise there
// (params-sd-delta-true-default-mode), so it must not be printed as
// "warning: ".
func noteDeltaDefaultMode(delta value) *diag.Diagnostic {
	what := "SD_DELTA=true"
	if strings.HasPrefix(delta.from, "--") {
		what = delta.from + " true"
	}
	return diagAt(delta.pos(), "", StageParams, "sd-delta-default-mode", fmt.Sprintf(
		"%s without SD_MERGE_MODE (or SD_REPO_MERGE_MODE, --merge-mode): merging with %s; SD_DELTA does not choose the mode (in EnvGene, SD_DELTA=true meant extended-merge)",
		what, BasicMerge))
}

// §3.4: SD_VERSION, SD_VERSION_MULTIPLE and artifacts.

func errNoVersion() error {
	return newDiag(StageParams, "sd-version-missing", "SD_SOURCE_TYPE is set to 'artifact', but neither SD_VERSION nor SD_VERSION_MULTIPLE was given")
}

func errBothVersions() error {
	return newDiag(StageParams, "sd-version-both", "Both SD_VERSION and SD_VERSION_MULTIPLE are set; use only one of them")
}

func errDelimiters(pos diag.Pos, param string) error {
	return diagAt(pos, "", StageInput, "sd-version-delimiters", fmt.Sprintf("Invalid %s: use only ONE delimiter type (comma, semicolon, space, or newline)", param))
}

func errNoVersions(pos diag.Pos, param string) error {
	return diagAt(pos, "", StageInput, "sd-version-empty", fmt.Sprintf("No valid SD versions found in %s", param))
}

func errVersionFormat(pos diag.Pos, param, entry string) error {
	return diagAt(pos, "", StageInput, "sd-version-format", fmt.Sprintf("Invalid %s format: '%s'. Expected 'name:version'", param, entry))
}

func errSnapshot(pos diag.Pos, entry string) error {
	return diagAt(pos, "", StageInput, "sd-version-snapshot", fmt.Sprintf("SNAPSHOT is not supported version of Solution Descriptor artifacts: '%s'", entry))
}

func errNoArtifactLocation() error {
	return newDiag(StageInput, "artifact-dir-missing", "SD_SOURCE_TYPE is set to 'artifact', but no artifact location is configured (SD_ARTIFACT_DIR or --artifact-dir)")
}

func errUnsupportedArtifactDir(pos diag.Pos, value string) error {
	return diagAt(pos, "", StageInput, "artifact-dir-unsupported", fmt.Sprintf("Unsupported SD_ARTIFACT_DIR: '%s'. Use a local directory or a file:// URL", value))
}

func errNotReceived(name, version, detail string) error {
	msg := fmt.Sprintf("Solution descriptor content was not received for %s:%s", name, version)
	if detail != "" {
		msg += ": " + detail
	}
	return newDiag(StageInput, "artifact-not-found", msg)
}

func errArtifactJSON(pos diag.Pos, name, version, detail string) error {
	return diagAt(pos, "", StageInput, "artifact-json", fmt.Sprintf("Solution descriptor artifact %s:%s is not valid JSON: %s", name, version, detail))
}

func errArtifactNotObject(pos diag.Pos, name, version string) error {
	return diagAt(pos, "", StageInput, "artifact-shape", fmt.Sprintf("Solution descriptor artifact %s:%s must contain a single SD object", name, version))
}

// §3.5: SD_DATA and SD_DATA_MULTIPLE.

func errNoData() error {
	return newDiag(StageParams, "sd-data-missing", "SD_SOURCE_TYPE is set to 'json', but neither SD_DATA nor SD_DATA_MULTIPLE was given")
}

func errBothData() error {
	return newDiag(StageParams, "sd-data-both", "Both SD_DATA and SD_DATA_MULTIPLE are set; use only one of them")
}

func errDataJSON(pos diag.Pos, param, detail string) error {
	return diagAt(pos, "", StageInput, "sd-data-json", fmt.Sprintf("%s is not valid JSON: %s", param, detail))
}

func errDataShape(pos diag.Pos, param string) error {
	return diagAt(pos, "", StageInput, "sd-data-shape", fmt.Sprintf("%s must be a non-empty list of SD dictionaries or a single SD.", param))
}

// §4, §6.5: files.

func errBothFullFiles() error {
	return newDiag(StageFiles, "full-sd-both-names", "Both sd.yml and sd.yaml exist in Inventory/solution-descriptor; keep only one")
}

func errFullYAML(pos diag.Pos, rel, detail string) error {
	return diagAt(pos, "", StageMerge, "full-sd-yaml", fmt.Sprintf("Full SD (%s) is not valid YAML: %s", rel, detail))
}

func warnFullEmpty(pos diag.Pos, rel string) *diag.Diagnostic {
	return diagAt(pos, "", StageMerge, "full-sd-empty", fmt.Sprintf("Full SD (%s) is empty; it is treated as absent", rel))
}

func errFullNotMapping(pos diag.Pos, rel string) error {
	return diagAt(pos, "", StageMerge, "full-sd-not-mapping", fmt.Sprintf("Full SD (%s) is not a mapping", rel))
}

// errRead reports a file that exists but cannot be read.
func errRead(stage, path string, err error) error {
	return newDiag(stage, "read", fmt.Sprintf("%s: cannot read: %v", path, err))
}

// errWrite reports a failure to write the results.
func errWrite(path string, err error) error {
	return newDiag(StageWrite, "write", fmt.Sprintf("%s: cannot write: %v", path, err))
}

// §6.3: validation of an SD.

func errNoApplications(pos diag.Pos, label string) error {
	return diagAt(pos, "applications", StageValidate, "applications-missing", fmt.Sprintf("%s must contain an 'applications' list", label))
}

// errNoPostfix is basic rules 1 and 4: a string application, or a mapping
// without deployPostfix.
func errNoPostfix(pos diag.Pos, path, text, loc string, mode Mode) error {
	return diagAt(pos, path, StageValidate, "application-postfix", fmt.Sprintf("Application '%s' at %s doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: %s", text, loc, mode))
}

func errAppShape(pos diag.Pos, path, loc string) error {
	return diagAt(pos, path, StageValidate, "application-shape", fmt.Sprintf("Invalid application at %s: expected a mapping or a '<name>:<version>' string", loc))
}

func errAppVersion(pos diag.Pos, path, loc string) error {
	return diagAt(pos, path, StageValidate, "application-version", fmt.Sprintf("Invalid application at %s: 'version' must be a string in '<name>:<version>' notation", loc))
}

func errAppString(pos diag.Pos, path, loc, s string) error {
	return diagAt(pos, path, StageValidate, "application-string", fmt.Sprintf("Invalid application at %s: '%s' is not in '<name>:<version>' notation", loc, s))
}

func errAppPostfix(pos diag.Pos, path, loc string) error {
	return diagAt(pos, path, StageValidate, "application-postfix", fmt.Sprintf("Invalid application at %s: 'deployPostfix' must be a non-empty string", loc))
}

func errAppAlias(pos diag.Pos, path, loc string) error {
	return diagAt(pos, path, StageValidate, "application-alias", fmt.Sprintf("Invalid application at %s: 'alias' must be a non-empty string", loc))
}

func errGraphNotList(pos diag.Pos, label string) error {
	return diagAt(pos, "deployGraph", StageValidate, "graph-shape", fmt.Sprintf("Invalid deployGraph in %s: expected a list of chunks", label))
}

func errChunkName(pos diag.Pos, path, label string, k int) error {
	return diagAt(pos, path, StageValidate, "chunk-name", fmt.Sprintf("Invalid deployGraph in %s: chunk %d has no valid 'chunkName'", label, k))
}

func errChunkApps(pos diag.Pos, path, label, name string) error {
	return diagAt(pos, path, StageValidate, "chunk-apps", fmt.Sprintf("Invalid deployGraph in %s: chunk '%s' must have an 'apps' list of strings", label, name))
}

func errChunkTwice(pos diag.Pos, path, label, name string) error {
	return diagAt(pos, path, StageValidate, "chunk-duplicate", fmt.Sprintf("Invalid deployGraph in %s: chunk '%s' is defined more than once", label, name))
}

// dupLine is one line of the duplicate message (§6.3 step 4).
func dupLine(a *app, extended bool, n int) string {
	switch {
	case a.model == 1:
		return fmt.Sprintf("  - '%s' appears %d time(s)", a.text, n)
	case extended && a.hasAlias:
		return fmt.Sprintf("  - '%s' with deployPostfix '%s' and alias '%s' appears %d time(s)", a.text, a.postfix, a.alias, n)
	}
	return fmt.Sprintf("  - '%s' with deployPostfix '%s' appears %d time(s)", a.text, a.postfix, n)
}

// errDuplicates is the duplicate message; fullPath is the Full SD's
// relative path, or empty for an incoming SD.
func errDuplicates(pos diag.Pos, label, fullPath string, lines []string) error {
	head := fmt.Sprintf("Duplicate applications detected in %s:", label)
	if fullPath != "" {
		head = fmt.Sprintf("Duplicate applications detected in the existing Full SD (%s):", fullPath)
	}
	msg := head + "\n" + strings.Join(lines, "\n") +
		"\nEach application must be uniquely identified by its name, version, and deployPostfix." +
		"\nRemove the duplicate entries and re-run the pipeline."
	return diagAt(pos, "applications", StageValidate, "duplicates", msg)
}

// §7: the namespace transformation.

func warnNamespaceFile(pos diag.Pos, folder string) *diag.Diagnostic {
	return diagAt(pos, "", StageValidate, "namespace-file", fmt.Sprintf("Namespace file Namespaces/%s/namespace.yml has no valid 'name'; it is skipped", folder))
}

func errNamespaceTwice(name string, folders []string) error {
	return newDiag(StageValidate, "namespace-duplicate", fmt.Sprintf("Namespace name '%s' is declared in more than one Namespace folder: %s", name, strings.Join(folders, ", ")))
}

func errNoReplacement(pos diag.Pos, path, postfix string, i int) error {
	return diagAt(pos, path, StageValidate, "namespace-no-match", fmt.Sprintf("No replacement found for deployPostfix '%s' in SD[%d], cannot continue.", postfix, i))
}

// §9: basic-exclusion-merge.

func warnNewIgnored(pos diag.Pos, text, postfix string) *diag.Diagnostic {
	return diagAt(pos, "", StageMerge, "new-application-ignored", fmt.Sprintf("New application '%s' with deployPostfix '%s' ignored (not present in Full SD)", text, postfix))
}

// §10.1: extended-merge validations. Each is wrapped by errMerge.

func errMerge(pos diag.Pos, code, text string) error {
	return diagAt(pos, "", StageMerge, code, "SD merge error:\n"+text+"\nSD Merge is impossible.")
}

func errHeaderDiffers(pos diag.Pos, key, f, d string) error {
	return errMerge(pos, "v1-header", fmt.Sprintf("Full SD and Delta SD differ in '%s': %s vs %s", key, f, d))
}

func errModelsDiffer(pos diag.Pos, l1 string, j1 int, m1 int, l2 string, j2 int, m2 int) error {
	return errMerge(pos, "v2-model", fmt.Sprintf("All applications must use the same model, but %s.applications[%d] uses %s and %s.applications[%d] uses %s", l1, j1, modelName(m1), l2, j2, modelName(m2)))
}

func modelName(m int) string {
	switch m {
	case 1:
		return "model 1 (<name>:<version> string)"
	case 2:
		return "model 2 (version, deployPostfix)"
	}
	return "model 3 (version, deployPostfix, alias)"
}

func errDeltaGraphOnly(pos diag.Pos) error {
	return errMerge(pos, "v3-graph", "Delta SD contains deployGraph, but Full SD doesn't contain deployGraph.")
}

func errNewChunk(pos diag.Pos, name string) error {
	return errMerge(pos, "v4-chunk", fmt.Sprintf("Delta SD contains a new chunk '%s'", name))
}

func errNewAppNotInGraph(pos diag.Pos, alias string) error {
	return errMerge(pos, "v5-new-application", fmt.Sprintf("Delta SD contains a new application '%s', but doesn't contain this application in the deployGraph.", alias))
}

func errAppNotInGraph(pos diag.Pos, side, alias string) error {
	return errMerge(pos, "v6-graph", fmt.Sprintf("%s application '%s' is not present in its deployGraph", side, alias))
}

// prefixed returns d with "SD[i]: " before its message, for problems met
// while combining SD[i] (i ≥ 1) into the SDs before it (§6.2).
func prefixed(d *diag.Diagnostic, i int) *diag.Diagnostic {
	c := *d
	c.Message = fmt.Sprintf("SD[%d]: %s", i, d.Message)
	return &c
}
