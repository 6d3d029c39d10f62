package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/hooks"
	"github.com/planq-dev/planq/planqerr"
)

type setupOptions struct {
	check, remove, dryRun, global, local, json bool
}

func newSetupCmd(env *Env) *cobra.Command {
	var opts setupOptions
	cmd := &cobra.Command{
		Use:   "setup AGENT",
		Short: "Connect a coding agent: hooks, MCP server, instructions",
		Long: `Edit AGENT's settings so it gets planq's context at session start, saves its
state before compaction and at the end, and reaches planq's MCP server:

  claude    hooks in .claude/settings.json (--local: settings.local.json), MCP in .mcp.json
  codex     .codex/hooks.json, a block in AGENTS.md, [mcp_servers.planq] in .codex/config.toml
  gemini    hooks (millisecond timeouts) and mcpServers in .gemini/settings.json, a block in GEMINI.md
  cursor    .cursor/rules/planq.mdc (alwaysApply) and .cursor/mcp.json; no hooks, as
            Cursor also runs Claude's and planq must not run twice
  opencode  the mcp entry in opencode.json, a block in AGENTS.md
  windsurf  .windsurf/rules/planq.md
  copilot   a block in .github/copilot-instructions.md, servers.planq in .vscode/mcp.json
  aider     .planq/instructions.md, listed under read: in .aider.conf.yml

Setup recognises its own entries and keeps everything else, with its order;
it refuses to rewrite a file it cannot parse, leaves symbolic links alone,
writes atomically, and fences Markdown blocks with a version and a hash.
Running it twice changes nothing. --check exits 1 when the setup is missing or
stale; --remove takes planq's part out (byte for byte where it was the only
change), and keeps a file git tracks even when nothing else is left; --dry-run shows what would change. --global edits the user's settings
instead of the project's.`,
		Example: "  planq setup claude\n  planq setup claude --check\n  planq setup gemini --global\n  planq setup codex --remove",
		Args:    exactArgs(1, "the AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSetup(cmd.Context(), env, args[0], opts, false)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.check, "check", false, "only check; exit 1 when missing or stale")
	f.BoolVar(&opts.remove, "remove", false, "take planq's entries out")
	f.BoolVar(&opts.dryRun, "dry-run", false, "show what would change")
	f.BoolVar(&opts.global, "global", false, "edit the user's settings, not the project's")
	f.BoolVar(&opts.local, "local", false, "claude: edit .claude/settings.local.json")
	f.BoolVar(&opts.json, "json", false, "print file states as JSON")
	cmd.MarkFlagsMutuallyExclusive("check", "remove", "dry-run")
	handedOff(env, cmd) // it edits JSON settings (hooks.JSON)
	return cmd
}

func runSetup(ctx context.Context, env *Env, agentName string, opts setupOptions, mcpOnly bool) error {
	target := hooks.Target{Global: opts.global, Local: opts.local, MCPOnly: mcpOnly}
	home, err := os.UserHomeDir()
	if err != nil {
		return planqerr.New(planqerr.Failure, "home", "cannot find the home directory: %w", err)
	}
	target.Home = home
	root, tracked, err := env.service().CodeTracked(ctx)
	if err != nil && !opts.global {
		return err
	}
	target.Root = root
	edits, err := hooks.Recipe(agentName, target)
	if err != nil {
		return err
	}
	mode := hooks.ModeInstall
	switch {
	case opts.check:
		mode = hooks.ModeCheck
	case opts.remove:
		mode = hooks.ModeRemove
	case opts.dryRun:
		mode = hooks.ModeDryRun
	}
	if agentName == "claude" && !mcpOnly && mode == hooks.ModeInstall {
		for _, other := range hooks.OtherClaudeSettings(target) {
			if data, err := os.ReadFile(other); err == nil && bytes.Contains(data, []byte("planq hook ")) {
				return planqerr.New(planqerr.Refused, other, "already runs planq's hooks; a second set would run them twice").
					WithHint("keep that one, or take it out first with 'planq setup claude --remove' and the same --local/--global")
			}
		}
	}
	states, err := hooks.Apply(edits, mode, tracked)
	return reportSetup(env, agentName, states, err, opts.json, mode == hooks.ModeCheck)
}

// reportSetup prints the state of each file setup edited (or checked),
// and, when the edits went through (applyErr nil), says what changed and,
// for a check, whether the setup is complete.
func reportSetup(env *Env, agentName string, states []hooks.FileState, applyErr error, asJSON, check bool) error {
	if asJSON {
		if err := env.writeJSON(states); err != nil {
			return err
		}
	} else {
		for _, st := range states {
			line := fmt.Sprintf("%s\t%s", st.State, st.File)
			if st.Detail != "" {
				line += "\t(" + st.Detail + ")"
			}
			env.printf("%s\n", line)
		}
	}
	if applyErr != nil {
		return applyErr
	}
	incomplete := false
	for _, st := range states {
		switch st.State {
		case "created", "updated", "removed":
			env.Log.Info("setup "+agentName+": "+st.State, "file", st.File)
		case "skipped":
			env.Log.Warn("setup "+agentName+": skipped", "file", st.File, "why", st.Detail)
		case "missing", "stale":
			incomplete = incomplete || check
		}
	}
	if incomplete {
		env.Log.Warn("setup is not complete", "agent", agentName, "hint", "run 'planq setup "+agentName+"'")
		return &silentError{code: ExitFailure}
	}
	return nil
}

func newMCPInstallCmd(env *Env) *cobra.Command {
	var opts setupOptions
	cmd := &cobra.Command{
		Use:   "install [AGENT]",
		Short: "Register planq's MCP server with a coding agent",
		Long: "The MCP part of 'planq setup AGENT' (default claude), for every agent setup knows: " +
			strings.Join(hooks.SetupAgents, ", ") + " (windsurf and aider have no MCP file planq edits).",
		Args: maxArgs(1, "one AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := "claude"
			if len(args) == 1 {
				name = args[0]
			}
			return runSetup(cmd.Context(), env, name, opts, true)
		},
	}
	cmd.Flags().BoolVar(&opts.check, "check", false, "only check; exit 1 when missing")
	cmd.Flags().BoolVar(&opts.remove, "remove", false, "take the registration out")
	cmd.Flags().BoolVar(&opts.global, "global", false, "edit the user's settings, not the project's")
	handedOff(env, cmd)
	return cmd
}

func newOnboardCmd(env *Env) *cobra.Command {
	var write string
	cmd := &cobra.Command{
		Use:   "onboard [--write FILE]",
		Short: "Print (or add to FILE) a short AGENTS.md/CLAUDE.md snippet pointing to planq prime",
		Long: `Print the snippet that tells an agent to read planq prime, search before
answering about prior work, and record as it goes. --write adds it to FILE
(AGENTS.md, CLAUDE.md, …) as a fenced block; running it again updates the block.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			if write == "" {
				env.printf("%s", hooks.Snippet)
				return nil
			}
			if info, err := os.Stat(filepath.Dir(write)); err != nil || !info.IsDir() {
				return planqerr.New(planqerr.Invalid, write, "its directory %s does not exist", filepath.Dir(write)).
					WithHint("write to a file in an existing directory, like AGENTS.md at the top of the repository")
			}
			states, err := hooks.Apply([]hooks.Edit{hooks.MarkdownBlock{Path: write, Content: hooks.Snippet}}, hooks.ModeInstall, nil)
			if err != nil {
				return err
			}
			env.Log.Info("onboard: "+states[0].State, "file", write)
			return nil
		},
	}
	cmd.Flags().StringVar(&write, "write", "", "add the snippet to `FILE` as a fenced block")
	return cmd
}
