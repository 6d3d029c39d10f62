package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/importing"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// The sources a bootstrap reads, in the order it reads them: the records
// global holds, then what other tools wrote (importing's).
const (
	// SourceRecords are the learnings and decisions global holds already.
	SourceRecords       = "records"
	SourceGit           = importing.SourceGit
	SourceADR           = importing.SourceADR
	SourceInstructions  = importing.SourceInstructions
	SourceAgentMemories = importing.SourceAgentMemories
	SourceTranscripts   = importing.SourceTranscripts
)

// Skip is a piece of a source a bootstrap could not take.
type Skip = importing.Skip

// BootstrapSources lists every source, in the order a bootstrap reads them.
var BootstrapSources = append([]string{SourceRecords}, importing.Sources...)

// BootstrapOptions are how Bootstrap runs.
type BootstrapOptions struct {
	Options
	// From are the sources to read (BootstrapSources); none means all.
	From []string
	// DryRun reads every source and writes nothing.
	DryRun bool
	// Code is the code checkout: its history, ADRs and instruction files
	// are read, and its path names the agents' memory of the project.
	Code string
	// MainCode is the repository's main checkout, whose path Claude Code
	// names its memory folder by ("" for Code).
	MainCode string
	// ClaudeDir is Claude Code's directory (~/.claude), CodexDir Codex's
	// (~/.codex); "" reads none.
	ClaudeDir, CodexDir string
	// Instructions are the patterns of the project's instruction files
	// (none: project.DefaultInstructionFiles).
	Instructions []string
	// ADRDirs are the directories of the project's ADRs (none: those
	// importing finds).
	ADRDirs []string
	// Writer is who the records are written as.
	Writer string
	// Progress, when set, is told what the bootstrap does as it goes.
	Progress func(what string)
}

func (o BootstrapOptions) from() (map[string]bool, error) {
	want := map[string]bool{}
	for _, s := range o.From {
		if !slices.Contains(BootstrapSources, s) {
			return nil, planqerr.New(planqerr.Invalid, fmt.Sprintf("source %q", s), "is not a source planq bootstraps from").
				WithHint("name some of: %s", strings.Join(BootstrapSources, ", "))
		}
		want[s] = true
	}
	if len(want) == 0 {
		for _, s := range BootstrapSources {
			want[s] = true
		}
	}
	return want, nil
}

func (o BootstrapOptions) progress(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Bootstrapped is a record a bootstrap made from a source, or would make.
type Bootstrapped struct {
	Source string         `json:"source"`
	Origin string         `json:"origin"`
	ID     string         `json:"id"`
	Kind   changelog.Kind `json:"kind"`
	Title  string         `json:"title"`
}

// SourceCount is what a bootstrap did with one source: how many files
// (or commits, or records) it read, and how many records it made, found
// present already, or could not take.
type SourceCount struct {
	Source  string `json:"source"`
	Read    int    `json:"read"`
	Created int    `json:"created"`
	Present int    `json:"present"`
	Skipped int    `json:"skipped"`
}

// BootstrapResult is what Bootstrap did, or in a dry run would do.
type BootstrapResult struct {
	DryRun  bool           `json:"dry_run"`
	Sources []SourceCount  `json:"sources"`
	Created []Bootstrapped `json:"created"`
	Skipped []Skip         `json:"skipped"`
	// Commit is the commit on global of the records, "" when none was new
	// (or in a dry run).
	Commit string `json:"commit"`
	// Articles is what the knowledge base's update did; in a dry run, the
	// articles the new records would make (created) or join (updated,
	// appended).
	Articles Result `json:"articles"`
}

// bootID is the ID of the record made from origin: the same on every run
// and machine, so that a bootstrap again finds it.
func bootID(origin string) string {
	sum := sha256.Sum256([]byte("bootstrap\x00" + origin))
	return changelog.IDPrefix + hex.EncodeToString(sum[:])[:10]
}

// Bootstrap seeds the knowledge base of a project that has a past: it
// reads the sources opts name (every one by default), makes a learning or
// a decision of each piece of knowledge it finds there, with an origin
// that names where it came from (git:<commit>, adr:<path>,
// claude-memory:<file>#<heading>@<hash>, ...), and commits those no
// branch holds yet (by origin, or by the same text) on global, in one
// commit through the writer of global; then Update makes the articles, in
// a second. A bootstrap again adds only what is new. What a source holds
// that cannot be taken (a binary file, broken frontmatter, a line of a
// transcript that is no JSON, a credential) is skipped and reported with
// its file and line, never written in part.
func Bootstrap(ctx context.Context, store *agent.Store, opts BootstrapOptions) (BootstrapResult, error) {
	res := BootstrapResult{DryRun: opts.DryRun, Sources: []SourceCount{}, Created: []Bootstrapped{}, Skipped: []Skip{}}
	want, err := opts.from()
	if err != nil {
		return res, err
	}
	if _, err := opts.topics(); err != nil {
		return res, err
	}
	if opts.Writer == "" {
		opts.Writer = project.GlobalBranch
	}
	if opts.MainCode == "" {
		opts.MainCode = opts.Code
	}
	h, err := heldRecords(store)
	if err != nil {
		return res, err
	}
	counts := map[string]*SourceCount{}
	var pieces []importing.Piece
	for _, src := range BootstrapSources {
		if !want[src] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		opts.progress("reading %s", src)
		f, err := readSource(ctx, src, opts, h)
		if err != nil {
			return res, err
		}
		counts[src] = &SourceCount{Source: src, Read: f.Read, Skipped: len(f.Skipped)}
		res.Skipped = append(res.Skipped, f.Skipped...)
		pieces = append(pieces, f.Pieces...)
	}
	opts.progress("checking %s", plural.Of(len(pieces), "record"))
	fresh := sortOut(store, pieces, h, opts.Writer, counts, &res)
	for _, src := range BootstrapSources {
		if c := counts[src]; c != nil {
			res.Sources = append(res.Sources, *c)
		}
	}
	if opts.DryRun {
		opts.progress("predicting the articles")
		res.Articles, err = predict(ctx, store, fresh, opts.Options)
		return res, err
	}
	if len(fresh) > 0 {
		opts.progress("writing %s on global", plural.Of(len(fresh), "record"))
		commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: opts.Writer, Records: fresh, Message: bootstrapMessage(res)})
		if err != nil {
			return res, err
		}
		res.Commit = commit.String()
	}
	opts.progress("updating the knowledge base")
	res.Articles, err = Update(ctx, store, opts.Options)
	return res, err
}

// readSource reads one source.
func readSource(ctx context.Context, src string, opts BootstrapOptions, h *heldSet) (importing.Found, error) {
	if src == SourceRecords {
		return importing.Found{Read: h.records}, nil
	}
	return importing.Read(ctx, src, importing.Where{Code: opts.Code, MainCode: opts.MainCode, ClaudeDir: opts.ClaudeDir, CodexDir: opts.CodexDir,
		Instructions: opts.Instructions, ADRDirs: opts.ADRDirs})
}

// heldSet is what the branches hold that a bootstrap must not make again:
// every learning's and decision's ID, origin and text.
type heldSet struct {
	ids, origins, texts map[string]bool
	records             int
}

func heldRecords(store *agent.Store) (*heldSet, error) {
	set, err := store.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, err
	}
	h := &heldSet{ids: map[string]bool{}, origins: map[string]bool{}, texts: map[string]bool{}}
	for _, r := range set.Records {
		h.ids[r.ID] = true
		if r.Origin != "" {
			h.origins[r.Origin] = true
		}
		h.texts[importing.NormalText(textOf(r))] = true
	}
	h.records = len(set.Current())
	return h, nil
}

// sortOut decides what becomes of each piece: present already (its ID,
// origin or text is held, or an earlier piece says the same), refused (the
// writer of global would refuse it), or fresh; it counts each by source
// and returns the fresh records, stamped, in the order read.
func sortOut(store *agent.Store, pieces []importing.Piece, h *heldSet, writer string, counts map[string]*SourceCount, res *BootstrapResult) []*changelog.Record {
	texts := map[string]bool{}
	ids := map[string]string{} // origin to ID, of the pieces taken or present
	now := time.Now().UTC().Truncate(time.Second)
	var fresh []*changelog.Record
	var taken []importing.Piece
	for _, p := range pieces {
		r := p.Record
		r.ID, r.Agent = bootID(r.Origin), writer
		if r.Timestamp.IsZero() {
			// A source that says no time: the bootstrap's, a millisecond
			// apart, so that its pieces keep the order they were read in.
			now = now.Add(time.Millisecond)
			r.Timestamp = now
		}
		text := importing.NormalText(textOf(r))
		if h.ids[r.ID] || h.origins[r.Origin] || h.texts[text] || texts[text] {
			counts[p.Source].Present++
			ids[r.Origin] = r.ID
			continue
		}
		if _, err := store.CheckForGlobal(r); err != nil {
			counts[p.Source].Skipped++
			res.Skipped = append(res.Skipped, Skip{Source: p.Source, File: p.File, Line: p.Line, Why: err.Error()})
			continue
		}
		texts[text] = true
		ids[r.Origin] = r.ID
		taken = append(taken, p)
	}
	for _, p := range taken {
		r := p.Record
		// A piece supersedes another only when that one is written or held.
		if p.Supersedes != "" {
			if id, ok := ids[p.Supersedes]; ok {
				r.Supersedes = id
			} else if id := bootID(p.Supersedes); h.ids[id] {
				r.Supersedes = id
			}
		}
		fresh = append(fresh, r)
		counts[p.Source].Created++
		res.Created = append(res.Created, Bootstrapped{Source: p.Source, Origin: r.Origin, ID: r.ID, Kind: r.Kind, Title: titleOf(r)})
	}
	breakRings(fresh)
	return fresh
}

// breakRings drops, from each ring of supersessions among fresh (two ADRs
// that each say they supersede the other), the link into the ring's newest
// record, as import does: no version of a ring would be current, and the
// commands that follow versions would refuse each. The link is kept as the
// tag supersedes-ring:<id>, so the source's word is not lost.
func breakRings(fresh []*changelog.Record) {
	links := make(map[string]string, len(fresh))
	byID := make(map[string]*changelog.Record, len(fresh))
	for _, r := range fresh {
		links[r.ID], byID[r.ID] = r.Supersedes, r
	}
	for _, ring := range changelog.RingsOfLinks(links) {
		newest := byID[ring[0]]
		for _, id := range ring[1:] {
			if r := byID[id]; r.Timestamp.After(newest.Timestamp) || r.Timestamp.Equal(newest.Timestamp) && r.ID > newest.ID {
				newest = r
			}
		}
		for _, id := range ring {
			if r := byID[id]; r.Supersedes == newest.ID {
				r.Tags = append(r.Tags, "supersedes-ring:"+newest.ID)
				r.Supersedes = ""
			}
		}
	}
}

// titleOf is a record's one line: its subject, then what it teaches (its
// article line), the subject once when that line starts with it.
func titleOf(r *changelog.Record) string {
	line := lineOf(r)
	if r.Subject == "" || strings.HasPrefix(strings.ToLower(line), strings.ToLower(r.Subject)) {
		return line
	}
	return r.Subject + ": " + line
}

func bootstrapMessage(res BootstrapResult) string {
	var parts []string
	for _, c := range res.Sources {
		if c.Created > 0 {
			parts = append(parts, fmt.Sprintf("%d from %s", c.Created, c.Source))
		}
	}
	n := 0
	for _, c := range res.Sources {
		n += c.Created
	}
	return fmt.Sprintf("kb bootstrap: %s (%s)\n", plural.Of(n, "record"), strings.Join(parts, ", "))
}

// predict is what Update would make of global's records and fresh: the
// articles that new subjects call for (created), those fresh records
// would join (updated, or appended when a person edited them), and which
// of them would be disputed. It writes nothing.
func predict(ctx context.Context, store *agent.Store, fresh []*changelog.Record, opts Options) (Result, error) {
	var res Result
	topics, err := opts.topics()
	if err != nil {
		return res, err
	}
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		return res, err
	}
	st, err := readState(ctx, store.Repo, tip, nil, false)
	if err != nil {
		return res, err
	}
	set, err := store.Records.Commit(tip, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return res, err
	}
	all := append(slices.Clone(set.Records), fresh...)
	rs := newRecords(all, readmodel.Set{Records: all}.Current())
	isFresh := map[string]bool{}
	for _, r := range fresh {
		isFresh[r.ID] = true
	}
	for _, g := range groupRecords(rs, citedBy(st), meaningsOf(ctx, opts.meaningModel())) {
		h := st.Articles[g.slug]
		var d *draft
		switch {
		case h == nil && (st.Deleted[g.slug] || st.Broken[g.slug] != ""):
		case h == nil:
			d = newDraft(g, topics)
			res.Created = append(res.Created, changelog.ArticlePath(d.topic, g.slug))
		case !slices.ContainsFunc(g.recs, func(r *changelog.Record) bool { return isFresh[r.ID] && !h.Mentioned()[r.ID] }):
		case h.Personal():
			res.Appended = append(res.Appended, h.Path)
		default:
			d = redraft(h, g.recs, rs)
			res.Updated = append(res.Updated, h.Path)
		}
		// The dry run's disputes are the run's: the same rule, asked of
		// the same sources.
		if d != nil {
			live, _ := d.liveSince(rs, d.sourceRecords(rs))
			if len(d.contradictions(rs, live)) > 0 {
				res.Disputed = append(res.Disputed, changelog.ArticlePath(d.topic, g.slug))
			}
		}
	}
	res.fill()
	return res, nil
}
