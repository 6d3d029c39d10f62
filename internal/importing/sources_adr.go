package importing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/staterepo"
)

// usualADRDirs are the usual places of architecture decision records,
// relative to the code checkout: read whenever they exist.
var usualADRDirs = []string{"docs/adr", "doc/adr", "docs/decisions", "doc/decisions", "docs/architecture/decisions", "adr"}

// adrDirs are the directories of the checkout at code that hold its ADRs:
// named is the project's own list (.planq/config's knowledge.adr_dirs),
// which is all there is when given; otherwise usualADRDirs, and any directory
// the checkout's files put numbered Markdown files in whose path names
// ADRs or decisions (docs/internal/adr/0007-use-x.md,
// docs/architecture-decisions/0002-y.md, design/adr-12.md), in path
// order.
func adrDirs(ctx context.Context, code string, named []string) ([]string, error) {
	if len(named) > 0 {
		return named, nil
	}
	dirs := slices.Clone(usualADRDirs)
	files, err := staterepo.OpenCode(code).Files(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return dirs, nil // no git checkout: the usual places alone
	}
	var found []string
	for _, f := range files {
		dir, name := path.Split(f)
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" || slices.Contains(dirs, dir) || slices.Contains(found, dir) || exampleTree(f) != "" {
			continue
		}
		low := strings.ToLower(dir)
		named := strings.Contains(low, "adr") || strings.Contains(low, "decision") || strings.HasPrefix(strings.ToLower(name), "adr")
		if named && adrFileRE().MatchString(name) {
			found = append(found, dir)
		}
	}
	slices.Sort(found)
	return append(dirs, found...), nil
}

// An ADR, in Nygard's format (# N. Title, ## Status, ## Context,
// ## Decision, ## Consequences) or MADR's (frontmatter status and date, or
// "* Status:" lines; ## Context and Problem Statement, ## Considered
// Options, ## Decision Outcome with 'Chosen option: "X", because Y'),
// becomes a decision: its title the subject, the decision or the chosen
// option the decision, the "because" or the context the rationale, the
// other options the alternatives, the context and consequences in its
// text. An ADR another supersedes is superseded by it (the newer decision
// names the older as the version it supersedes); a rejected or proposed
// one decided nothing and is skipped, and says so. Its time is its date
// line's, else that of the commit that added its file.

// adrSource reads the ADRs of the checkout at code.
func adrSource(ctx context.Context, code string, named []string) (Found, error) {
	var f Found
	dirs, err := adrDirs(ctx, code, named)
	if err != nil {
		return f, err
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(filepath.Join(code, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		var added map[string]time.Time // read once a dir holds an ADR without a date
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return f, err
			}
			rel := dir + "/" + e.Name()
			if e.IsDir() || notADR(e.Name()) {
				continue
			}
			f.Read++
			if !strings.HasSuffix(strings.ToLower(e.Name()), ".md") {
				f.Skipped = append(f.Skipped, Skip{Source: SourceADR, File: rel, Why: "not a Markdown file"})
				continue
			}
			// Only a regular file inside the repository: an ADR linked out
			// of it is someone else's file, and a FIFO would block.
			data, err := untrusted.ReadFile(code, filepath.Join(code, filepath.FromSlash(rel)), maxMarkdownFile)
			if err != nil {
				f.Skipped = append(f.Skipped, Skip{Source: SourceADR, File: rel, Why: untrusted.Why(err)})
				continue
			}
			if why := readableText(data); why != "" {
				f.Skipped = append(f.Skipped, Skip{Source: SourceADR, File: rel, Why: why})
				continue
			}
			p, err := adrPiece(rel, string(data))
			if err != nil {
				f.Skipped = append(f.Skipped, lineSkip(SourceADR, rel, err))
				continue
			}
			if p.Record.Timestamp.IsZero() {
				// No date line: the ADR dates from the commit that added it.
				if added == nil {
					if added, err = staterepo.OpenCode(code).Added(ctx, dir); err != nil {
						added = map[string]time.Time{} // no history: the bootstrap's time
					}
				}
				p.Record.Timestamp = added[rel]
			}
			f.Pieces = append(f.Pieces, p)
		}
	}
	linkSupersessions(f.Pieces)
	return f, nil
}

// linkSupersessions makes the ADR another says it is superseded by
// supersede it: the older leaves the current view, and its article says
// by what.
func linkSupersessions(pieces []Piece) {
	byOrigin := map[string]int{}
	for i, p := range pieces {
		byOrigin[p.Record.Origin] = i
	}
	superseded := map[string]bool{}
	for _, p := range pieces {
		if i, ok := byOrigin[p.SupersededBy]; ok && pieces[i].Supersedes == "" && p.SupersededBy != p.Record.Origin {
			pieces[i].Supersedes = p.Record.Origin
			superseded[p.Record.Origin] = true
		}
	}
	linkRevisions(pieces, superseded)
}

// linkRevisions: two ADRs of one number and one title are one decision
// record written twice (a real repository holds ADR-0115 as two files, a
// day apart, saying one thing in other words); the later revises the
// earlier, which its article then names as superseded, rather than the
// two disputing each other. ADRs of one number and two titles are two
// decisions that took the same number, and stay two.
func linkRevisions(pieces []Piece, superseded map[string]bool) {
	type key struct{ number, title string }
	byKey := map[key][]int{}
	var keys []key
	for i, p := range pieces {
		n := adrNumberOf(p.File)
		if n == "" || p.Record.Subject == "" {
			continue
		}
		k := key{n, strings.ToLower(strings.Join(strings.Fields(p.Record.Subject), " "))}
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	for _, k := range keys {
		same := byKey[k]
		slices.SortStableFunc(same, func(a, b int) int {
			if c := pieces[a].Record.Timestamp.Compare(pieces[b].Record.Timestamp); c != 0 {
				return c
			}
			return strings.Compare(pieces[a].File, pieces[b].File)
		})
		for j := 1; j < len(same); j++ {
			older, newer := &pieces[same[j-1]], &pieces[same[j]]
			if newer.Supersedes == "" && !superseded[older.Record.Origin] {
				newer.Supersedes = older.Record.Origin
				superseded[older.Record.Origin] = true
			}
		}
	}
}

// adrNumberOf is the number an ADR's file name gives it ("0115" of
// ADR-0115-egress.md), without its leading zeros; "" when it has none.
func adrNumberOf(file string) string {
	m := adrNumberInName().FindString(path.Base(file))
	if m == "" {
		return ""
	}
	return cmp.Or(strings.TrimLeft(m, "0"), "0")
}

var adrNumberInName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{1,5}`) })

// notADR tells the files of an ADR directory that are no ADR: its index
// and its templates, hidden files.
func notADR(name string) bool {
	low := strings.ToLower(name)
	return strings.HasPrefix(low, ".") || low == "readme.md" || low == "index.md" || strings.Contains(low, "template")
}

var (
	// Compiled on first use: every planq process links the knowledge
	// sources, and only reading those sources (kb bootstrap) needs them.
	adrNumberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:adr)?[-\s]*\d+\s*[.:\-]?\s*`) })
	adrMetaRE   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:[-*]\s*)?\**(status|date)\**\s*:\**\s*(.+?)\s*$`)
	})
	// Chosen option: "X", because Y; the reasons may follow as a list
	// (a line that ends in "because").
	chosenRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)chosen option:?\s*"?([^",]+?)"?\s*(?:,?\s*\bbecause\b:?\s*(.*))?$`)
	})
	mdLinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\(([^)\s]+\.md)\)`) })
	// An ADR's file: a number, then its title ("0007-use-x.md", "adr-12.md").
	adrFileRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:adr[-_ ]?)?\d{1,5}([-_ .][^/]*)?\.(?i:md)$`) })
)

// errNotDecided is an ADR that decided nothing.
var errNotDecided = errors.New("not decided")

// adrPiece is the decision of the ADR at rel (slash-separated, from the
// checkout's root).
func adrPiece(rel, content string) (Piece, error) {
	fields, body, _, err := splitFrontmatter(content)
	if err != nil {
		return Piece{}, err
	}
	d := readADR(body, stringField(fields, "status"), dateField(fields["date"]))
	low := strings.ToLower(d.status)
	switch {
	case strings.Contains(low, "reject"):
		return Piece{}, fmt.Errorf("%w: its status is %q, a decision the team did not take", errNotDecided, changelog.Shorten(d.status, 60))
	case strings.HasPrefix(low, "proposed") || strings.HasPrefix(low, "draft"):
		return Piece{}, fmt.Errorf("%w: its status is %q, not decided yet", errNotDecided, changelog.Shorten(d.status, 60))
	}
	context := firstParagraph(firstOf(d.sections, "context and problem statement", "context", "problem statement"))
	decision, because, chosen := adrDecision(d.title, firstOf(d.sections, "decision outcome", "decision"))
	if because == "" && chosen != "" {
		// "see below": the chosen option's pros, under its own heading.
		because = prosOf(d.sections[strings.ToLower(chosen)])
	}
	if decision == "" {
		return Piece{}, errors.New("no title and no decision: not an ADR planq can read")
	}
	rationale := cmp.Or(because, context, "recorded in "+rel)
	r, err := changelog.NewDecision(changelog.DecisionInput{Decision: changelog.Shorten(decision, 2000), Rationale: changelog.Shorten(rationale, 2000),
		Alternatives: adrAlternatives(d.sections["considered options"], decision, chosen), Subject: subjectOf(d.title)})
	if err != nil {
		return Piece{}, err
	}
	if context != "" && context != rationale {
		r.Body += "\n\nContext: " + changelog.Shorten(context, 2000)
	}
	if c := firstParagraph(firstOf(d.sections, "consequences")); c != "" {
		r.Body += "\n\nConsequences: " + changelog.Shorten(c, 2000)
	}
	r.Body += "\n\nFrom " + rel + "."
	r.Origin, r.Timestamp = capOrigin("adr:"+rel), d.date
	r.Tags = []string{"from:adr"}
	p := Piece{Source: SourceADR, File: rel, Line: 1, Record: r}
	switch {
	case strings.Contains(low, "supersed"):
		r.Tags = append(r.Tags, "adr:superseded")
	case strings.Contains(low, "deprecat"):
		r.Tags = append(r.Tags, "adr:deprecated")
	}
	p.Supersedes, p.SupersededBy = adrLinks(rel, append([]string{d.status}, d.sections["status"]...))
	return p, nil
}

// adr is an ADR read; its sections by lower-cased heading.
type adr struct {
	title, status string
	date          time.Time
	sections      map[string][]string
}

// readADR: status and date are the frontmatter's, which win over the body's.
func readADR(body, status string, date time.Time) adr {
	d := adr{status: status, date: date, sections: map[string][]string{}}
	// open are the sections a line is in, outermost first: a line under
	// "### Redis" of "## Pros and Cons" is in both, and one under "###
	// Enforcement patterns" of "## Decision" is still the decision's.
	type open struct {
		name  string
		level int
	}
	var in []open
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := headingRE().FindStringSubmatch(line); m != nil {
			if len(m[1]) == 1 && d.title == "" {
				d.title = cmp.Or(strings.TrimSpace(adrNumberRE().ReplaceAllString(cleanHeading(m[2]), "")), cleanHeading(m[2]))
				continue
			}
			for len(in) > 0 && in[len(in)-1].level >= len(m[1]) {
				in = in[:len(in)-1]
			}
			for _, o := range in {
				d.sections[o.name] = append(d.sections[o.name], "") // a subheading ends a paragraph
			}
			in = append(in, open{strings.ToLower(cleanHeading(m[2])), len(m[1])})
			continue
		}
		if len(in) == 0 {
			d.readMeta(line)
			continue
		}
		for _, o := range in {
			d.sections[o.name] = append(d.sections[o.name], line)
		}
	}
	if d.status == "" {
		d.status = firstParagraph(d.sections["status"])
	}
	if d.date.IsZero() {
		for _, l := range d.sections["status"] {
			if m := adrMetaRE().FindStringSubmatch(l); m != nil && strings.EqualFold(m[1], "date") {
				d.date = dateField(m[2])
			}
		}
	}
	return d
}

func (d *adr) readMeta(line string) {
	m := adrMetaRE().FindStringSubmatch(line)
	if m == nil {
		return
	}
	switch strings.ToLower(m[1]) {
	case "status":
		if d.status == "" {
			d.status = strings.Trim(m[2], "* ")
		}
	case "date":
		if d.date.IsZero() {
			d.date = dateField(strings.Trim(m[2], "* "))
		}
	}
}

// adrDecision reads the decision outcome: the chosen option (chosen, ""
// when the outcome names none) with the ADR's title as the decision, and
// the reason after its "because", or the list that follows it when the
// line says none of its own or only MADR's placeholder ("comes out best
// (see below)").
func adrDecision(title string, outcome []string) (decision, because, chosen string) {
	for i, l := range outcome {
		m := chosenRE().FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		chosen = strings.TrimSpace(m[1])
		because = strings.TrimSuffix(strings.TrimSpace(m[2]), ".")
		if because == "" || saysSeeBelow(because) {
			because = cmp.Or(listAfter(outcome[i+1:]), because)
		}
		decision = chosen
		if title != "" && !strings.Contains(strings.ToLower(title), strings.ToLower(chosen)) {
			decision = title + ": " + chosen
		} else if title != "" {
			decision = title
		}
		break
	}
	decision = cmp.Or(decision, firstParagraph(outcome), title)
	if because == "" && decision != "" {
		if m := becauseRE().FindStringSubmatch(decision); m != nil && len(m[1]) > 10 {
			decision, because = m[1], m[2]
		}
	}
	if saysSeeBelow(because) {
		because = ""
	}
	return decision, because, chosen
}

// saysSeeBelow: MADR's template reason, which says nothing of its own.
func saysSeeBelow(because string) bool {
	low := strings.ToLower(because)
	return strings.Contains(low, "see below") || strings.Contains(low, "comes out best")
}

// prosOf are the "Good, because X" items of an option's pros and cons,
// joined by "; ".
func prosOf(lines []string) string {
	var pros []string
	for _, l := range lines {
		t := strings.TrimSpace(bulletRE().ReplaceAllString(strings.TrimSpace(l), ""))
		if len(t) > len("good, because ") && strings.EqualFold(t[:len("good, because ")], "good, because ") {
			pros = append(pros, strings.TrimSuffix(t[len("good, because "):], "."))
		}
	}
	return strings.Join(pros, "; ")
}

// listAfter is the list that opens lines (blank lines before it skipped),
// its items joined by "; ": the reasons a chosen option's line announces.
func listAfter(lines []string) string {
	var items []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "" && len(items) == 0:
			continue
		case bulletRE().MatchString(t):
			items = append(items, strings.TrimSuffix(strings.TrimSpace(bulletRE().ReplaceAllString(t, "")), "."))
			continue
		}
		break
	}
	return strings.Join(items, "; ")
}

// adrAlternatives are the considered options but the chosen one, each
// as listed ("Kafka - the log everyone knows").
func adrAlternatives(options []string, decision, chosen string) []string {
	var alternatives []string
	for _, l := range options {
		if !bulletRE().MatchString(l) {
			continue
		}
		opt := strings.Trim(strings.TrimSpace(bulletRE().ReplaceAllString(l, "")), `"`)
		if opt == "" || isOption(opt, chosen) || chosen == "" && strings.Contains(strings.ToLower(decision), strings.ToLower(opt)) {
			continue
		}
		alternatives = append(alternatives, changelog.Shorten(opt, 200))
	}
	return alternatives
}

// isOption reports whether the listed option opt is the option named
// chosen: the same, or chosen followed by its description ("RabbitMQ - a
// broker", "**RabbitMQ**: a broker").
func isOption(opt, chosen string) bool {
	if chosen == "" {
		return false
	}
	o, c := strings.ToLower(strings.Trim(opt, "*_` ")), strings.ToLower(chosen)
	rest, ok := strings.CutPrefix(o, c)
	return ok && (rest == "" || !unicode.IsLetter(rune(rest[0])) && !unicode.IsDigit(rune(rest[0])))
}

// adrLinks reads "Supersedes [ADR 1](0001-x.md)" in the newer ADR, or
// "Superseded by [ADR 3](0003-y.md)" in the older: the link names the other.
func adrLinks(rel string, lines []string) (supersedes, supersededBy string) {
	for _, l := range lines {
		m := mdLinkRE().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		other := capOrigin("adr:" + path.Join(path.Dir(rel), m[1]))
		switch ll := strings.ToLower(l); {
		case strings.Contains(ll, "superseded by"):
			supersededBy = other
		case strings.Contains(ll, "supersedes"):
			supersedes = other
		}
	}
	return supersedes, supersededBy
}

// firstOf is the first of the named sections that has lines.
func firstOf(sections map[string][]string, names ...string) []string {
	for _, n := range names {
		if len(sections[n]) > 0 {
			return sections[n]
		}
	}
	return nil
}

// firstParagraph is the first paragraph of lines on one line, list
// markers dropped.
func firstParagraph(lines []string) string {
	var words []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			if len(words) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(t, "<!--") {
			continue
		}
		words = append(words, strings.TrimSpace(bulletRE().ReplaceAllString(t, "")))
	}
	return strings.Join(strings.Fields(strings.Join(words, " ")), " ")
}

// dateField reads a date written YYYY-MM-DD (or as YAML's time), zero when
// it is none.
func dateField(v any) time.Time {
	switch d := v.(type) {
	case time.Time:
		return d.UTC()
	case string:
		d = strings.TrimSpace(d)
		if len(d) >= 10 {
			if t, err := time.Parse("2006-01-02", d[:10]); err == nil {
				return t.UTC()
			}
		}
	}
	return time.Time{}
}
