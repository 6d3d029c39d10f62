package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type searchOptions struct {
	phrasings   []string
	kinds       []string
	domains     []string
	types       []string
	agents      []string
	since       string
	scope       string
	allProjects bool
	allVersions bool
	full        bool
	limit       int
	json        bool
	explain     bool
	asOf        asOfFlag
}

func newSearchCmd(env *Env) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search every agent's and the team's records",
		Long: `Search the current records of global and every agent for QUERY, best first.
Each QUERY argument is one phrasing of the question; several are ranked each and
fused, so pass two or three, including identifiers the record may hold (a
command, a file, an error message). Words match by stem ("migrating" finds
"migration"), identifiers by their parts (advisory_lock, PgBouncer), the last
word also as a prefix. A title, subject or decision counts most, then domain,
type and files, then the body; at equal relevance foundational and newer records
come first. Superseded versions only with --all-versions; retracted records never.
Global's knowledge articles are found with the records, by their title,
description, topic, tags and body (--kind article for them alone); a hit reads
knowledge/<topic>/<slug>.md:from-to  article: TITLE, updated DATE.

Records are found by their words and by their meaning: each phrasing and each
record is embedded by the search's model (planq's own, or the one search: in
.planq/config names; see 'planq model list'), so a question worded otherwise
than the record that answers it finds it too; words and meaning are ranked
apart and fused. With no model, or one that fails, search matches words only
and says so once.

Each result: path:from-to (the lines to read with 'planq get'), kind, writer,
date, [disputed] when the team disagrees, then the lines around the best match.
--explain adds, per result, its place in each ranking (by phrasing, lexical or
vector, its rank and score: BM25F or cosine) and what each added to the fused
score (reciprocal rank, standout), and says whether the vector channel ranked.

--scope says where: project (every branch of this project, the default),
agent (this agent's branch) or global. Across projects, on request: --scope
all (or --all-projects) searches this project (every branch, even if it
opted out: it is yours), every other project on this machine whose
.planq/config does not say private: true, and the user layer; --scope user
searches the user layer alone (both run outside a project too).
Each repository is searched read-only through its own read model, by the
model built into planq, and the answers are fused by rank (each repository's
best before any one's second), labelled [project] ([user layer] for the user
layer). A repository that does not open or search is skipped with a warning
naming it, and the rest answer; 'planq projects' lists them all.

--json prints {"query","phrasings","total","hits":[{"project"?,"path","id","kind","agent",
"time","status","title","score","from","to","snippet"}],"skipped"?:[{"project","problem"}]}:
"project" (the user layer's is "_user") and "skipped" across projects only; with --explain each
hit has "explain":{"score","places":[{"phrasing","channel","rank","score","rrf",
"standout"}]} and the whole "explain":{"vector":{"model"} or {"off"}}.`,
		Example: "  planq search \"how are migrations applied\" \"make db-migrate\"\n" +
			"  planq search RS256 --kind decision --json\n" +
			"  planq search flaky test --domain ci --since 30d\n" +
			"  planq search \"why is the monthly report empty\" --explain\n" +
			"  planq search \"release checklist\" --all-projects",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: expects the QUERY to look for", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.phrasings = args
			return runSearch(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.kinds, "kind", nil, "only records of `KIND`: "+changelog.Join(session.FilterKinds(), "|")+" (articles: global's knowledge base)")
	f.StringSliceVar(&opts.domains, "domain", nil, "only learnings of `DOMAIN`")
	f.StringSliceVar(&opts.types, "type", nil, "only records of `TYPE`")
	f.StringSliceVar(&opts.agents, "agent", nil, "only records written by agent `NAME`")
	f.StringVar(&opts.since, "since", "", "only records written since `WHEN`: "+sinceForms)
	f.StringVar(&opts.scope, "scope", string(session.ScopeProject), "where to search: `project` (this project's branches), agent (this agent's branch), global, user (the user layer), or all (every project that did not opt out, and the user layer)")
	f.BoolVar(&opts.allProjects, "all-projects", false, "search every project on this machine that did not opt out, and the user layer (--scope all)")
	f.BoolVar(&opts.allVersions, "all-versions", false, "also find versions a later one superseded")
	f.BoolVar(&opts.full, "full", false, "print whole records, not the lines around the match")
	f.IntVarP(&opts.limit, "limit", "n", session.DefaultSearchLimit, fmt.Sprintf("at most `N` results (at most %d)", session.MaxSearchLimit))
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	f.BoolVar(&opts.explain, "explain", false, "show how each result ranked: per phrasing and channel, its rank and score")
	opts.asOf.register(cmd)
	return cmd
}

func runSearch(ctx context.Context, env *Env, opts searchOptions) error {
	if err := checkSearchFlags(opts); err != nil {
		return err
	}
	if opts.allProjects {
		opts.scope = string(session.ScopeAll)
	}
	return searchProject(ctx, env, opts, func(found session.Found) {
		if found.Across != nil {
			printProjectHits(env, *found.Across, opts.phrasings, opts.scope == string(session.ScopeAll))
		} else {
			printHits(env, found, opts.phrasings)
		}
	})
}

// searchProject runs one search and prints what it found: JSON, or the
// hits through print (plain search and kb search word their next steps
// apart).
func searchProject(ctx context.Context, env *Env, opts searchOptions, print func(session.Found)) error {
	found, err := env.service().Search(ctx, opts.input())
	opts.asOf.report(env, found.AsOf)
	all := found.Across
	if all != nil && all.NoUserLayer != "" {
		env.Log.Info("there is no user layer yet: nothing to search", "path", all.NoUserLayer)
	}
	if err != nil {
		return err
	}
	data, unnoted, problems := any(found.Results), found.Unnoted, found.Problems
	if all != nil {
		for _, s := range all.Skipped {
			env.Log.Warn("skipped a state repository that did not read", "project", s.Project, "problem", s.Problem)
		}
		data, unnoted, problems = all, all.Unnoted, all.Problems
	}
	if found.VectorWarning != nil {
		env.Log.Warn(found.VectorWarning.Error())
	}
	noteUses(env, unnoted)
	if opts.json {
		if err := env.writeJSON(data); err != nil {
			return err
		}
	} else {
		print(found)
	}
	return reportProblems(problems)
}

// input is the search the flags ask for.
func (opts searchOptions) input() session.SearchInput {
	return session.SearchInput{Phrasings: opts.phrasings, Kinds: splitList(opts.kinds), Types: splitList(opts.types),
		Domains: splitList(opts.domains), WrittenBy: splitList(opts.agents), AllVersions: opts.allVersions,
		Limit: opts.limit, Explain: opts.explain, Scope: session.Scope(opts.scope), Since: opts.since,
		AsOf: opts.asOf.spec, Full: opts.full && !opts.json}
}

// printHits prints each hit (its whole record with --full), then the
// commands that dig deeper.
func printHits(env *Env, found session.Found, phrasings []string) {
	for i, h := range found.Hits {
		printHit(env, i, h.Header(), h, found.Texts, found.Phrasings)
	}
	if found.Explain != nil {
		if len(found.Hits) > 0 {
			env.printf("\n")
		}
		env.printf("%s\n", explainVector(found.Explain.Vector))
	}
	if len(found.Hits) == 0 {
		env.Log.Info("no record matches", "query", strings.Join(phrasings, " | "))
		env.printf("next: planq search \"<other words>\" \"<an identifier the record would hold>\"\n")
		return
	}
	first := found.Hits[0]
	env.printf("\nnext: planq get %s:%d-%d\n", first.Path, first.From, first.To)
	if found.Total > len(found.Hits) {
		env.printf("next: planq search %s --limit %d   (%d of %d matches shown)\n", quoteArgs(phrasings), min(found.Total, session.MaxSearchLimit), len(found.Hits), found.Total)
	}
}

// printHit prints the i-th hit of a search under header: a blank line
// before all but the first, its snippet or, when the search read them
// (--full), its whole record in texts, and how it came by its place when
// it was asked (--explain).
func printHit(env *Env, i int, header string, h session.Hit, texts, phrasings []string) {
	if i > 0 {
		env.printf("\n")
	}
	text := h.Snippet
	if texts != nil {
		text = texts[i]
	}
	env.printf("%s\n%s\n", header, text)
	if h.Explain != nil {
		env.printf("%s", explainHit(*h.Explain, phrasings))
	}
}

// explainHit says how a hit came by its place: its score, then its place
// in each ranking that held it and what that place added.
func explainHit(e session.HitExplain, phrasings []string) string {
	var b strings.Builder
	fused := false
	for _, p := range e.Places {
		fused = fused || p.RRF > 0
	}
	if fused {
		fmt.Fprintf(&b, "  explain: score %.4f, fused from:\n", e.Score)
	} else {
		fmt.Fprintf(&b, "  explain: score %.4f, from one ranking:\n", e.Score)
	}
	for _, p := range e.Places {
		which := ""
		if len(phrasings) > 1 {
			which = fmt.Sprintf("phrasing %d ", p.Phrasing)
		}
		measure := "BM25F"
		if p.Channel == session.VectorChannel {
			measure = "cosine"
		}
		fmt.Fprintf(&b, "    %s%-7s #%-3d %s %.4f", which, p.Channel, p.Rank, measure, p.Score)
		if fused {
			fmt.Fprintf(&b, "  +%.4f rank  +%.4f standout", p.RRF, p.Standout)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// explainVector says whether the vector channel ranked, by which model,
// or why not.
func explainVector(v session.VectorStatus) string {
	if v.Off != "" {
		return "explain: vector channel off (" + v.Off + "): words alone ranked"
	}
	return "explain: vector channel on, model " + v.Model
}

// checkSearchFlags refuses flags that do not go together (--all-projects
// with one project's scope, --scope user with --agent, --as-of or a kind
// it never holds) and a limit outside 1 to 50, rather than quietly
// searching for something else (the service refuses a domain no record
// can have, and a kind there is none of).
func checkSearchFlags(opts searchOptions) error {
	if opts.allProjects && opts.scope != string(session.ScopeProject) && opts.scope != string(session.ScopeAll) {
		return usagef("--all-projects searches every branch of every project: leave --scope out (--scope %s reads one project)", opts.scope)
	}
	// The user layer is one person's: what an agent wrote is a project's,
	// so --agent would only ever answer "no record matches" (or, naming
	// the writer its records carry, filter nothing).
	if opts.scope == scopeUser && len(splitList(opts.agents)) > 0 {
		return planqerr.New(planqerr.Invalid, "--agent", "the user layer has no agents: every record in it is yours").
			WithHint("leave --agent out; an agent's records are a project's: planq search WORDS --agent NAME")
	}
	if opts.scope == scopeUser {
		for _, k := range splitList(opts.kinds) {
			kind := changelog.Kind(k)
			if slices.Contains(session.FilterKinds(), kind) && !slices.Contains(session.UserLayerKinds, kind) {
				return planqerr.New(planqerr.Invalid, "--kind", "%s: the user layer holds learnings, decisions and memories, never a %s", k, k).
					WithHint("leave --kind out, or name one it holds: planq search WORDS --scope user --kind learning")
			}
		}
	}
	if opts.scope == scopeUser && opts.asOf.spec != "" {
		return planqerr.New(planqerr.Invalid, "--as-of", "reads one project's past; --scope user searches the user layer as it is now").
			WithHint("leave --as-of out, or search this project's past: planq search WORDS --as-of 2026-01-02")
	}
	if opts.limit < 1 || opts.limit > session.MaxSearchLimit {
		return planqerr.New(planqerr.Invalid, "--limit", "%d is not a number of results from 1 to %d", opts.limit, session.MaxSearchLimit).
			WithHint("ask for 1 to %d, like -n 20 (%d when not given)", session.MaxSearchLimit, session.DefaultSearchLimit)
	}
	return nil
}

// quoteArgs renders args as a shell needs them typed.
func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// printProjectHits prints the hits of a search across projects, each
// headed by its project, then the commands that dig deeper, which search
// where this one did: every project, or the user layer.
func printProjectHits(env *Env, found session.FoundAll, phrasings []string, all bool) {
	where := "--scope user"
	if all {
		where = "--all-projects"
	}
	for i, h := range found.Hits {
		printHit(env, i, "["+h.Label()+"] "+h.Header(), h.Hit, found.Texts, found.Phrasings)
	}
	if len(found.Hits) == 0 {
		env.Log.Info("no record matches", "query", strings.Join(phrasings, " | "))
		env.printf("next: planq search \"<other words>\" \"<an identifier the record would hold>\" %s\n", where)
		return
	}
	first := found.Hits[0]
	if first.Project == found.Current {
		env.printf("\nnext: planq get %s:%d-%d\n", first.Path, first.From, first.To)
	} else {
		// get reads the current project: another's record is read whole here.
		env.printf("\nnext: planq search %s %s --full -n 1   (the first in full)\n", quoteArgs(phrasings), where)
	}
	if found.Total > len(found.Hits) {
		env.printf("next: planq search %s %s --limit %d   (%d of %d matches shown)\n", quoteArgs(phrasings), where, min(found.Total, session.MaxSearchLimit), len(found.Hits), found.Total)
	}
}
