package cli

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type kbBootstrapOptions struct {
	from   []string
	dryRun bool
	json   bool
}

func newKBBootstrapCmd(env *Env) *cobra.Command {
	var opts kbBootstrapOptions
	cmd := &cobra.Command{
		Use:   "bootstrap",
		Short: "Seed the knowledge base from the project's past and the agents' own memories",
		Long: `Seed the knowledge base of a project that has a past. Each piece of knowledge
found in the sources becomes a learning or a decision on global, with an origin
naming where it came from, in one commit; then 'planq kb update' makes the
articles, in a second. A bootstrap again adds only what is new: a piece whose
origin (or whose text) a branch holds already is present.

Sources (--from, comma-separated; default all):
  records         the learnings and decisions on global already
  git             the code repository's history: a "Decision: X" paragraph of a
                  commit message (its reason a "Because:" paragraph or the
                  "because ..." in it, its alternatives an "Alternatives:" one),
                  a sentence "we chose X over Y because Z", and reverts (a
                  learning that the change was reverted, and why when the message
                  says); a conventional commit's scope, feat(auth), is the
                  subject. Origin git:<commit>
  adr             ADRs, Nygard's format or MADR: a decision with its
                  rationale, context and consequences; one another supersedes
                  is superseded by it, and of two with one number and one
                  title the later supersedes the earlier; a rejected or
                  proposed one is skipped;
                  one without a date line dates from the commit that added it.
                  Read from docs/adr, doc/adr, docs/decisions, doc/decisions,
                  docs/architecture/decisions, adr, and any directory whose path
                  names ADRs or decisions and holds numbered Markdown files
                  (docs/internal/adr/0007-x.md), example trees aside; or only
                  from the directories .planq/config names (knowledge:
                  adr_dirs: [...]). Origin adr:<path>
  instructions    the instruction files curation reads (AGENTS.md, CLAUDE.md,
                  ...): each bullet, and each paragraph, a convention under its
                  heading. Origin instructions:<path>#<heading>@<hash>
  agent-memories  Claude Code's auto memory of the project
                  (~/.claude/projects/<key>/memory/: MEMORY.md and its topic
                  files; <key> is the checkout's path with every character but
                  letters and digits made '-', the main checkout's for a
                  worktree) and Codex's memories (~/.codex/memories/MEMORY.md and
                  memory_summary.md: the person's, across projects). A memory of
                  type user, about the person, is left out. A memory's subject
                  is its name (or title, or first heading), never its type or
                  its file's name. Origins claude-memory:<file>...,
                  codex-memory:<file>...
  transcripts     session transcripts of the project: Claude Code's
                  (~/.claude/projects/<key>/*.jsonl) and Codex's
                  (~/.codex/sessions/**, the sessions whose cwd is the checkout).
                  Only what was meant to be kept: memory files the agent wrote,
                  and the person's messages that start "remember", "note:" or
                  "for future reference". Origin transcript:<file>:<line>
CLAUDE_CONFIG_DIR and CODEX_HOME move ~/.claude and ~/.codex.

What cannot be taken is skipped and named on stderr with its file and line,
never written in part: a file that is no regular file (a FIFO, a device) or
whose real path leaves its folder through a symbolic link (an ADR out of the
repository, a memory out of the memory folder, a transcript linked to
/dev/zero), a binary or non-UTF-8 file, broken frontmatter, a transcript line
that is no JSON or longer than 1 MiB, a piece holding what looks like a
credential. --from with no source is refused (exit 2). --dry-run reads
everything and writes nothing: it lists what it would create from which
source, and the articles that would be made.

Prints a line "<source>\t<origin>\t<id>" for each record created.
--json prints {"dry_run","sources":[{"source","read","created","present",
"skipped"}],"created":[{"source","origin","id","kind","title"}],"skipped":
[{"source","file","line"?,"why"}],"commit","articles":{...}}: "line" is there
when the skip has one; "articles" is what 'planq kb update --json' prints (in a
dry run, the articles that would be created or joined).`,
		Example: "  planq kb bootstrap --dry-run\n  planq kb bootstrap --from git,adr\n  planq kb bootstrap --json",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			// --from '' parses to no source, which Bootstrap reads as every
			// one: the opposite of what was asked.
			if cmd.Flags().Changed("from") && len(opts.from) == 0 {
				return planqerr.New(planqerr.Invalid, "--from", "names no source").
					WithHint("name some of: %s; or leave --from out to read them all", strings.Join(session.BootstrapSources, ", "))
			}
			return runKBBootstrap(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.from, "from", nil, "read only these `SOURCES`: "+strings.Join(session.BootstrapSources, ","))
	f.BoolVar(&opts.dryRun, "dry-run", false, "show what would be created; write nothing")
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBBootstrap(ctx context.Context, env *Env, opts kbBootstrapOptions) error {
	var stage atomic.Value
	stage.Store("reading the sources")
	done := env.progressOf(opts.json, func() string { return "bootstrapping the knowledge base: " + stage.Load().(string) })
	res, err := env.service().KBBootstrap(ctx, session.KBBootstrapInput{From: opts.from, DryRun: opts.dryRun,
		Progress: func(what string) { stage.Store(what) }})
	done()
	for _, s := range res.Skipped {
		env.Log.Warn("skipped "+s.String(), "source", s.Source)
	}
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res)
	}
	for _, c := range res.Created {
		env.printf("%s\t%s\t%s\n", c.Source, c.Origin, c.ID)
	}
	var parts []string
	present := 0
	for _, c := range res.Sources {
		parts = append(parts, fmt.Sprintf("%s %d", c.Source, c.Created))
		present += c.Present
	}
	counts := fmt.Sprintf("%s (%s), %d present already, %s", countOf(len(res.Created), "record"), strings.Join(parts, ", "), present,
		countOf(len(res.Skipped), "skip"))
	a := res.Articles
	if opts.dryRun {
		env.Log.Info("would create "+counts+"; nothing written", "articles-created", len(a.Created), "articles-joined", len(a.Updated)+len(a.Appended))
		return nil
	}
	if res.Commit == "" {
		env.Log.Info("nothing new: "+counts, "branch", "global")
	} else {
		env.Log.Info("bootstrapped "+counts, "branch", "global", "commit", short(res.Commit))
	}
	if a.Changed() {
		env.Log.Info("updated the knowledge base", "branch", "global", "created", len(a.Created), "updated", len(a.Updated)+len(a.Deprecated)+len(a.Appended), "commit", short(a.Commit))
	}
	return nil
}
