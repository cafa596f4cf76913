// Package sd is Solution Descriptor processing and merge with EnvGene's
// semantics: the `sd` subcommand of sd-merge.md. It owns the SD document
// model (applications, their models and Aliases, deployGraph chunks), the
// parameters, artifact resolution, the four merge modes, their messages,
// and the runner for the corpus's case format.
//
// A run follows sd-merge.md §5 and stops at the first error, after which no
// file has changed:
//
//  1. the environment directory (§2): not set, does not exist;
//  2. the merge mode and SD_DELTA (§3.2, §3.3): invalid values, the two
//     mode variables differing, SD_DELTA=true with replace;
//  3. the source type and its input parameters (§3.1, §3.4, §3.5): missing
//     or both given;
//  4. the Full SD file (§4): sd.yml and sd.yaml both present;
//  5. the incoming SDs (§3.4, §3.5): SD_VERSION's delimiters, entry format
//     and SNAPSHOT versions, the artifact location, missing or malformed
//     artifacts; SD_DATA that is not JSON or not SD objects;
//  6. for each incoming SD, the useDeployPostfixAsNamespace transformation
//     (§7), the validation of applications and deployGraph under the basic
//     or extended model rules (§6.3) and the duplicate check;
//  7. the combination of several incoming SDs (§6.4) with the mode's merge
//     function; basic-exclusion-merge warns about New Applications;
//  8. the application to the Full SD (§6.5): overwrite, first write, or a
//     merge after reading (invalid YAML, empty, not a mapping), validating
//     and duplicate-checking the Full SD; extended-merge checks the design's
//     assumptions V1-V6 (§10.1);
//  9. the files, written atomically (§4, §12).
//
// The SD documents are yamlsrc values read in the core dialect (YAML 1.2
// as yaml.v3 reads it, source text of scalars kept, source key order;
// dialect.go) or from JSON by yamlsrc.ParseJSON, and written by Format with
// yaml.v3's encoder, indentation 2 (§12; format.go).
package sd
