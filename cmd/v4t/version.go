package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// referenceVersion is the version of OpenTOSCA Vintner whose behaviour v4t
// follows.
const referenceVersion = "0.1.8"

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print the version of v4t",
		usage:   "v4t version",
		help:    "Version prints the version of v4t and of the reference implementation it follows.",
		example: "v4t version",
		setup: func(*pflag.FlagSet) func(context.Context, *env, []string) int {
			return func(_ context.Context, e *env, args []string) int {
				if len(args) > 0 {
					return e.usage("version", fmt.Sprintf("unexpected argument %q", args[0]))
				}
				fmt.Fprintf(e.stdout, "v4t %s (follows OpenTOSCA Vintner %s)\n", buildVersion(), referenceVersion)
				return exitOK
			}
		},
	}
}

// buildVersion is the module version, with the VCS revision when the build
// recorded one.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
