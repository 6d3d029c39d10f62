package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type learnOptions struct {
	writeFlags
	typ            string
	domain         string
	classification string
	resolution     string
	files          []string
	anchors        []string
	evidenceCommit string
	evidenceIssue  string
	evidenceFiles  []string
	supersedes     string
	subject        string
	force          bool
	scope          string
}

func newLearnCmd(env *Env) *cobra.Command {
	var opts learnOptions
	cmd := &cobra.Command{
		Use:   "learn INSIGHT",
		Short: "Record a learning (INSIGHT '-' reads stdin)",
		Long: `Record something worth knowing next time: a convention, a pattern, a failure
with its resolution, a decision, a reference or a guide. Learnings belong to a
domain and carry evidence; the commit and branch default to the code
checkout's HEAD.

Each file it cites (--file, with its lines if you like, and the evidence's
files) becomes an anchor: the file's blob at the evidence commit. When that
file changes or goes, search, get, query and prime mark the learning "may be
stale"; 'planq revalidate ID' re-anchors it once you checked it still holds.

A learning is not a log entry: "always run 'just check' before committing: the
pre-commit hook catches unformatted SQL" is a learning; "added function X" is a
log entry.

--scope user records it in the user layer instead (see planq user): yours across
projects, a preference as domain preferences. It works outside any project too;
no code repository stands behind it, so it takes no --file, --files,
--evidence-file or --evidence-commit, and nothing is filled in from the
checkout. It keeps no credential: --allow-secret is refused with it (every
project's session reads the user layer, and it syncs to your own remote).`,
		Example: `  planq learn "Tokens expire after 15 minutes; refresh on 401" --type pattern --domain auth \
      --file internal/auth/jwt.go:40-62
  planq learn "go test hangs without -p 1 on CI" --type failure --domain ci \
      --resolution "set GOFLAGS=-p=1 in .ci/run" --classification foundational
  planq learn "Prefers table-driven tests" --type convention --domain preferences --scope user`,
		Args: exactArgs(1, "the INSIGHT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLearn(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	f := cmd.Flags()
	spec := changelog.KindLearning.Spec()
	f.StringVar(&opts.typ, "type", "", "learning `TYPE`: "+changelog.Join(spec.Types, "|")+" (required)")
	f.StringVar(&opts.domain, "domain", "", "`DOMAIN` it belongs to, like auth or ci (required)")
	f.StringVar(&opts.classification, "classification", string(changelog.DefaultClassification), "`CLASS`: "+changelog.Join(changelog.Classifications, "|"))
	f.StringVar(&opts.resolution, "resolution", "", "how a failure was resolved (required with --type failure)")
	f.StringArrayVar(&opts.anchors, "file", nil, "code `PATH[:FROM-TO]` it cites (repeat): an anchor, so readers can tell when that code changed")
	f.StringSliceVar(&opts.files, "files", nil, "code `FILES` it concerns (repeat or comma-separate); anchors too")
	f.StringVar(&opts.evidenceCommit, "evidence-commit", "", "code `COMMIT` that shows it (default: HEAD of the agent's code checkout)")
	f.StringVar(&opts.evidenceIssue, "evidence-issue", "", "`ISSUE` that shows it (URL or reference)")
	f.StringSliceVar(&opts.evidenceFiles, "evidence-file", nil, "`FILE` that shows it (repeat or comma-separate)")
	f.StringVar(&opts.supersedes, "supersedes", "", "`ID` of the learning this one replaces")
	f.BoolVar(&opts.force, "force", false, "record it even though its domain is at the hard limit of 200 current learnings")
	f.StringVar(&opts.subject, "subject", "", "what it is about, as a short `KEY` (default: its domain and first line); promote flags two learnings with one subject and different content as disputed")
	registerWriteScope(cmd, &opts.scope)
	return cmd
}

func runLearn(ctx context.Context, env *Env, opts learnOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	learned, err := env.service().Learn(ctx, session.LearnInput{
		LearningInput: changelog.LearningInput{
			Text: text, Type: changelog.Type(opts.typ), Domain: opts.domain,
			Classification: changelog.Classification(opts.classification), Resolution: opts.resolution,
			Evidence: changelog.Evidence{
				Commit: opts.evidenceCommit,
				Issue:  opts.evidenceIssue,
				Files:  append(splitList(opts.files), splitList(opts.evidenceFiles)...),
			},
			Supersedes: opts.supersedes, Subject: opts.subject, Files: opts.anchors,
		},
		Author: opts.author(), Scope: session.Scope(opts.scope), Force: opts.force,
	})
	return reportRecorded(env, opts.writeFlags, learned, err)
}
