package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/platform"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// Servers are planq's long-running front ends: the MCP server ('planq mcp
// serve', and 'planq mcp tools', which lists its tools) and the review page
// ('planq ui'). They live in planq-server, not in planq: agents and hooks
// start planq thousands of times a day, and the libraries those two need
// (the MCP SDK, a Markdown renderer) cost every one of those starts their
// initialisation. planq hands these commands to planq-server.
type Servers struct {
	// MCP serves the MCP server of the project at dir on in and out until
	// the client goes away; warn hears what the user should know.
	MCP func(ctx context.Context, dir, version string, memoryTool bool, in io.Reader, out io.Writer, warn func(msg string)) error
	// MCPTools lists the MCP server's tools as a client connected to it
	// sees them, as JSON ([{"name","description","read_only",
	// "annotations","input_schema"}]).
	MCPTools func(ctx context.Context, version string, memoryTool bool) ([]byte, error)
	// Review serves the review page of svc's project on port until ctx
	// ends, telling listening its URL once it answers.
	Review func(ctx context.Context, svc *session.Project, who, port string, listening func(url string)) error
}

// MainServing is Main with the servers linked in: planq-server's main.
func MainServing(s Servers) int {
	return run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, launch{catchInterrupts: true, servers: &s})
}

// handedOff has cmds run in planq-server when planq is built without the
// servers: their flags, --help included, are planq-server's to read.
func handedOff(env *Env, cmds ...*cobra.Command) {
	if env.servers != nil {
		return
	}
	for _, c := range cmds {
		c.DisableFlagParsing = true
		c.Args = nil
		c.RunE = func(cmd *cobra.Command, _ []string) error { return env.handOff(cmd.Context()) }
	}
}

// handOff runs the command in planq-server, with planq's arguments and
// streams, and ends as it ends. A process of its own (planq run from a
// terminal or by an agent) becomes planq-server where the platform can
// (exec), so signals and the exit code are planq-server's own.
func (e *Env) handOff(ctx context.Context) error {
	bin, err := platform.ServerProgram()
	if err != nil {
		return err
	}
	args := append([]string{bin}, e.args...)
	if e.catchInterrupts && runtime.GOOS != "windows" {
		if e.stopInterrupts != nil {
			e.stopInterrupts()
		}
		return replaceProcess(bin, args)
	}
	cmd := exec.CommandContext(ctx, bin, e.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.Stdin, e.raw(), e.Stderr
	// Cancelled, it is asked to stop as planq would be, and ended when it
	// has not within the grace planq has.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = interruptGrace
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() >= 0 {
		return &silentError{code: exit.ExitCode()} // planq-server said why
	}
	switch {
	case err == nil:
		return nil // it ended well, interrupted or not: its exit is planq's
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return planqerr.New(planqerr.Failure, platform.ServerProgramName, "failed to run: %w", err)
}
