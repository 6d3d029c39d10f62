package knowledge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/search"
)

// DefaultTopics are the knowledge base's topics when the project names
// none, in the order the index lists them.
var DefaultTopics = []string{"architecture", decisionsTopic, "conventions", "operations", "project", "preferences", "history"}

// decisionsTopic is the topic of the articles a decision leads.
const decisionsTopic = "decisions"

// topicOfType is the topic a learning of a type, or a decision, belongs to.
var topicOfType = map[changelog.Type]string{
	changelog.TypeDecision:   "decisions",
	changelog.TypeConvention: "conventions",
	changelog.TypePattern:    "architecture",
	changelog.TypeFailure:    "operations",
	changelog.TypeGuide:      "operations",
	changelog.TypeReference:  "project",
}

// records is what extraction reads from global: every learning and
// decision (each version, retractions included) by ID, the current ones,
// and what ended each record that is no longer current.
type records struct {
	byID  map[string]*changelog.Record
	live  map[string]bool
	ended map[string]*changelog.Record
	// current are the current ones, oldest first.
	current []*changelog.Record
	// bySubject are the current ones by subject key, made when a dispute
	// asks (ofSubject).
	bySubject map[string][]*changelog.Record
	// statusesFollowRule: the index was written under today's dispute
	// rule (disputeRuleMark), so an article whose sources did not change
	// has the status that rule gives it, and stale need not ask again.
	statusesFollowRule bool
}

func newRecords(all, current []*changelog.Record) *records {
	rs := &records{byID: map[string]*changelog.Record{}, live: map[string]bool{}, ended: map[string]*changelog.Record{}}
	for _, r := range all {
		rs.byID[r.ID] = r
		if r.Supersedes == "" {
			continue
		}
		if was := rs.ended[r.Supersedes]; was == nil || r.Timestamp.After(was.Timestamp) {
			rs.ended[r.Supersedes] = r
		}
	}
	rs.current = slices.Clone(current)
	changelog.SortByTime(rs.current)
	for _, r := range rs.current {
		rs.live[r.ID] = true
	}
	return rs
}

// endedHow says what ended record id: superseded by another, retracted,
// or archived; "" when it is current or planq does not know it.
func (rs *records) endedHow(id string) string {
	if rs.live[id] {
		return ""
	}
	e := rs.ended[id]
	switch {
	case e == nil:
		return ""
	case e.Tombstone && e.Archived:
		return "archived"
	case e.Tombstone:
		return "retracted"
	}
	return "superseded by " + e.ID
}

// group is a candidate article: the current records that share a slug.
type group struct {
	slug string
	recs []*changelog.Record
}

// MaxDomainSources bounds the learnings an article gathers only because
// they share a domain (they name no subject, cite no subject's files and
// mean no subject): the first this many, oldest first, so that an article
// stays an article a reader reads, and a domain of thousands of records
// does not make one of thousands of lines. The rest stay records, found by
// search; a subject given to them ('planq edit ID --subject') files them.
const MaxDomainSources = 100

// Every current decision is in the knowledge base: one that names no
// subject, and means none, gets an article of its own (its first words
// its slug), the first MaxOwnDecisions of them, oldest first; the later
// ones share articles of MaxGroupedDecisions each ("decisions",
// "decisions-2", ...; by domain, for a decision that has one), so that
// thousands of decisions make tens of articles, each listed by the index.
// A decision an article cites stays with it.
const (
	MaxOwnDecisions     = 20
	MaxGroupedDecisions = 100
)

// groupRecords gathers the current records into candidate articles: a
// record an article cites already stays with it; else a record with a
// subject goes to the subject's article; a learning without one to the
// article of the one subject whose records cite the same files, if there is
// exactly one, else to that of the subject of its domain whose record
// means what it means (meanings, by search.AlikeCosine), else to its
// domain's; a decision without one to the subject it means, else to none:
// an article of one decision would say what the decision says, and a
// project of thousands of them would get as many articles, each read at
// every update.
func groupRecords(rs *records, citedBy map[string]string, meanings meaningsFunc) []*group {
	subjectsOfFile := subjectsByFile(rs.current)
	bySlug := map[string]*group{}
	var order []string
	subjectless := map[string]int{} // a group's records that name no subject
	meant := subjectsMeant(rs, citedBy, subjectsOfFile, meanings)
	loose := looseDecisions{}
	for _, r := range rs.current {
		slug, ok := groupOf(r, citedBy, meant, subjectsOfFile, subjectless)
		if !ok && r.Kind == changelog.KindDecision {
			slug, ok = loose.slugOf(r), true
		}
		if !ok {
			continue
		}
		if r.Subject == "" {
			subjectless[slug]++
		}
		g := bySlug[slug]
		if g == nil {
			g = &group{slug: slug}
			bySlug[slug] = g
			order = append(order, slug)
		}
		g.recs = append(g.recs, r)
	}
	slices.Sort(order)
	out := make([]*group, len(order))
	for i, s := range order {
		out[i] = bySlug[s]
	}
	return out
}

func subjectsByFile(recs []*changelog.Record) map[string]map[string]bool {
	subjectsOfFile := map[string]map[string]bool{}
	for _, r := range recs {
		if r.Subject == "" {
			continue
		}
		for _, f := range filesOf(r) {
			if subjectsOfFile[f] == nil {
				subjectsOfFile[f] = map[string]bool{}
			}
			subjectsOfFile[f][changelog.Slugify(r.Subject)] = true
		}
	}
	return subjectsOfFile
}

// looseDecisions counts, by domain, the decisions that name no subject,
// mean none and no article cites yet, as groupRecords files them.
type looseDecisions map[string]int

// slugOf is the article of the loose decision r: its own while its domain
// has had fewer than MaxOwnDecisions, else its domain's shared one.
func (n looseDecisions) slugOf(r *changelog.Record) string {
	i := n[r.Domain]
	n[r.Domain]++
	if i < MaxOwnDecisions {
		return changelog.Slugify(firstWords(r.Decision, 6))
	}
	slug := changelog.Slugify(strings.TrimSpace(r.Domain + " decisions"))
	if k := (i-MaxOwnDecisions)/MaxGroupedDecisions + 1; k > 1 {
		slug += fmt.Sprintf("-%d", k)
	}
	return slug
}

// groupOf is the slug of the group r joins (see groupRecords), false for none.
func groupOf(r *changelog.Record, citedBy, meant map[string]string, subjectsOfFile map[string]map[string]bool, subjectless map[string]int) (string, bool) {
	if slug, ok := citedBy[r.ID]; ok {
		return slug, true
	}
	if slug, ok := citedBy[r.Supersedes]; ok && r.Supersedes != "" && r.Subject == "" {
		// A new version that names no subject joins the article of the
		// one it replaces; one that names a subject goes to it.
		return slug, true
	}
	if slug, ok := meant[r.ID]; ok {
		return slug, true
	}
	if r.Kind == changelog.KindDecision && r.Subject == "" {
		return "", false
	}
	slug := slugOf(r, subjectsOfFile)
	return slug, r.Subject != "" || slug != changelog.Slugify(r.Domain) || subjectless[slug] < MaxDomainSources
}

// meaningsFunc embeds records, one vector each in their order; nil when
// there is no model to embed by.
type meaningsFunc func(recs []*changelog.Record) [][]float32

// meaningsOf embeds by the model load returns (nil: none) the text search
// embeds of each record (search.DocOf), so that extraction compares
// records as search and dedupe do; nil vectors when there is no model or
// it fails.
func meaningsOf(ctx context.Context, load func() embed.Model) meaningsFunc {
	return func(recs []*changelog.Record) [][]float32 {
		m := load()
		if m == nil {
			return nil
		}
		texts := make([]string, len(recs))
		for i, r := range recs {
			texts[i] = search.DocOf(r).Text()
		}
		vecs, err := m.Embed(ctx, texts)
		if err != nil || len(vecs) != len(recs) {
			return nil
		}
		return vecs
	}
}

// subjectsMeant files each learning that names no subject, cites no file
// of exactly one subject and no article cites yet with the subject of its
// domain whose record means most nearly what it means, and each decision
// that names none with the subject of any domain, when that is
// search.AlikeCosine or more: by record ID, the subject's slug.
func subjectsMeant(rs *records, citedBy map[string]string, subjectsOfFile map[string]map[string]bool, meanings meaningsFunc) map[string]string {
	if meanings == nil {
		return nil
	}
	loose, domains := looseRecords(rs, citedBy, subjectsOfFile)
	if len(loose) == 0 {
		return nil
	}
	var subjected []*changelog.Record
	for _, r := range rs.current {
		if r.Subject != "" && (domains[r.Domain] || domains[""]) {
			subjected = append(subjected, r)
		}
	}
	if len(subjected) == 0 {
		return nil
	}
	vecs := meanings(append(slices.Clone(loose), subjected...))
	if vecs == nil {
		return nil
	}
	out := map[string]string{}
	joined := map[string]int{} // decisions filed with a subject by their meaning
	for i, r := range loose {
		best := nearestSubject(r, vecs[i], subjected, vecs[len(loose):])
		if best == "" || r.Kind == changelog.KindDecision && joined[best] >= MaxGroupedDecisions {
			continue // a subject's article stays readable: the rest are loose
		}
		if r.Kind == changelog.KindDecision {
			joined[best]++
		}
		out[r.ID] = best
	}
	return out
}

func looseRecords(rs *records, citedBy map[string]string, subjectsOfFile map[string]map[string]bool) ([]*changelog.Record, map[string]bool) {
	var loose []*changelog.Record
	domains := map[string]bool{}
	for _, r := range rs.current {
		if _, cited := citedBy[r.ID]; cited || r.Subject != "" {
			continue
		}
		if r.Kind == changelog.KindDecision || slugOf(r, subjectsOfFile) == changelog.Slugify(r.Domain) {
			loose = append(loose, r)
			domains[r.Domain] = true
		}
	}
	return loose, domains
}

func nearestSubject(r *changelog.Record, vec []float32, subjected []*changelog.Record, vecs [][]float32) string {
	best, bestCos := "", float32(search.AlikeCosine)
	for j, s := range subjected {
		if s.Domain != r.Domain && r.Kind != changelog.KindDecision {
			continue
		}
		slug := changelog.Slugify(s.Subject)
		if cos := search.Cosine(vec, vecs[j]); cos > bestCos || cos == bestCos && (best == "" || slug < best) {
			best, bestCos = slug, cos
		}
	}
	return best
}

func slugOf(r *changelog.Record, subjectsOfFile map[string]map[string]bool) string {
	if r.Subject != "" {
		return changelog.Slugify(r.Subject)
	}
	if r.Kind == changelog.KindDecision {
		return changelog.Slugify(firstWords(r.Decision, 6))
	}
	subjects := map[string]bool{}
	for _, f := range filesOf(r) {
		for s := range subjectsOfFile[f] {
			subjects[s] = true
		}
	}
	if len(subjects) == 1 {
		for s := range subjects {
			return s
		}
	}
	return changelog.Slugify(r.Domain)
}

// filesOf lists the code files r cites, sorted.
func filesOf(r *changelog.Record) []string {
	var files []string
	for _, a := range r.Anchors {
		files = append(files, a.Path)
	}
	if r.Evidence != nil {
		files = append(files, r.Evidence.Files...)
	}
	slices.Sort(files)
	return slices.Compact(files)
}

func firstWords(s string, n int) string {
	words := strings.Fields(s)
	if len(words) > n {
		words = words[:n]
	}
	return strings.Join(words, " ")
}

// firstSentence is the first sentence of a record's text, on one line: the
// words planq quotes from it.
func firstSentence(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, "\n\n"); i >= 0 {
		text = text[:i]
	}
	text = strings.Join(strings.Fields(unmarked(text)), " ")
	return changelog.Shorten(changelog.FirstSentence(text), 300)
}

// unmarked is text without the Markdown that opens it: a heading's or a
// quote's mark, a bullet, and the markers of a leading bold or italic span,
// both of them (one alone would be left dangling), or neither.
func unmarked(text string) string {
	text = strings.TrimLeft(text, "#>- \t")
	if rest, ok := strings.CutPrefix(text, "* "); ok {
		text = strings.TrimLeft(rest, " \t")
	}
	for _, m := range []string{"**", "__", "*"} {
		if rest, ok := strings.CutPrefix(text, m); ok {
			if i := strings.Index(rest, m); i > 0 {
				return rest[:i] + rest[i+len(m):]
			}
			return text
		}
	}
	return text
}

// lineOf is an article's line for r, what it teaches: the first sentence
// of its text, or, when its first line only names it (a mulch pattern's
// name, a slug or its subject in words), that name and what the body says
// after it.
func lineOf(r *changelog.Record) string {
	text := textOf(r)
	switch {
	case text != r.Body || r.Type == changelog.TypeDecision:
		// A decision's title is what was decided; its rationale has
		// lines of its own.
		if changelog.OnlyNames(firstLine(text)) {
			text = changelog.Teaching(text, 300)
		}
	case changelog.TitleOnlyNames(r):
		text = changelog.TeachingOf(r, 300)
	}
	return firstSentence(text)
}

// mulchRationale is why a decision imported from mulch was made, a
// learning whose body is its title, then its rationale: "" for any other
// record, and when its line (lineOf) says it already.
func mulchRationale(r *changelog.Record) string {
	if r.Kind != changelog.KindLearning || r.Type != changelog.TypeDecision || changelog.OnlyNames(firstLine(r.Body)) {
		return ""
	}
	_, why, _ := strings.Cut(strings.TrimSpace(r.Body), "\n\n")
	return why
}

func firstLine(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return line
}

// textOf is what a record says: a decision's decision, a learning's body.
func textOf(r *changelog.Record) string {
	if r.Kind == changelog.KindDecision && strings.TrimSpace(r.Decision) != "" {
		return r.Decision
	}
	return r.Body
}

// topicOf is decisions for records with a decision among them, else the
// topic most of recs belong to by their type, ties going to the earlier
// topic; a topic the project does not have is "project", or
// its first topic.
func topicOf(recs []*changelog.Record, topics []string) string {
	if slices.Contains(topics, decisionsTopic) && slices.ContainsFunc(recs, func(r *changelog.Record) bool { return r.Kind == changelog.KindDecision }) {
		return decisionsTopic // an article with a decision is led by it
	}
	count := map[string]int{}
	for _, r := range recs {
		t := topicOfType[r.Type]
		if r.Kind == changelog.KindDecision {
			t = decisionsTopic
		}
		if !slices.Contains(topics, t) {
			t = "project"
			if !slices.Contains(topics, t) {
				t = topics[0]
			}
		}
		count[t]++
	}
	best := topics[0]
	for _, t := range topics {
		if count[t] > count[best] {
			best = t
		}
	}
	return best
}

// draft is an article planq writes itself (curated_by auto), made from its
// sources alone.
type draft struct {
	slug, topic, title string
	created            time.Time
	// sources are the article's sources in the order it lists them.
	sources []string
	// other are the sources that are no record of global (commits,
	// issues), kept after the records.
	other []string
	// resolved are the conflicts 'planq kb resolve' settled, and aside
	// the sources it set aside: they never join the article again.
	resolved []resolution
	aside    map[string]bool
	// leftOut are the tags of its sources build left out, too long for an
	// article.
	leftOut []string
}

// sourceRecords are the records of d's sources that global holds, oldest
// first.
func (d *draft) sourceRecords(rs *records) []*changelog.Record {
	var out []*changelog.Record
	for _, id := range d.sources {
		if r := rs.byID[id]; r != nil {
			out = append(out, r)
		}
	}
	changelog.SortByTime(out)
	return out
}

// build makes the article: its sections, each line a source's words and
// the source's ID; the article is deprecated when none of its record
// sources is current.
func (d *draft) build(rs *records, related []link) (*changelog.Article, error) {
	recs := d.sourceRecords(rs)
	live, updated := d.liveSince(rs, recs)
	status, shown := changelog.StatusCurrent, live
	if len(live) == 0 && len(recs) > 0 {
		status, shown = changelog.StatusDeprecated, recs
	}
	against := d.contradictions(rs, live)
	if len(against) > 0 {
		status = changelog.StatusDisputed
	}
	var body strings.Builder
	lead := leadOf(shown)
	if title, ok := retitled(rs, lead, d.title); ok {
		d.title = title
	}
	description := d.title
	if lead != nil {
		description = lineOf(lead)
		// A decision's title is the decision: its description is why,
		// so that the index says more than the title twice.
		if why := whyOf(lead); why != "" && plainLine(description) == plainLine(d.title) {
			description = why
		}
	}
	// Each fact is stated once in the body: the lead in the summary, each
	// side of a conflict in it, the rest as key facts.
	facts := slices.DeleteFunc(slices.Clone(shown), func(r *changelog.Record) bool { return len(against[r.ID]) > 0 })
	if lead := leadOf(facts); lead != nil {
		heading := "Summary"
		if lead.Kind == changelog.KindDecision {
			heading = "Decision"
		}
		marks := lead.ID
		if how := rs.endedHow(lead.ID); how != "" {
			marks += ", " + how
		}
		fmt.Fprintf(&body, "# %s\n\n%s (%s)\n", heading, lineOf(lead), marks)
		facts = slices.DeleteFunc(facts, func(r *changelog.Record) bool { return r == lead })
	}
	if len(against) > 0 {
		body.WriteString("\n" + conflictHeading + "\n\n" + strings.Join(conflictLines(d.slug, live, against, rs), "\n") + "\n")
	}
	d.writeSections(&body, rs, shown, facts, related)
	return changelog.NewArticle(changelog.ArticleInput{
		Topic: d.topic, Slug: d.slug, Title: derivedLine(d.title, d.slug), Description: derivedLine(description, d.slug),
		Tags: d.tagsOf(shown), Sources: append(slices.Clone(d.sources), d.other...),
		Created: d.created, Updated: updated,
		Confidence: confidenceOf(live), Status: status, CuratedBy: changelog.CuratedAuto,
		Body: body.String(),
	})
}

// liveSince are recs' current records, and when the article last changed.
func (d *draft) liveSince(rs *records, recs []*changelog.Record) ([]*changelog.Record, time.Time) {
	var live []*changelog.Record
	updated := d.created
	for _, r := range recs {
		if rs.live[r.ID] {
			live = append(live, r)
		}
		if r.Timestamp.After(updated) {
			updated = r.Timestamp
		}
		if e := rs.ended[r.ID]; e != nil && !rs.live[r.ID] && e.Timestamp.After(updated) {
			updated = e.Timestamp
		}
	}
	for _, r := range d.resolved {
		if r.date.After(updated) {
			updated = r.date
		}
	}
	return live, updated
}

// writeSections writes the sections after the summary and the conflict:
// the context and rationale of shown, the facts not stated yet, and the
// resolutions and related articles.
func (d *draft) writeSections(body *strings.Builder, rs *records, shown, facts []*changelog.Record, related []link) {
	if ctx := contextLines(shown); len(ctx) > 0 {
		body.WriteString("\n# Context\n\n" + strings.Join(ctx, "\n") + "\n")
	}
	if len(facts) > 0 {
		body.WriteString("\n# Key facts\n\n")
	}
	for _, r := range facts {
		marks := r.ID
		if how := rs.endedHow(r.ID); how != "" {
			marks += ", " + how
		}
		fmt.Fprintf(body, "- %s (%s)\n", lineOf(r), marks)
	}
	if why := rationaleLines(shown); len(why) > 0 {
		body.WriteString("\n# Rationale\n\n" + strings.Join(why, "\n") + "\n")
	}
	if was := supersededLines(rs, shown); len(was) > 0 {
		body.WriteString("\n" + supersededHeading + "\n\n" + strings.Join(was, "\n") + "\n")
	}
	if len(d.resolved) > 0 {
		body.WriteString("\n" + resolvedHeading + "\n\n")
		for _, r := range d.resolved {
			body.WriteString(r.line() + "\n")
		}
	}
	if len(related) > 0 {
		body.WriteString("\n# Related\n\n")
		for _, l := range related {
			fmt.Fprintf(body, "- [%s](%s)\n", l.title, l.href)
		}
	}
}

// leadOf is the record an article is led by: its first decision, else its
// first foundational learning, else its first record.
func leadOf(recs []*changelog.Record) *changelog.Record {
	for _, r := range recs {
		if r.Kind == changelog.KindDecision {
			return r
		}
	}
	for _, r := range recs {
		if r.Classification == changelog.Foundational {
			return r
		}
	}
	if len(recs) > 0 {
		return recs[0]
	}
	return nil
}

// contextLines say where the records belong: their domains and the files
// they cite, and the alternatives a decision weighed, each with the
// sources that say so.
func contextLines(recs []*changelog.Record) []string {
	by := func(key func(*changelog.Record) []string) (keys []string, ids map[string][]string) {
		ids = map[string][]string{}
		for _, r := range recs {
			for _, k := range key(r) {
				if _, ok := ids[k]; !ok {
					keys = append(keys, k)
				}
				ids[k] = append(ids[k], r.ID)
			}
		}
		slices.Sort(keys)
		return keys, ids
	}
	var lines []string
	domains, ids := by(func(r *changelog.Record) []string {
		if r.Domain == "" {
			return nil
		}
		return []string{r.Domain}
	})
	for _, d := range domains {
		lines = append(lines, fmt.Sprintf("- Domain %s (%s)", d, strings.Join(ids[d], ", ")))
	}
	files, ids := by(filesOf)
	if len(files) > 12 {
		files = files[:12]
	}
	for _, f := range files {
		lines = append(lines, fmt.Sprintf("- File `%s` (%s)", f, strings.Join(ids[f], ", ")))
	}
	for _, r := range recs {
		if len(r.Alternatives) > 0 {
			lines = append(lines, fmt.Sprintf("- Alternatives weighed: %s (%s)", strings.Join(r.Alternatives, ", "), r.ID))
		}
	}
	return lines
}

// supersededHeading heads the versions an article's records replaced.
const supersededHeading = "# Superseded"

// maxSupersededChain bounds how far back supersededLines follows one
// record's versions, and maxSupersededLines the lines it writes in all:
// an article of a hundred sources, each revised often, stays an article.
const (
	maxSupersededChain = 20
	maxSupersededLines = 50
	// supersededMore ends a section cut short, counting what it leaves out.
	supersededMore = "- and %d earlier versions more: 'planq show ID --history' lists a source's"
)

// supersededLines are the earlier versions of shown's records, newest
// first, each with what replaced it and when: a decision replaced is still
// what the team once decided, so the article says so rather than dropping
// it. A version shown already (an ended source of a deprecated article) is
// not repeated.
func supersededLines(rs *records, shown []*changelog.Record) []string {
	in := make(map[string]bool, len(shown))
	for _, r := range shown {
		in[r.ID] = true
	}
	var lines []string
	more := 0
	for _, r := range shown {
		next := r
		for range maxSupersededChain {
			old := rs.byID[next.Supersedes]
			if old == nil || in[old.ID] {
				break
			}
			in[old.ID] = true
			if len(lines) < maxSupersededLines {
				lines = append(lines, fmt.Sprintf("- %s (%s; superseded by %s on %s)", lineOf(old), old.ID, next.ID, next.Timestamp.UTC().Format(time.DateOnly)))
			} else {
				more++
			}
			next = old
		}
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf(supersededMore, more))
	}
	return lines
}

// decisionTitle is the title of an article a decision names: the
// decision, on one line.
func decisionTitle(r *changelog.Record) string {
	return changelog.Shorten(strings.Join(strings.Fields(r.Decision), " "), 120)
}

// retitled is the title of an article titled after a version of a decision
// that lead, a later version, replaced: lead's own. The slug stays, as
// links name it.
func retitled(rs *records, lead *changelog.Record, title string) (string, bool) {
	if lead == nil || lead.Kind != changelog.KindDecision || title == decisionTitle(lead) {
		return "", false
	}
	next := lead
	for range maxSupersededChain {
		old := rs.byID[next.Supersedes]
		if old == nil {
			break
		}
		if old.Kind == changelog.KindDecision && decisionTitle(old) == title {
			return decisionTitle(lead), true
		}
		next = old
	}
	return "", false
}

// whyOf is the first sentence of why r was decided or learned: its
// rationale, a mulch decision's text after its name, or its resolution.
func whyOf(r *changelog.Record) string {
	for _, why := range []string{r.Rationale, mulchRationale(r), r.Resolution} {
		if strings.TrimSpace(why) != "" {
			return firstSentence(why)
		}
	}
	return ""
}

// rationaleLines are why: a decision's rationale, a failure's resolution.
func rationaleLines(recs []*changelog.Record) []string {
	var lines []string
	for _, r := range recs {
		switch {
		case strings.TrimSpace(r.Rationale) != "":
			lines = append(lines, fmt.Sprintf("- %s (%s)", firstSentence(r.Rationale), r.ID))
		case mulchRationale(r) != "":
			lines = append(lines, fmt.Sprintf("- %s (%s)", firstSentence(mulchRationale(r)), r.ID))
		case strings.TrimSpace(r.Resolution) != "":
			lines = append(lines, fmt.Sprintf("- Resolution: %s (%s)", firstSentence(r.Resolution), r.ID))
		}
	}
	return lines
}

// tagsOf are the article's tags: its sources' domains and tags, at most
// 20; those too long are left out, in d.leftOut.
func (d *draft) tagsOf(recs []*changelog.Record) []string {
	var tags []string
	d.leftOut = nil
	for _, r := range recs {
		if r.Domain != "" {
			tags = append(tags, r.Domain)
		}
		for _, t := range r.Tags { // a mulch outcome kept as a tag can be longer
			if utf8.RuneCountInString(t) > changelog.MaxTagLen {
				d.leftOut = append(d.leftOut, t)
			} else {
				tags = append(tags, t)
			}
		}
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	if len(tags) > 20 {
		tags = tags[:20]
	}
	return tags
}

// confidenceOf: high on three current sources or more; medium on two, or
// on one that is a decision or a foundational learning; low otherwise.
func confidenceOf(live []*changelog.Record) changelog.Confidence {
	switch {
	case len(live) >= 3:
		return changelog.ConfidenceHigh
	case len(live) == 2:
		return changelog.ConfidenceMedium
	case len(live) == 1 && (live[0].Kind == changelog.KindDecision || live[0].Classification == changelog.Foundational):
		return changelog.ConfidenceMedium
	}
	return changelog.ConfidenceLow
}

// link is a Related entry: another article, by a path relative to this one.
type link struct{ title, href string }
