package cli

import (
	"context"

	"github.com/spf13/cobra"
)

type curateOptions struct {
	json bool
}

func newCurateCmd(env *Env) *cobra.Command {
	var opts curateOptions
	cmd := &cobra.Command{
		Use:   "curate",
		Short: "Print the curating agent's work packet: raw notes, instruction files, rules",
		Long: `Print what an agent needs to curate the raw notes into the project's instruction
files: every raw note of every agent (global and each agent branch, each once),
the instruction files the code repository has (CLAUDE.md, AGENTS.md, GEMINI.md,
.cursorrules, .cursor/rules/*.mdc, .github/copilot-instructions.md,
CONVENTIONS.md; or curation.instruction_files in .planq/config, where ** is any
number of directories, as in **/AGENTS.md) with the SHA-256 of each as it is
now, the rules (deduplicate, drop what is covered, route each note to the files
of the agents it concerns, keep each file's voice, never remove content) and
how to answer: with bare JSON. planq makes no model calls: give the packet to an
agent, which answers with a proposal a person reviews.

Files are those git sees (tracked, or untracked and not ignored). A symbolic
link is shown as one, with the file it leads to (link_to), and no content to
write to; a file that holds nothing but imports (@AGENTS.md) says which files
it imports (only_imports); a nested AGENTS.md, CLAUDE.md or GEMINI.md says
which directory it governs (governs: "pkg/foo/"). Each such file's note says
what to propose instead.

--json prints {"project","rules","files":[{"path","exists","sha256","content",
"governs"?,"link_to"?,"only_imports"?,"note"?}],
"notes":[{"id","agent","agent_kind","workspace","type","time","text"}],"answer"}.`,
		Example: "  planq curate | claude -p\n  planq curate --json",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runCurate(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runCurate(ctx context.Context, env *Env, opts curateOptions) error {
	p, err := env.service().Curate(ctx, "")
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(p)
	}
	env.printf("%s", p.Markdown())
	return nil
}
