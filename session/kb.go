package session

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// The knowledge base as the front ends present it.
type (
	// Article is an article as a reader reads it: its fields, its body,
	// each source with what it is on global now.
	Article = knowledge.Shown
	// ArticleEntry is an article as a listing shows it.
	ArticleEntry = knowledge.Entry
	// ArticleSource is a source an article cites, as global holds it now.
	ArticleSource = knowledge.Cited
	// DisputedArticle is a disputed article with both sides of its
	// conflict, each with the resolve that keeps it.
	DisputedArticle = knowledge.Disputed
	// ArticleDispute is a disputed article as the review page lists it
	// beside the disputed records.
	ArticleDispute = knowledge.Dispute
	// OpenedArticle is an article's file as a person opens it to edit.
	OpenedArticle = knowledge.Opened
	// StaleEdit refuses an edit made from a version global no longer
	// holds; it carries both changes merged.
	StaleEdit = knowledge.StaleError
	// ArticleWritten is what a write or an edit of an article did.
	ArticleWritten = knowledge.WriteResult
	// KnowledgeSummary is what the knowledge base update that followed
	// another change of global did, its failure included.
	KnowledgeSummary = knowledge.Summary
)

var (
	// KBIndexPath is the knowledge base's generated index on global.
	KBIndexPath = knowledge.IndexPath
	// BootstrapSources are the sources a bootstrap reads, in its order.
	BootstrapSources = knowledge.BootstrapSources
)

// KBWriteInput is a curating agent's article to commit as planq's.
type KBWriteInput struct {
	Text []byte
	// Slug names the article's file, knowledge/<topic>/<slug>.md.
	Slug string
	// Name is where the text came from (a file, stdin), for errors.
	Name string
	// Force writes a deleted article, over a person's lines or a file
	// planq cannot read, or without a commit or issue global's cites.
	Force bool
}

// KBResolveInput settles a disputed article by keeping one side.
type KBResolveInput struct {
	Slug string
	// Keep is the source kept: one its Conflict section cites.
	Keep string
}

// KBEditInput is a person's new text of an article, and the version of it
// they edited (KBOpen's).
type KBEditInput struct {
	Was  OpenedArticle
	Text []byte
	// Name is where the text came from, for errors.
	Name string
}

// KBCurateInput asks for the curating agent's work packet.
type KBCurateInput struct {
	// Limit bounds the candidates of the packet; 0 holds them all.
	Limit int
}

// KBBootstrapInput seeds the knowledge base from the project's past.
type KBBootstrapInput struct {
	// From are the sources to read (BootstrapSources); none means all.
	From   []string
	DryRun bool
	// Progress, when set, hears what the bootstrap does as it goes.
	Progress func(what string)
}

// kb is the project's store and the knowledge base's options.
func (s *Project) kb(ctx context.Context) (*agent.Store, knowledge.Options, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, knowledge.Options{}, err
	}
	return store, knowledge.Options{Topics: store.Project.Config.Knowledge.Topics}, nil
}

// KBListInput narrows a listing of the articles: to one topic ("" for
// every one).
type KBListInput struct {
	Topic string
}

// KBList lists the articles on global by topic (the project's first, in
// their order) then slug, and the files under knowledge/ it could not read.
// A topic that is no topic's name is refused, naming the project's.
func (s *Project) KBList(ctx context.Context, in KBListInput) ([]ArticleEntry, []knowledge.Problem, error) {
	store, opts, err := s.kb(ctx)
	if err != nil {
		return nil, nil, err
	}
	entries, problems, err := knowledge.List(ctx, store.Handle, opts)
	if err != nil || in.Topic == "" {
		return entries, problems, err
	}
	topics, err := opts.KnownTopics()
	if err != nil {
		return nil, nil, err
	}
	if !slices.Contains(topics, in.Topic) && !slices.ContainsFunc(entries, func(e ArticleEntry) bool { return e.Topic == in.Topic }) {
		return nil, nil, planqerr.New(planqerr.Invalid, "topic "+in.Topic, "is no topic of the knowledge base").
			WithHint("name one of: %s", strings.Join(topics, ", "))
	}
	return slices.DeleteFunc(entries, func(e ArticleEntry) bool { return e.Topic != in.Topic }), problems, nil
}

// KBShow reads the article slug on global with its sources.
func (s *Project) KBShow(ctx context.Context, slug string) (Article, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return Article{}, err
	}
	return knowledge.Show(ctx, h, slug)
}

// KBDisputed lists the disputed articles on global, both sides of each.
func (s *Project) KBDisputed(ctx context.Context) ([]DisputedArticle, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, err
	}
	return knowledge.ListDisputed(ctx, h)
}

// KBDisputes lists the disputed articles on global with their Conflict
// section's lines, from the read model's index of the articles.
func (s *Project) KBDisputes(ctx context.Context) ([]ArticleDispute, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, err
	}
	articles, _, err := h.Records.Articles()
	if err != nil {
		return nil, err
	}
	_, disputes := knowledge.Survey(articles)
	return disputes, nil
}

// KBUpdate brings the articles in step with global's learnings and
// decisions, in one commit (none when nothing changed).
func (s *Project) KBUpdate(ctx context.Context) (knowledge.Result, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return knowledge.Result{}, err
	}
	return knowledge.Update(ctx, store, opts)
}

// KBDelete deletes the article slug from global and remembers it, so no
// update makes it again.
func (s *Project) KBDelete(ctx context.Context, slug string) (knowledge.DeleteResult, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return knowledge.DeleteResult{}, err
	}
	return knowledge.Delete(ctx, store, slug, opts)
}

// KBWrite checks a curating agent's article and commits it to global as
// planq's, with the index regenerated.
func (s *Project) KBWrite(ctx context.Context, in KBWriteInput) (ArticleWritten, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return ArticleWritten{}, err
	}
	return knowledge.Write(ctx, store, in.Text, knowledge.WriteOptions{Options: opts, Slug: in.Slug, Name: in.Name, Force: in.Force})
}

// KBResolve settles the disputed article in.Slug by keeping in.Keep.
func (s *Project) KBResolve(ctx context.Context, in KBResolveInput) (knowledge.ResolveResult, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return knowledge.ResolveResult{}, err
	}
	return knowledge.Resolve(ctx, store, in.Slug, in.Keep, opts)
}

// KBOpen reads the article slug for a person to edit: the version base
// names (its blob's hex, 7 to 40 digits, as 'planq kb show --json' prints
// it: global's or any it had), or global's when base is "". KBEdit then
// commits a text edited from it only over that version, and otherwise
// hands back both changes merged (a *StaleEdit).
func (s *Project) KBOpen(ctx context.Context, slug, base string) (OpenedArticle, error) {
	if base != "" && (len(base) < 7 || len(base) > 40 || strings.Trim(strings.ToLower(base), "0123456789abcdef") != "") {
		return OpenedArticle{}, planqerr.New(planqerr.Invalid, "--base", "%q is no blob hash (7 to 40 hex digits)", base).
			WithHint("give the blob of the version your text was edited from: 'planq kb show %s --json' prints the article's", slug)
	}
	store, err := s.openStore(ctx)
	if err != nil {
		return OpenedArticle{}, err
	}
	if base == "" {
		return knowledge.Open(ctx, store.Repo, slug)
	}
	return knowledge.OpenAt(ctx, store.Repo, slug, strings.ToLower(base))
}

// KBEdit commits a person's new text of the article they opened to global
// as theirs (git's user.name and user.email), never over a change they did
// not see: that is refused with a *StaleEdit.
func (s *Project) KBEdit(ctx context.Context, in KBEditInput) (ArticleWritten, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return ArticleWritten{}, err
	}
	return knowledge.Edit(ctx, store, in.Was, in.Text, in.Name, opts)
}

// KBCurate builds the curating agent's work packet, writing nothing.
func (s *Project) KBCurate(ctx context.Context, in KBCurateInput) (knowledge.Packet, error) {
	if in.Limit < 0 {
		return knowledge.Packet{}, planqerr.New(planqerr.Invalid, "kb curate", "the limit is a number of candidates, 0 or more, not %d", in.Limit)
	}
	store, opts, err := s.kb(ctx)
	if err != nil {
		return knowledge.Packet{}, err
	}
	return knowledge.Curate(ctx, store, knowledge.CurateOptions{Options: opts, Limit: in.Limit})
}

// KBBootstrap seeds the knowledge base from the project's past and the
// coding agents' memories of it (Claude Code's and Codex's, found as they
// find them: $CLAUDE_CONFIG_DIR, $CODEX_HOME, else in the home directory),
// as records on global written as the agent mounted here (or global),
// then brings the articles in step.
func (s *Project) KBBootstrap(ctx context.Context, in KBBootstrapInput) (knowledge.BootstrapResult, error) {
	defer s.writingKnowledge()()
	store, opts, err := s.kb(ctx)
	if err != nil {
		return knowledge.BootstrapResult{}, err
	}
	p := store.Project
	code := p.Workspace
	if code == "" {
		code = p.Root
	}
	main := code
	if c, err := project.FindCheckout(code); err == nil {
		main = c.MainRoot
	}
	return knowledge.Bootstrap(ctx, store, knowledge.BootstrapOptions{
		Options: opts, From: in.From, DryRun: in.DryRun, Code: code, MainCode: main,
		ClaudeDir: codingAgentDir("CLAUDE_CONFIG_DIR", ".claude"), CodexDir: codingAgentDir("CODEX_HOME", ".codex"),
		Instructions: p.Config.InstructionFiles(), ADRDirs: p.Config.Knowledge.ADRDirs, Writer: s.Writer(ctx), Progress: in.Progress,
	})
}

// codingAgentDir is a coding agent's directory: the variable's value when
// set, else name in the home directory; "" when there is no home.
func codingAgentDir(variable, name string) string {
	if d := os.Getenv(variable); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, name)
}

// writingKnowledge marks what follows, until the function it returns runs,
// as the knowledge base's own writer at work (an update, a person's
// article, a bootstrap, which brings the articles in step itself once its
// records are written): the moves of global it makes call for no update of
// the writer's hook (see attach).
func (s *Project) writingKnowledge() func() {
	was := s.updating
	s.updating = true
	return func() { s.updating = was }
}
