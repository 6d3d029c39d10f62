package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

func newMCPCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve planq to coding agents over MCP",
		Args:  exactArgs(0, "a subcommand: serve, tools or install"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var project string
	var memoryTool bool
	serve := &cobra.Command{
		Use:   "serve [--project DIR]",
		Short: "Run the MCP server on stdin and stdout",
		Long:  mcpServeLong,
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPServe(cmd.Context(), env, project, memoryTool)
		},
	}
	// The tools are listed as the server lists them, when help is asked
	// for: no second list to fall behind it.
	serve.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		cmd.Long = mcpServeLong + "\n\n" + mcpToolsHelp(cmd.Context(), env, memoryTool)
		cmd.Parent().HelpFunc()(cmd, args)
	})
	serve.Flags().StringVar(&project, "project", "", "the project's code checkout `DIR`")
	serve.Flags().BoolVar(&memoryTool, "memory-tool", false, "also offer the memory-tool protocol's tool, on the agent's memories/")
	tools := newMCPToolsCmd(env)
	handedOff(env, serve, tools)
	cmd.AddCommand(serve, tools, newMCPInstallCmd(env))
	return cmd
}

const mcpServeLong = `Run planq's MCP server over stdio.

The project is --project, else the agent's project-directory variable
(PLANQ_PROJECT_DIR, CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR, CURSOR_PROJECT_DIR),
else the working directory, only if that is a planq project. Outside a planq
project the server starts all the same and every tool answers why and what to
do. Where no agent is mounted, the read-only tools read the team's memory
(global). A line on stdin that is not a JSON-RPC message gets the protocol's
error response, and serving goes on. Logs go to stderr.

--memory-tool also offers a tool of the memory-tool protocol: its commands
(view, create, str_replace, insert, delete, rename) on the agent's memories/
folder, as 'planq memtool' carries them out. It is not offered by default:
an agent records with planq_learn and planq_note, and every tool offered
costs its context the tool's schema.`

// mcpToolsHelp lists the server's tools with their titles.
func mcpToolsHelp(ctx context.Context, env *Env, memoryTool bool) string {
	if ctx == nil {
		ctx = context.Background()
	}
	if env.servers == nil {
		return "Tools: 'planq mcp tools' lists them."
	}
	tools, err := env.mcpTools(ctx, memoryTool)
	if err != nil {
		return "Tools: cannot be listed (" + err.Error() + ")."
	}
	var b strings.Builder
	b.WriteString("Tools ('planq mcp tools' describes them, with their input schemas):\n")
	tw := newTable(&b)
	for _, t := range tools {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, t.title())
	}
	if err := tw.Flush(); err != nil {
		return "Tools: cannot be listed (" + err.Error() + ")."
	}
	return strings.TrimRight(b.String(), "\n")
}

type mcpToolsOptions struct {
	json, memoryTool bool
}

func newMCPToolsCmd(env *Env) *cobra.Command {
	var opts mcpToolsOptions
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the MCP server's tools and their input schemas",
		Long: `List the tools 'planq mcp serve' offers, as an agent connected to it sees them.
--json prints [{"name","description","read_only","annotations","input_schema"}]:
the annotations as MCP defines them (title, readOnlyHint, destructiveHint,
idempotentHint, openWorldHint), the schemas with the values each enumerated
argument accepts.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCPTools(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON, with input schemas")
	cmd.Flags().BoolVar(&opts.memoryTool, "memory-tool", false, "as 'planq mcp serve --memory-tool' offers them")
	return cmd
}

// mcpTool is one of the MCP server's tools, as 'planq mcp tools' shows it.
type mcpTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ReadOnly    bool   `json:"read_only"`
	Annotations *struct {
		Title string `json:"title"`
	} `json:"annotations"`
}

// title is the tool's title, else its name.
func (t mcpTool) title() string {
	if t.Annotations != nil && t.Annotations.Title != "" {
		return t.Annotations.Title
	}
	return t.Name
}

// mcpTools lists the server's tools, and the JSON they were read from.
func (e *Env) mcpTools(ctx context.Context, memoryTool bool) ([]mcpTool, error) {
	tools, _, err := e.mcpToolsJSON(ctx, memoryTool)
	return tools, err
}

func (e *Env) mcpToolsJSON(ctx context.Context, memoryTool bool) ([]mcpTool, []json.RawMessage, error) {
	data, err := e.servers.MCPTools(ctx, currentBuild().Version, memoryTool)
	if err != nil {
		return nil, nil, err
	}
	var tools []mcpTool
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &tools); err != nil {
		return nil, nil, fmt.Errorf("failed to read the tools: %w", err)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, fmt.Errorf("failed to read the tools: %w", err)
	}
	return tools, raw, nil
}

func runMCPTools(ctx context.Context, env *Env, opts mcpToolsOptions) error {
	tools, raw, err := env.mcpToolsJSON(ctx, opts.memoryTool)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(raw)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "TOOL\tREAD ONLY\tDESCRIPTION")
	for _, t := range tools {
		fmt.Fprintf(tw, "%s\t%t\t%s\n", t.Name, t.ReadOnly, firstLine(t.Description, 80))
	}
	return tw.Flush()
}

func runMCPServe(ctx context.Context, env *Env, project string, memoryTool bool) error {
	dir := project
	for _, v := range projectDirVars {
		if dir == "" {
			dir = os.Getenv(v)
		}
	}
	if dir == "" {
		dir = env.Dir
	}
	env.Log.Debug("serving MCP", "project", dir)
	warn := func(msg string) { env.Log.Warn(msg, "dir", dir) }
	return env.servers.MCP(ctx, dir, currentBuild().Version, memoryTool, env.Stdin, env.raw(), warn)
}
