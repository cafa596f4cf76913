package main

import (
	"context"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/pflag"
)

// referenceVersion is the version of OpenTOSCA Vintner whose behaviour v4t
// follows.
const referenceVersion = "0.1.8"

// version is the semantic version of v4t where the build does not record a
// release: a build from a clone of the repository, whose main module
// version is "(devel)" or a pseudo-version. It is 0.N.0 with N the number
// of the last issue that changed what v4t does; a release tag vX.Y.Z
// (go install v4t/cmd/v4t@vX.Y.Z) takes its place.
const version = "0.17.0"

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print the version of v4t",
		usage:   "v4t version",
		help: `Version prints the version of v4t (the line that v4t --version prints),
then how it was built: the commit, when the build recorded one, and the Go
toolchain, and the version of the reference implementation it follows.`,
		example: "v4t version",
		setup: func(*pflag.FlagSet) func(context.Context, *env, []string) int {
			return func(_ context.Context, e *env, args []string) int {
				if len(args) > 0 {
					return e.usage("version", fmt.Sprintf("unexpected argument %q", args[0]))
				}
				info, ok := debug.ReadBuildInfo()
				fmt.Fprint(e.stdout, versionText(info, ok, true))
				return exitOK
			}
		},
	}
}

// versionLine is what v4t --version prints: "v4t 0.17.0".
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	return strings.TrimSuffix(versionText(info, ok, false), "\n")
}

// versionText is the version line and, with details, the build details of
// v4t version, from the build information (ok: there is some). The commit
// appears at most once: a pseudo-version, which holds it too, is not
// printed as the version.
func versionText(info *debug.BuildInfo, ok, details bool) string {
	v := version
	if ok && info != nil {
		if m := strings.TrimPrefix(info.Main.Version, "v"); m != "" && m != "(devel)" && !pseudoVersion().MatchString(m) {
			v = m
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "v4t %s\n", v)
	if !details {
		return b.String()
	}
	if ok && info != nil {
		var rev, modified, goos, goarch string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			case "GOOS":
				goos = s.Value
			case "GOARCH":
				goarch = s.Value
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if modified == "true" {
				rev += " (modified)"
			}
			fmt.Fprintf(&b, "commit %s\n", rev)
		}
		if info.GoVersion != "" {
			b.WriteString("built with " + info.GoVersion)
			if goos != "" && goarch != "" {
				b.WriteString(" for " + goos + "/" + goarch)
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "follows OpenTOSCA Vintner %s\n", referenceVersion)
	return b.String()
}

// pseudoVersion matches a Go pseudo-version (without its leading v), which
// the go command records for builds of a commit without a release tag:
// 0.0.0-20261101120000-0123456789ab, maybe with +dirty or +incompatible.
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}(\+[0-9A-Za-z.-]+)?$`)
})

// buildVersion identifies the build in reports (v4t bench): the version
// and, when the build recorded one, the commit, once.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	v := strings.TrimSuffix(versionText(info, ok, false), "\n")
	v = strings.TrimPrefix(v, "v4t ")
	if ok && info != nil {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return v
}
