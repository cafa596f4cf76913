package main

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/diag"
	"v4t/resolve/complete"
)

func completeCommand() *command {
	return &command{
		name:    "complete",
		summary: "give abstract Docker hosts of a TOSCA application an image (TosKeriser)",
		usage: "v4t complete FILE [COMPONENT...] (--catalog FILE | --dockerfinder URL) [--policy top_rated|size|most_used]\n" +
			"                    [--constraints 'size<=99MB pulls>30 stars>10'] [-f] [-i] [-q] [--allow-outside] [--output FILE]\n" +
			"       v4t complete --supported-sw (--catalog FILE | --dockerfinder URL)",
		help: `Complete reads a TOSCA application written with the TosKer types (FILE: a
.yaml/.yml template or a .csar/.zip archive) whose software components
leave their Docker host abstract: a host requirement with only a
node_filter (supported_sw versions, os_distribution, ports, ...). For each
tosker.groups.DeploymentUnit group, and each other such component, it picks
a Docker image that satisfies the merged constraints, adds a
tosker.nodes.Container node running it, and points the host requirements
at that node, as TosKeriser 0.2.3 does.

Images come from an offline catalog (--catalog, JSON with DockerFinder's
image fields) or a DockerFinder-compatible service (--dockerfinder URL, or
DOCKERFINDER_HOST=http://host for the reference's ports 3000 and 3001).
The policy orders the matching images: top_rated (stars, pulls, smaller
size), size (smaller size, stars, pulls) or most_used (pulls, stars,
smaller size); ties go to the earlier catalog image. --constraints bounds
size (bytes, kb, mb, gb), pulls and stars; like the reference, it takes
every following word up to the next option; text it cannot use is
ignored with a warning. COMPONENT names restrict the
completion to those components; -f also re-completes components whose
host already names a node.

The output goes next to FILE as NAME.completed.EXT, or NAME.partial.EXT
when some component found no image; --output chooses another path.
Imports of a YAML template that leave its directory tree (links resolved)
are refused unless --allow-outside is given. Progress lines go to standard
output (-q silences them), errors to standard error, one per line, in the
reference's words.

Exit status: 0 when an output was written (completed or partial); 1 on
completion errors (nothing is written) or a catalog or service failure;
2 on usage errors; 3 on an internal error.`,
		example: "v4t complete testdata/complete/webshop.yaml --catalog testdata/complete/catalog.json --output webshop.completed.yaml",
		setup:   setupComplete,
	}
}

// constraintsValue is --constraints. It records where among the positional
// arguments it was given, so that the words after it can join its value as
// in the reference (completion.md §2.1).
type constraintsValue struct {
	value string
	set   bool
	// event is the number of flag events before the last Set, and args
	// the number of positional arguments seen by then.
	event, args int
}

// flagEvents records, for every flag the parser meets, the number of
// positional arguments seen before it. pflag looks every flag name up
// through the normalisation function, long or short, so that function is
// the hook.
type flagEvents struct {
	fs     *pflag.FlagSet
	counts []int
}

func setupComplete(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	var (
		policy, catalog, dockerfinder, output string
		force, interactive, quiet, supported  bool
		allowOutside                          bool
	)
	ev := &flagEvents{fs: fs}
	cons := &constraintsValue{}
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		ev.counts = append(ev.counts, len(fs.Args()))
		if name == "supported_sw" {
			name = "supported-sw"
		}
		return pflag.NormalizedName(name)
	})
	fs.StringVar(&policy, "policy", "", "order the images by `POLICY`: top_rated (default), size or most_used")
	fs.Var(constraintsFlag{cons, ev}, "constraints", "bound size, pulls and stars with `TEXT`, e.g. 'size<=99MB pulls>30 stars>10'")
	fs.BoolVarP(&force, "force", "f", false, "also re-complete components whose host already names a node")
	fs.StringVar(&catalog, "catalog", "", "read the images from the catalog `FILE` (JSON, DockerFinder image fields)")
	fs.StringVar(&dockerfinder, "dockerfinder", "", "query the DockerFinder-compatible service at `URL`")
	fs.StringVarP(&output, "output", "o", "", "write the result to `FILE` (default: NAME.completed.EXT or NAME.partial.EXT next to FILE)")
	fs.BoolVarP(&interactive, "interactive", "i", false, "show the best images of each component and ask which one to use")
	fs.BoolVarP(&quiet, "quiet", "q", false, "print no progress lines")
	fs.BoolVarP(&supported, "supported-sw", "s", false, "print the supported software of the image source and exit")
	fs.BoolVar(&allowOutside, "allow-outside", false, "let the imports of a YAML template leave its directory tree")
	return func(ctx context.Context, e *env, args []string) int {
		args = cons.swallow(ev, args)
		opts := complete.Options{Constraints: cons.value, Force: force, AllowOutside: allowOutside}
		if fs.Changed("policy") {
			p, err := complete.ParsePolicy(policy)
			if err != nil {
				return e.usage("complete", err.Error())
			}
			opts.Policy = p
		}
		if catalog != "" && dockerfinder != "" {
			return e.usage("complete", "--catalog and --dockerfinder exclude each other")
		}
		var file string
		if !supported {
			if len(args) == 0 {
				return e.usage("complete", "expected the template FILE")
			}
			file, opts.Components = args[0], args[1:]
			if _, ok := complete.InputKind(file); !ok {
				return e.usage("complete", fmt.Sprintf("%s: expected a .yaml, .yml, .csar or .zip file", file))
			}
			if _, err := os.Stat(file); errors.Is(err, iofs.ErrNotExist) {
				return e.usage("complete", fmt.Sprintf("%s: no such file", file))
			}
		} else if len(args) > 0 {
			return e.usage("complete", fmt.Sprintf("unexpected argument %q with --supported-sw", args[0]))
		}
		switch {
		case catalog != "":
			c, err := complete.LoadCatalog(catalog)
			if err != nil {
				return e.fail("complete", err)
			}
			opts.Source = c
		case dockerfinder != "":
			opts.Source = complete.NewDockerFinder(dockerfinder)
		default:
			host, ok := os.LookupEnv("DOCKERFINDER_HOST")
			if !ok || host == "" {
				return e.usage("complete", "an image source is required: --catalog FILE or --dockerfinder URL (or DOCKERFINDER_HOST)")
			}
			opts.Source = complete.NewDockerFinderHost(host)
		}
		if supported {
			return printSupported(ctx, e, opts.Source)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			var pe *iofs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return e.fail("complete", fmt.Errorf("%s: cannot read: %w", file, err))
		}
		if !quiet {
			opts.Progress = func(line string) { fmt.Fprintln(e.stdout, line) }
		}
		if interactive {
			opts.Choose = complete.Interactive(e.stdin, e.stdout)
		}
		opts.Warn = func(m string) { fmt.Fprintf(e.stderr, "warning: %s\n", m) }
		res, err := complete.Complete(ctx, complete.Input{Name: file, Data: data}, opts)
		if err != nil {
			return e.diagnostics(diag.ListOf(err))
		}
		if output == "" {
			output = res.OutputName
		}
		if err := writeFileAtomic(output, res.Output); err != nil {
			return e.fail("complete", err)
		}
		return exitOK
	}
}

// constraintsFlag is the pflag.Value of --constraints.
type constraintsFlag struct {
	c  *constraintsValue
	ev *flagEvents
}

func (f constraintsFlag) String() string { return f.c.value }
func (f constraintsFlag) Type() string   { return "string" }

func (f constraintsFlag) Set(s string) error {
	f.c.value, f.c.set = s, true
	f.c.event, f.c.args = len(f.ev.counts), len(f.ev.fs.Args())
	return nil
}

// swallow joins to the --constraints value the positional arguments that
// followed it up to the next option (or "--"), and returns the others.
//
// Quirk: constraints-words (completion.md §2.1): the reference reads every
// word after --constraints up to the next option, so a COMPONENT placed
// there becomes part of the constraints.
func (c *constraintsValue) swallow(ev *flagEvents, args []string) []string {
	if !c.set {
		return args
	}
	end := len(args)
	if c.event < len(ev.counts) {
		end = ev.counts[c.event]
	}
	if dash := ev.fs.ArgsLenAtDash(); dash >= 0 && dash < end {
		end = dash
	}
	if end <= c.args || end > len(args) {
		return args
	}
	words := append([]string{c.value}, args[c.args:end]...)
	c.value = strings.Join(words, " ")
	rest := append([]string(nil), args[:c.args]...)
	return append(rest, args[end:]...)
}

// printSupported prints the source's software names, sorted.
func printSupported(ctx context.Context, e *env, src complete.Source) int {
	names, err := src.SupportedSoftware(ctx)
	if err != nil {
		return e.fail("complete", err)
	}
	sort.Strings(names)
	fmt.Fprintln(e.stdout, "Supported software:")
	for _, n := range names {
		fmt.Fprintln(e.stdout, n)
	}
	return exitOK
}

// diagnostics reports a completion's diagnostics, one line each in the
// reference's order, and returns the exit status: 3 for an internal error,
// else 1. With --debug, positions and related information follow each.
func (e *env) diagnostics(diags diag.List) int {
	code := exitRejected
	for _, d := range diags {
		// The reference's messages are kept as they are; the template's
		// own problems (its YAML, its validity), whose wording is ours,
		// lead with their position like every other command's errors.
		if d.Stage == complete.StageParse && d.Pos.Line > 0 {
			fmt.Fprintf(e.stderr, "error: %s: %s\n", d.Pos, oneLine(d.Text()))
		} else {
			fmt.Fprintf(e.stderr, "error: %s\n", oneLine(d.Text()))
		}
		if isInternal(d) {
			code = exitInternal
		}
		if !e.g.debug {
			continue
		}
		if d.Pos.Known() {
			fmt.Fprintf(e.stderr, "  at %s\n", d.Pos)
		}
		for _, r := range d.Related {
			if r.Pos.Known() {
				fmt.Fprintf(e.stderr, "  related: %s: %s\n", r.Pos, oneLine(r.Message))
			} else {
				fmt.Fprintf(e.stderr, "  related: %s\n", oneLine(r.Message))
			}
		}
	}
	return code
}
