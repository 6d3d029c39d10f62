package knowledge

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// The editorial work on the knowledge base is an agent's: Curate hands it
// a work packet (the articles Update would write or change, and those
// planq wrote alone, each with the records it gathers, the articles as
// they are, and the rules), and Write takes back one article at a time.

// derivation is what Update would write, computed and not written: the
// dry run the packet and Write read.
type derivation struct {
	st     *state
	rs     *records
	change map[string]agent.Rewrite
	topics []string
}

// derive runs Update without writing: what it would change, and the
// knowledge base and records it read.
func derive(ctx context.Context, store *agent.Store, opts Options) (Result, *derivation, error) {
	d := &derivation{}
	opts.derived = d
	res, err := Update(ctx, store, opts)
	if err != nil {
		return res, nil, err
	}
	return res, d, nil
}

// textOfSlug is the article slug as Update would leave it: the text it
// would write, else global's; nil when there is none.
func (d *derivation) textOfSlug(slug string) (string, []byte) {
	for p, rw := range d.change {
		if _, s, ok := changelog.SplitArticlePath(p); ok && s == slug && rw.Data != nil {
			return p, rw.Data
		}
	}
	if h := d.st.Articles[slug]; h != nil {
		if rw, ok := d.change[h.Path]; ok && rw.Data == nil {
			return "", nil // removed: it stays deleted
		}
		return h.Path, h.Data
	}
	return "", nil
}

// consumed are the sources an article for slug must cite: every source
// the article (as Update would leave it) lists, and every record of
// global its text names. An article planq would make anew consumes its
// candidate's records; one that is there consumes what it cites.
func (d *derivation) consumed(slug string) []string {
	p, data := d.textOfSlug(slug)
	if data == nil {
		return nil
	}
	a, err := changelog.ParseArticle(p, data)
	if err != nil {
		return nil
	}
	return citesOf(a, d.rs)
}

// citesOf lists a's sources, then the records of global its text names
// that sources leaves out, each once.
func citesOf(a *changelog.Article, rs *records) []string {
	out := slices.Clone(a.Sources)
	readmodel.IDsIn(a.Body, func(id string) {
		if rs.byID[id] != nil && !slices.Contains(out, id) {
			out = append(out, id)
		}
	})
	return out
}

// Candidate is an article for the curating agent to write: one Update
// would make or change, or one planq wrote alone.
type Candidate struct {
	Slug  string `json:"slug"`
	Topic string `json:"topic"`
	Path  string `json:"path"`
	// Reason is why it is here: new, changed, deprecated (Update would
	// make or change it so), new sources (Update would list them at the
	// end of an article a person or an agent shaped), new since an edit
	// (that list is there, to fold in), or uncurated (planq wrote it
	// alone).
	Reason string `json:"reason"`
	// Sources are what the article must cite: every one, or kb write
	// refuses it. New are those of them the article on global does not
	// cite yet.
	Sources []string `json:"sources"`
	New     []string `json:"new"`
	// EditedByPerson: a person wrote a version of the article; keep
	// every line of its body.
	EditedByPerson bool `json:"edited_by_person"`
	// Draft is the article as Update would write it; "" when it would
	// leave it as it is (the article is under the packet's articles).
	Draft string `json:"draft"`
}

// Frontmatter is an article's frontmatter as the packet shows it.
type Frontmatter struct {
	Type        changelog.Type       `json:"type"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Topic       string               `json:"topic"`
	Tags        []string             `json:"tags"`
	Created     time.Time            `json:"created"`
	Updated     time.Time            `json:"updated"`
	Timestamp   time.Time            `json:"timestamp"`
	Sources     []string             `json:"sources"`
	Confidence  changelog.Confidence `json:"confidence"`
	Status      changelog.Status     `json:"status"`
	CuratedBy   changelog.CuratedBy  `json:"curated_by"`
}

func frontmatterOf(a *changelog.Article) Frontmatter {
	return Frontmatter{Type: a.Type, Title: a.Title, Description: a.Description, Topic: a.Topic, Tags: orEmpty(a.Tags),
		Created: a.Created, Updated: a.Updated, Timestamp: a.Timestamp, Sources: orEmpty(a.Sources),
		Confidence: a.Confidence, Status: a.Status, CuratedBy: a.CuratedBy}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Held is an article on global a candidate touches.
type Held struct {
	Path           string      `json:"path"`
	Slug           string      `json:"slug"`
	Frontmatter    Frontmatter `json:"frontmatter"`
	Body           string      `json:"body"`
	EditedByPerson bool        `json:"edited_by_person"`

	file string // as global holds it, for the prompt
}

// Source is a record a candidate gathers, whole.
type Source struct {
	ID             string    `json:"id"`
	Kind           string    `json:"kind"`
	Type           string    `json:"type"`
	Domain         string    `json:"domain,omitempty"`
	Subject        string    `json:"subject,omitempty"`
	Classification string    `json:"classification,omitempty"`
	Time           time.Time `json:"time"`
	// State is current, or what ended it: superseded by <id>, retracted,
	// archived.
	State        string   `json:"state"`
	Text         string   `json:"text"`
	Rationale    string   `json:"rationale,omitempty"`
	Alternatives []string `json:"alternatives,omitempty"`
	Resolution   string   `json:"resolution,omitempty"`
	Files        []string `json:"files,omitempty"`
	Tags         []string `json:"tags,omitempty"`
}

// Listed is one line of the index: an article to link under Related.
type Listed struct {
	Path        string           `json:"path"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Status      changelog.Status `json:"status"`
}

// Section is a section of an article, and what goes in it.
type Section struct {
	Heading string `json:"heading"`
	Holds   string `json:"holds"`
}

// Format is what an article may hold.
type Format struct {
	Keys       []string  `json:"keys"`
	Topics     []string  `json:"topics"`
	Confidence []string  `json:"confidence"`
	Status     []string  `json:"status"`
	CuratedBy  []string  `json:"curated_by"`
	Sections   []Section `json:"sections"`
	Slug       string    `json:"slug"`
	Sources    string    `json:"sources"`
}

// Packet is the curating agent's work on the knowledge base.
type Packet struct {
	Project    string      `json:"project"`
	Rules      []string    `json:"rules"`
	Format     Format      `json:"format"`
	Candidates []Candidate `json:"candidates"`
	// Left counts the candidates this packet leaves for the next one.
	Left     int      `json:"left"`
	Articles []Held   `json:"articles"`
	Records  []Source `json:"records"`
	Index    []Listed `json:"index"`
	Answer   string   `json:"answer"`
}

// Rules are what the curating agent is asked to follow.
var Rules = []string{
	"Write one article per candidate, at the candidate's slug; its sources list every source the candidate lists (kb write refuses an article that leaves one out: what a record says would be lost).",
	"Say only what the sources say, in plain sentences a teammate reads; end each statement with the IDs it comes from, in parentheses, as the drafts do. Every record ID the text names is in sources.",
	"Never drop a person's text: an article a person edited (edited_by_person) keeps every line of its body, in order, and its title; add around them. Fold a 'New since your edit' list into the article, then drop the list.",
	"When sources disagree, never pick one silently: set status: disputed and add a # Conflict section that cites both sides.",
	"Keep the draft's created, updated and timestamp: planq sets updated and timestamp when it stores the article, and sets curated_by to mixed.",
	"An article whose sources all ended (superseded, retracted, archived) is status: deprecated; do not delete it.",
	"Link related articles under # Related by their paths relative to the article (../<topic>/<slug>.md), from the index.",
}

// Sections are an article's sections, in the order they come.
var Sections = []Section{
	{"# Summary", "what a reader must know, in a few sentences (# Decision instead when a decision leads the article)"},
	{"# Context", "where it applies: domains, files, the alternatives weighed"},
	{"# Key facts", "one line per fact, each with its sources"},
	{"# Rationale", "why: a decision's rationale, a failure's resolution"},
	{"# Superseded", "earlier versions the sources replaced, each with what replaced it and when"},
	{"# Related", "relative links to other articles"},
	{"# Conflict", "only when status is disputed: each side, with its sources"},
}

// answerText says how the curating agent answers.
const answerText = `Answer with one article at a time, each a Markdown file with its frontmatter: ` +
	"'planq kb write --slug <slug> FILE' (or '-' for stdin), or the MCP tool planq_kb {\"action\": \"write\", \"slug\": \"<slug>\", \"article\": \"<the whole file>\"}. " +
	`planq checks it and commits it to global, or says what to fix. Then ask for the next packet until no candidate is left.`

// articleKeys are the frontmatter keys of an article, in planq's order,
// read on first use rather than at every process's start.
var articleKeys = sync.OnceValue(func() []string {
	var keys []string
	t := reflect.TypeOf(changelog.Article{})
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
})

func formatOf(topics []string) Format {
	f := Format{Keys: articleKeys(), Topics: topics, Sections: Sections,
		Slug:    fmt.Sprintf("lower-case letters, digits and single hyphens inside, at most %d characters; the file is knowledge/<topic>/<slug>.md", changelog.MaxSlugLen),
		Sources: "record IDs of learnings and decisions on global (pq-...), code commits (commit:<7 to 64 hex digits>), issues (issue:<reference>, like issue:#29)"}
	for _, c := range changelog.Confidences {
		f.Confidence = append(f.Confidence, string(c))
	}
	for _, s := range changelog.KindArticle.Spec().Statuses {
		f.Status = append(f.Status, string(s))
	}
	for _, c := range changelog.Curators {
		f.CuratedBy = append(f.CuratedBy, string(c))
	}
	return f
}

// reasons, in the order the packet takes candidates.
var reasons = []string{"new", "changed", "deprecated", "new sources", "new since an edit", "uncurated"}

// CurateOptions are how Curate builds the packet.
type CurateOptions struct {
	Options
	// Limit bounds the candidates a packet holds; 0 holds them all.
	Limit int
}

// Curate builds the curating agent's work packet from global, writing
// nothing: the articles Update would make or change (with its drafts),
// then those holding a "New since your edit" list, then those planq wrote
// alone; the articles on global they touch; the records they gather,
// whole; every article's title (to link); the rules; and how to answer.
func Curate(ctx context.Context, store *agent.Store, opts CurateOptions) (Packet, error) {
	res, d, err := derive(ctx, store, opts.Options)
	if err != nil {
		return Packet{}, err
	}
	p := Packet{Project: store.Project.Config.Project, Rules: Rules, Format: formatOf(d.topics), Answer: answerText,
		Candidates: []Candidate{}, Articles: []Held{}, Records: []Source{}, Index: []Listed{}}
	all := d.candidates(res)
	if opts.Limit > 0 && len(all) > opts.Limit {
		p.Left = len(all) - opts.Limit
		all = all[:opts.Limit]
	}
	p.Candidates = append(p.Candidates, all...)
	seen := map[string]bool{}
	var recs []*changelog.Record
	for _, c := range p.Candidates {
		if h := d.st.Articles[c.Slug]; h != nil {
			p.Articles = append(p.Articles, Held{Path: h.Path, Slug: c.Slug, Frontmatter: frontmatterOf(h.Article), Body: h.Article.Body,
				EditedByPerson: h.Person, file: string(h.Data)})
		}
		for _, id := range c.Sources {
			if r := d.rs.byID[id]; r != nil && !seen[id] {
				seen[id] = true
				recs = append(recs, r)
			}
		}
	}
	changelog.SortByTime(recs)
	for _, r := range recs {
		p.Records = append(p.Records, sourceOf(r, d.rs))
	}
	entries := slices.SortedFunc(maps.Values(d.st.Articles), func(x, y *held) int { return strings.Compare(x.Path, y.Path) })
	for _, h := range entries {
		p.Index = append(p.Index, Listed{Path: h.Path, Title: h.Article.Title, Description: h.Article.Description, Status: h.Article.Status})
	}
	return p, nil
}

// candidates are the articles to curate, in reasons' order, then by slug.
func (d *derivation) candidates(res Result) []Candidate {
	why := map[string]string{}
	for _, l := range []struct {
		paths  []string
		reason string
	}{{res.Created, "new"}, {res.Updated, "changed"}, {res.Deprecated, "deprecated"}, {res.Appended, "new sources"}} {
		for _, path := range l.paths {
			if _, slug, ok := changelog.SplitArticlePath(path); ok {
				why[slug] = l.reason
			}
		}
	}
	for _, slug := range d.st.Slugs() {
		h := d.st.Articles[slug]
		switch {
		case why[slug] != "":
		case hasNewSince(h.Article.Body):
			why[slug] = "new since an edit"
		case h.Article.CuratedBy == changelog.CuratedAuto && !h.Person:
			why[slug] = "uncurated"
		}
	}
	var all []Candidate
	for slug, reason := range why {
		if c, ok := d.candidate(slug, reason); ok {
			all = append(all, c)
		}
	}
	slices.SortFunc(all, func(x, y Candidate) int {
		if r := slices.Index(reasons, x.Reason) - slices.Index(reasons, y.Reason); r != 0 {
			return r
		}
		return strings.Compare(x.Slug, y.Slug)
	})
	return all
}

// candidate is the candidate at slug: the article as Update would leave
// it, what it must cite, and what of that is new.
func (d *derivation) candidate(slug, reason string) (Candidate, bool) {
	p, data := d.textOfSlug(slug)
	if data == nil {
		return Candidate{}, false
	}
	a, err := changelog.ParseArticle(p, data)
	if err != nil {
		return Candidate{}, false
	}
	c := Candidate{Slug: slug, Topic: a.Topic, Path: p, Reason: reason, Sources: citesOf(a, d.rs), New: []string{}}
	known := map[string]bool{}
	if h := d.st.Articles[slug]; h != nil {
		known = h.Mentioned()
		c.EditedByPerson = h.Person
		if p != h.Path || string(data) != string(h.Data) {
			c.Draft = string(data)
		}
	} else {
		c.Draft = string(data)
	}
	for _, id := range c.Sources {
		if !known[id] {
			c.New = append(c.New, id)
		}
	}
	return c, true
}

func sourceOf(r *changelog.Record, rs *records) Source {
	s := Source{ID: r.ID, Kind: string(r.Kind), Type: string(r.Type), Domain: r.Domain, Subject: r.Subject,
		Classification: string(r.Classification), Time: r.Timestamp, State: "current", Text: strings.TrimSpace(r.Body),
		Rationale: r.Rationale, Alternatives: r.Alternatives, Resolution: r.Resolution, Files: filesOf(r), Tags: r.Tags}
	if r.Kind == changelog.KindDecision && strings.TrimSpace(r.Decision) != "" {
		s.Text = strings.TrimSpace(r.Decision)
	}
	if how := rs.endedHow(r.ID); how != "" {
		s.State = how
	} else if !rs.live[r.ID] {
		s.State = "ended"
	}
	return s
}

// hasNewSince reports whether an article's body holds the list Update
// appends to an article a person or an agent shaped.
func hasNewSince(body string) bool {
	for _, line := range strings.Split(body, "\n") {
		if strings.TrimSpace(line) == newSinceHeading {
			return true
		}
	}
	return false
}

// Markdown is the packet as an agent reads it in a prompt.
func (p Packet) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Curate the knowledge base of %s\n\n## Rules\n\n", p.Project)
	for _, r := range p.Rules {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	p.Format.write(&b)
	p.writeCandidates(&b)
	fmt.Fprintf(&b, "\n## Records (%d)\n\n", len(p.Records))
	for _, r := range p.Records {
		r.write(&b)
	}
	fmt.Fprintf(&b, "\n## Index (%d articles)\n\n", len(p.Index))
	if len(p.Index) == 0 {
		b.WriteString("None yet.\n")
	}
	for _, l := range p.Index {
		fmt.Fprintf(&b, "- %s: %s - %s (%s)\n", l.Path, l.Title, l.Description, l.Status)
	}
	fmt.Fprintf(&b, "\n## Answer\n\n%s\n", p.Answer)
	return b.String()
}

func (f Format) write(b *strings.Builder) {
	b.WriteString("\n## Format\n\n")
	fmt.Fprintf(b, "- Frontmatter keys, in order: %s. Keys of other tools are kept after them.\n", strings.Join(f.Keys, ", "))
	fmt.Fprintf(b, "- type: article. title and description: one line each; the description says what a reader finds here.\n")
	fmt.Fprintf(b, "- topic: one of %s.\n", strings.Join(f.Topics, ", "))
	fmt.Fprintf(b, "- confidence: %s. status: %s. curated_by: %s (planq sets it).\n",
		strings.Join(f.Confidence, ", "), strings.Join(f.Status, ", "), strings.Join(f.CuratedBy, ", "))
	fmt.Fprintf(b, "- Slug: %s.\n", f.Slug)
	fmt.Fprintf(b, "- Sources: %s.\n", f.Sources)
	b.WriteString("- Sections, in order, those that apply:\n")
	for _, s := range f.Sections {
		fmt.Fprintf(b, "  - %s: %s\n", s.Heading, s.Holds)
	}
}

func (p Packet) writeCandidates(b *strings.Builder) {
	fmt.Fprintf(b, "\n## Candidates (%d", len(p.Candidates))
	if p.Left > 0 {
		fmt.Fprintf(b, "; %d more in the next packet", p.Left)
	}
	b.WriteString(")\n")
	if len(p.Candidates) == 0 {
		b.WriteString("\nNone: the knowledge base is curated.\n")
	}
	held := map[string]Held{}
	for _, h := range p.Articles {
		held[h.Slug] = h
	}
	for _, c := range p.Candidates {
		fmt.Fprintf(b, "\n### %s (%s)\n\n", c.Slug, c.Reason)
		fmt.Fprintf(b, "- Path: %s\n- Cite every one of: %s\n", c.Path, orNone(c.Sources))
		if len(c.New) > 0 {
			fmt.Fprintf(b, "- New to it: %s\n", strings.Join(c.New, ", "))
		}
		if c.EditedByPerson {
			b.WriteString("- A person edited it: keep every line of its body and its title.\n")
		}
		if h, ok := held[c.Slug]; ok {
			b.WriteString("\nOn global now:\n\n" + fenced(h.file))
		}
		if c.Draft != "" {
			b.WriteString("\nDraft (what planq would write):\n\n" + fenced(c.Draft))
		}
	}
}

func (r Source) write(b *strings.Builder) {
	what := r.Kind
	if r.Type != "" && r.Type != r.Kind {
		what += ", " + r.Type
	}
	if r.Domain != "" {
		what += ", " + r.Domain
	}
	if r.Subject != "" {
		what += ", subject " + r.Subject
	}
	fmt.Fprintf(b, "- %s [%s] (%s, %s): %s\n", r.ID, what, r.Time.UTC().Format("2006-01-02"), r.State, oneLineText(r.Text))
	if r.Rationale != "" {
		fmt.Fprintf(b, "  - Rationale: %s\n", oneLineText(r.Rationale))
	}
	if len(r.Alternatives) > 0 {
		fmt.Fprintf(b, "  - Alternatives: %s\n", strings.Join(r.Alternatives, ", "))
	}
	if r.Resolution != "" {
		fmt.Fprintf(b, "  - Resolution: %s\n", oneLineText(r.Resolution))
	}
	if len(r.Files) > 0 {
		fmt.Fprintf(b, "  - Files: %s\n", strings.Join(r.Files, ", "))
	}
}

func fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fmt.Sprintf("%smarkdown\n%s\n%s\n", fence, strings.TrimRight(text, "\n"), fence)
}

func orNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
