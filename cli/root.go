package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/log"
	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// Version is set at build time with -ldflags "-X github.com/planq-dev/planq/cli.Version=...".
var Version = "dev"

// Env is what every command works with: its streams, its logger and the
// directory it runs in. Tests build one around buffers.
type Env struct {
	Stdin io.Reader
	// Stdout is for what people read: control characters come out
	// escaped (see escaper). Data goes to raw.
	Stdout io.Writer
	Stderr io.Writer
	// rawStdout is stdout as it is, for data: JSON, a protocol, an export.
	rawStdout io.Writer
	Log       *lazyLogger
	// Dir is where the command acts (-C), default the working directory.
	Dir string
	// quiet is --quiet: no progress, only warnings and errors.
	quiet bool
	// status is the terminal's line of progress, made when first shown.
	status     *statusLine
	statusOnce sync.Once
	// catchInterrupts is whether Ctrl-C and SIGTERM cancel the command's
	// context (the process's run; not a test's).
	catchInterrupts bool
	// runCtx is the context the command ran with, once it runs, and
	// stopInterrupts ends its catching of signals.
	runCtx         context.Context
	stopInterrupts context.CancelFunc
	// svc is the project service, opened on first use and closed when the
	// command ends.
	svc *session.Project
	// servers are the long-running front ends, when linked in; else their
	// commands are handed to planq-server, with args.
	servers *Servers
	args    []string
}

// Main runs planq with the process's arguments and streams and returns the
// exit code. Ctrl-C cancels the command's context, so git processes stop and
// multi-step commands undo what they started.
func Main() int {
	return run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, launch{catchInterrupts: true})
}

// Run runs planq with args and returns the exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(ctx, args, stdin, stdout, stderr, launch{})
}

// launch is how a run of planq was started.
type launch struct {
	// catchInterrupts: the process's run, not a test's (see Env).
	catchInterrupts bool
	// servers are linked in (planq-server), else nil.
	servers *Servers
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, how launch) int {
	human := &escaper{w: stdout}
	defer func() { _ = human.Flush() }()
	env := &Env{Stdin: stdin, Stdout: human, rawStdout: stdout, Stderr: stderr, Log: newLazyLogger(stderr),
		catchInterrupts: how.catchInterrupts, servers: how.servers, args: args}
	root := newRootCmdFor(env, commandsFor(args))
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	env.closeService()
	// Read before stopInterrupts, which cancels the context it ends.
	interrupted := ctx.Err() != nil || env.runCtx != nil && env.runCtx.Err() != nil
	if env.stopInterrupts != nil {
		env.stopInterrupts()
	}
	if err == nil {
		return ExitOK
	}
	var silent *silentError
	if errors.As(err, &silent) {
		return silent.code
	}
	if isCobraUsage(err) {
		err = &usageError{err}
	}
	if errors.Is(err, context.Canceled) && interrupted {
		fmt.Fprintln(stderr, interruptedMessage)
		return ExitInterrupted
	}
	errOut := &escaper{w: stderr} // an error may quote what a record or an argument holds
	printError(errOut, err)
	_ = errOut.Flush()
	if ue := (*usageError)(nil); errors.As(err, &ue) && !strings.Contains(err.Error(), "--help") {
		if m := flagLikeRE().FindStringSubmatch(err.Error()); m != nil && takesText(root, args) {
			text := m[1]
			for _, a := range args { // cobra names the first word of it
				if strings.HasPrefix(a, text) {
					text = a
					break
				}
			}
			if strings.ContainsAny(text, " \t'\"$`\\") {
				text = "'" + strings.ReplaceAll(text, "'", `'\''`) + "'"
			}
			fmt.Fprintf(stderr, "planq: hint: if %s is text, not a flag, put -- before it: planq %s -- %s\n", m[1], strings.Join(commandWords(args), " "), text)
		} else {
			fmt.Fprintln(stderr, "planq: hint: run 'planq help' or add --help to a command for its usage")
		}
	}
	return exitCode(err)
}

// interruptedMessage is what planq says when Ctrl-C or SIGTERM stopped it.
const interruptedMessage = "planq: interrupted; the command stopped before its last step, and planq's state is as it was before it (a record already on disk but not committed is committed by 'planq doctor --fix')"

// interruptGrace is how long a command has, after Ctrl-C or SIGTERM
// cancelled its context, to stop at its next check of it and undo what it
// started. One blocked where no context reaches (a read of a pipe that
// stays open, a loop that never checks) is ended when it runs out: no
// planq process outlives a signal by more than a second.
const interruptGrace = 900 * time.Millisecond

// catchInterrupts returns ctx cancelled by the first Ctrl-C or SIGTERM,
// and the function that stops catching them. A command still running
// interruptGrace after the signal, or at a second signal, is ended with
// exit 130: every write planq makes is a compare-and-swap of a ref or an
// atomic rename, and a lock file is released with the process, so what
// such an exit leaves is what a crash leaves, which doctor --fix settles.
func catchInterrupts(parent context.Context, stderr io.Writer) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			cancel()
		case <-done:
			return
		}
		grace := time.NewTimer(interruptGrace)
		defer grace.Stop()
		select {
		case <-grace.C:
		case <-signals:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, interruptedMessage)
		os.Exit(ExitInterrupted)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(signals)
			close(done)
			cancel()
		})
	}
}

// flagLikeRE finds the argument cobra took for a flag it does not know.
var flagLikeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:unknown shorthand flag: .* in |unknown flag: )(-\S*)$`)
})

// takesText reports whether the command args name takes a text argument,
// so that text starting with '-' is a mistake worth a hint.
func takesText(root *cobra.Command, args []string) bool {
	cmd, _, err := root.Find(args)
	return err == nil && cmd != root && cmd.Args != nil && cmd.Args(cmd, []string{"text"}) == nil
}

// commandWords are the leading words of args that name a command, before
// the first flag or text.
func commandWords(args []string) []string {
	var words []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || strings.ContainsAny(a, " '\"") {
			break
		}
		words = append(words, a)
	}
	return words
}

// isCobraUsage recognises cobra's own errors about how a command was called.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "requires at most", "flag needs an argument", "invalid argument", "required flag", "if any flags in the group"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, " "+p) {
			return true
		}
	}
	return false
}

func newRootCmd(env *Env) *cobra.Command { return newRootCmdFor(env, nil) }

// newRootCmdFor builds the root with the commands build wants, or with
// every command when build is nil.
func newRootCmdFor(env *Env, build func(name string) bool) *cobra.Command {
	var dir string
	var verbose, quiet bool
	root := &cobra.Command{
		Use:   "planq",
		Short: "Git-native memory for AI coding agents",
		Long: `planq gives coding agents a memory that lives in git.

Each project gets a bare state repository under $PLANQ_HOME/state-repos (default
~/.planq). Each agent works on its own branch agent-<name>, mounted as a git
worktree at .planq/agent in its code workspace, and records scratch notes,
changelog entries, learnings, decisions, checkpoints and handoffs there as
Markdown files with YAML frontmatter, one commit per record.

planq makes no LLM calls: agents use planq, planq does not use agents.`,
		Version:       currentBuild().Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			env.Dir = dir
			if dir != "" {
				if info, err := os.Stat(dir); err != nil || !info.IsDir() {
					return planqerr.New(planqerr.Invalid, "-C "+dir, "no such directory").
						WithHint("give -C a directory that exists, or leave it out to act where you are")
				}
			}
			if env.Dir == "" {
				wd, err := os.Getwd()
				if err != nil {
					return fmt.Errorf("failed to read the working directory: %w", err)
				}
				env.Dir = wd
			}
			env.quiet = quiet
			switch {
			case quiet:
				env.Log.SetLevel(log.WarnLevel)
			case verbose:
				env.Log.SetLevel(log.DebugLevel)
			}
			// A build of the read model shows on the status line, except
			// under --json, as every long work does.
			asJSON := false
			if f := cmd.Flags().Lookup("json"); f != nil {
				asJSON = f.Value.String() == "true"
			}
			ctx := cmd.Context()
			if env.catchInterrupts {
				// Set up here, not in Main: what does no work (--version,
				// --help, a usage error) need not start the signal thread.
				ctx, env.stopInterrupts = catchInterrupts(ctx, env.Stderr)
			}
			env.runCtx = ctx
			cmd.SetContext(session.WithProgress(ctx, &buildProgress{env: env, quiet: asJSON}))
			return nil
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	root.PersistentFlags().StringVarP(&dir, "dir", "C", "", "run as if planq was started in `DIR`")
	root.PersistentFlags().BoolVarP(&verbose, "verbose", "v", false, "log more detail to stderr")
	root.PersistentFlags().BoolVarP(&quiet, "quiet", "q", false, "log only warnings and errors")
	root.AddGroup(&cobra.Group{ID: "setup", Title: "Set up projects and agents:"},
		&cobra.Group{ID: "record", Title: "Record what an agent does and learns:"},
		&cobra.Group{ID: "read", Title: "Read the memory:"},
		&cobra.Group{ID: "upkeep", Title: "Keep the memory lean and true:"},
		&cobra.Group{ID: "agents", Title: "Connect coding agents:"})
	for _, g := range commandGroups {
		for _, c := range g.cmds {
			if build == nil || build(c.name) {
				cmd := c.new(env)
				cmd.GroupID = g.id
				root.AddCommand(cmd)
			}
		}
	}
	if build != nil {
		// The run names its command: nothing to complete.
		root.CompletionOptions.DisableDefaultCmd = true
	}
	return root
}

// namedCmd is a command's constructor under the name it is called by, so
// that a run builds the one command it names rather than all of them (what
// every hook pays before it starts). TestCommandGroupsNameTheirCommands
// keeps each name equal to its command's.
type namedCmd struct {
	name string
	new  func(*Env) *cobra.Command
}

// commandGroups are planq's commands as 'planq help' groups them.
var commandGroups = []struct {
	id   string
	cmds []namedCmd
}{
	{"setup", []namedCmd{{"init", newInitCmd}, {"state", newStateCmd}, {"create", newCreateCmd}, {"remove", newRemoveCmd}, {"list", newListCmd}, {"projects", newProjectsCmd}, {"env", newEnvCmd}, {"doctor", newDoctorCmd}, {"githook", newGitHookCmd}, {"version", newVersionCmd}, {"model", newModelCmd}, {"user", newUserCmd}}},
	{"record", []namedCmd{{"scratch", newScratchCmd}, {"log", newLogCmd}, {"learn", newLearnCmd}, {"decide", newDecideCmd}, {"checkpoint", newCheckpointCmd}, {"handoff", newHandoffCmd}, {"note", newNoteCmd}, {"propose", newProposeCmd}, {"retract", newRetractCmd}, {"edit", newEditCmd}, {"revalidate", newRevalidateCmd}, {"artifact", newArtifactCmd}, {"record", newRecordCmd}, {"adopt", newAdoptCmd}}},
	{"read", []namedCmd{{"context", newContextCmd}, {"search", newSearchCmd}, {"get", newGetCmd}, {"show", newShowCmd}, {"query", newQueryCmd}, {"notes", newNotesCmd}, {"curate", newCurateCmd}, {"proposals", newProposalsCmd}, {"kb", newKBCmd}, {"ui", newUICmd}, {"status", newStatusCmd}, {"branch", newBranchCmd}, {"plan", newPlanCmd}, {"prime", newPrimeCmd}}},
	{"upkeep", []namedCmd{{"validate", newValidateCmd}, {"prune", newPruneCmd}, {"archive", newArchiveCmd}, {"restore", newRestoreRecordCmd}, {"dedupe", newDedupeCmd}, {"import", newImportCmd}, {"export", newExportCmd}}},
	{"agents", []namedCmd{{"setup", newSetupCmd}, {"onboard", newOnboardCmd}, {"hook", newHookCmd}, {"mcp", newMCPCmd}, {"memtool", newMemtoolCmd}, {"post", newPostCmd}}},
}

// commandsFor says which commands a run of args needs: none for
// --version, the one args start with, or (nil) all of them when args start
// with anything else (a flag, help, a mistyped name): help lists them and
// cobra suggests from them.
func commandsFor(args []string) func(name string) bool {
	switch {
	case len(args) == 0:
		return nil
	case len(args) == 1 && args[0] == "--version":
		return func(string) bool { return false }
	}
	for _, g := range commandGroups {
		for _, c := range g.cmds {
			if c.name == args[0] {
				return func(name string) bool { return name == args[0] }
			}
		}
	}
	return nil
}

// service is the project service for the directory the command acts in,
// opened on first use; run closes it when the command ends.
func (e *Env) service() *session.Project {
	if e.svc == nil {
		e.svc = session.Open(e.Dir)
	}
	return e.svc
}

// closeService saves the record cache; a failure there costs only speed.
func (e *Env) closeService() {
	if err := e.svc.Close(); err != nil {
		e.Log.Debug("record cache not saved", "err", err)
	}
	e.svc = nil
}

// raw is stdout as it is, for data (see escaper).
func (e *Env) raw() io.Writer {
	if e.rawStdout == nil {
		return e.Stdout
	}
	return e.rawStdout
}

// writeJSON writes v as indented JSON to stdout: JSON escapes control
// characters itself, and a program reads it.
func (e *Env) writeJSON(v any) error {
	enc := json.NewEncoder(e.raw())
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("failed to write JSON: %w", err)
	}
	return nil
}

// printf writes data to stdout.
func (e *Env) printf(format string, args ...any) { fmt.Fprintf(e.Stdout, format, args...) }

// short abbreviates a commit hash for messages.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// exactArgs is cobra.ExactArgs with planq's usage error and message.
func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s: expects %s, got %d argument(s)", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs with planq's usage error and message.
func maxArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("%s: expects at most %s, got %d arguments", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}

// rangeArgs is cobra.RangeArgs with planq's usage error and message.
func rangeArgs(lo, hi int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("%s: expects %s, got %d argument(s)", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}
