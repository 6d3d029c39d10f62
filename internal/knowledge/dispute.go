package knowledge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/importing"
)

// Contradictions. New knowledge on an article's subject that says something
// different marks the article disputed, with a Conflict section that cites
// every side by its own words and ID; planq never picks a side itself, and
// never drops one. What "says something different" means is decided with
// the means planq has already, deterministically:
//
//   - two current sources of the article dispute each other by promote's
//     own rule, changelog.Disputes (one subject, two contents, neither a
//     report a program wrote), when they give different values for one
//     thing (differentValues), unless they are items of one list, read
//     from one heading of one file (listedTogether);
//   - a source promote marked disputed contradicts the current record of
//     its subject that it was promoted against, in the article or not,
//     when the two give different values for one thing;
//   - a decision that chooses differently from the article's decision (its
//     first): two decisions of one article are about its subject, and
//     changelog.Disputes is asked of them as such, when one takes what the
//     other set aside or they read alike but for what each chose
//     (choosesOtherwise).
//
// 'planq kb resolve' settles a conflict by keeping one side: the others
// leave the article's sources, and a Resolved note names the kept source,
// the ones set aside and the date. The note is where the outcome is kept:
// planq reads it back on every update, so a side set aside never comes
// back, and the article stays the same on every machine.

// maxContradictsNamed is how many of the sides a side contradicts its
// Conflict line names.
const maxContradictsNamed = 5

// disputeRuleMark names the rule that decides which sources dispute: the
// index carries it, and an update that finds another (an index written by
// an older planq) checks every article's status again. Change it with the
// rule.
const disputeRuleMark = "<!-- planq: dispute rule 2 (different values for one thing) -->"

// Headings of the sections of a dispute.
const (
	conflictHeading = "# Conflict"
	resolvedHeading = "# Resolved"
)

// contradictions finds which of recs (an article's current source records,
// oldest first) contradict which: for each record, the IDs of the earlier
// and later ones it contradicts, in recs' order. slug is the article's
// subject; byKey, when given, finds the record of a subject key anywhere
// on global, for sources promote marked disputed against a record the
// article does not cite.
func contradictions(slug string, recs []*changelog.Record, ofSubject func(string) []*changelog.Record) map[string][]string {
	against := contradicting{}
	against.withinKeys(recs)
	against.betweenDecisions(slug, recs)
	if ofSubject != nil {
		against.promoted(recs, ofSubject)
	}
	return against
}

// contradictions are which of live, d's current sources, contradict
// which (contradictions, below), the sides kb resolve set aside left out.
func (d *draft) contradictions(rs *records, live []*changelog.Record) map[string][]string {
	return contradictions(d.slug, live, d.ofSubject(rs))
}

// contradicting is, by record ID, the IDs it contradicts.
type contradicting map[string][]string

func (against contradicting) link(a, b *changelog.Record) {
	if a.ID == b.ID || slices.Contains(against[a.ID], b.ID) {
		return
	}
	against[a.ID] = append(against[a.ID], b.ID)
	against[b.ID] = append(against[b.ID], a.ID)
}

// withinKeys: only records of one subject key can dispute each other, so
// a large article costs what its records do, not their square.
func (against contradicting) withinKeys(recs []*changelog.Record) {
	byKey := map[string][]*changelog.Record{}
	var keys []string
	for _, r := range recs {
		k := changelog.SubjectKey(r)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], r)
	}
	// Each record's words once, not once per pair it is in.
	words := map[*changelog.Record][]string{}
	wordsOf := func(r *changelog.Record) []string {
		w, ok := words[r]
		if !ok {
			w = valueWords(lineOf(r))
			words[r] = w
		}
		return w
	}
	for _, k := range keys {
		same := byKey[k]
		for i, a := range same {
			for _, b := range same[i+1:] {
				if !changelog.Disputes(a, b) || listedTogether(a, b) {
					continue
				}
				if a.Kind == changelog.KindDecision && b.Kind == changelog.KindDecision || valuesDiffer(wordsOf(a), wordsOf(b)) {
					against.link(a, b)
				}
			}
		}
	}
}

// listedTogether reports whether a and b are items of one list: read
// from one heading of one file (their origins say so: importing, which
// writes them, reads them). Whoever wrote
// the list wrote its items as separate facts ("Tests: npm test", "Lint:
// npm run lint" under "## Commands"), so they never contradict each
// other, though they share the heading as their subject.
func listedTogether(a, b *changelog.Record) bool { return importing.SameList(a.Origin, b.Origin) }

// differentValues reports whether a and b, two records of one subject,
// give different values for one thing, rather than two facts about it.
// Two decisions on one subject are two choices of one thing. Two learnings
// are when their lines say the same words but where one puts a value the
// other puts another ("Tests: npm test", "Tests: bun test"; "Indent with
// two spaces", "Indent with tabs"): read in order, the words they share
// leave at least one gap both fill, differently, and neither has more than
// maxSlotWords words the other lacks. Two bullets of one section ("Never
// log secrets", "Fail closed") are two facts; so are a record and another
// that says more ("Use bun", "Use bun, npx for CDK"), and two that say one
// thing in other words ("re-snapshot after navigation: refs are
// invalidated", "re-snapshot after page navigation to get fresh refs").
func differentValues(a, b *changelog.Record) bool {
	if a.Kind == changelog.KindDecision && b.Kind == changelog.KindDecision {
		return true
	}
	return valuesDiffer(valueWords(lineOf(a)), valueWords(lineOf(b)))
}

// valuesDiffer is differentValues of two lines' valueWords.
func valuesDiffer(wa, wb []string) bool {
	if len(wa)-maxSlotWords > len(wb) || len(wb)-maxSlotWords > len(wa) {
		return false // cheap: one says more than a value's worth besides
	}
	// lcs[i][j]: the longest common subsequence of wa[i:] and wb[j:].
	lcs := make([][]int, len(wa)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(wb)+1)
	}
	for i := len(wa) - 1; i >= 0; i-- {
		for j := len(wb) - 1; j >= 0; j-- {
			if wa[i] == wb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	shared := lcs[0][0]
	if shared == 0 || len(wa)-shared > maxSlotWords || len(wb)-shared > maxSlotWords {
		return false
	}
	// Walk the alignment: a gap both sides fill is a value each gives.
	i, j, gapA, gapB, substituted := 0, 0, 0, 0, false
	for i < len(wa) || j < len(wb) {
		switch {
		case i < len(wa) && j < len(wb) && wa[i] == wb[j]:
			substituted = substituted || gapA > 0 && gapB > 0
			gapA, gapB = 0, 0
			i, j = i+1, j+1
		case j == len(wb) || i < len(wa) && lcs[i+1][j] >= lcs[i][j+1]:
			gapA++
			i++
		default:
			gapB++
			j++
		}
	}
	return substituted || gapA > 0 && gapB > 0
}

// choosesOtherwise reports whether two decisions of one article choose
// differently: one takes what the other weighed and set aside (its
// alternatives), or they read alike but for what each chose ("Use RS256
// for JWT signing", "Use HS256 for JWT signing"). Two decisions that
// joined one article by their meaning may decide two things ("Use RS256
// for JWT signing", "Rotate the signing key every 90 days") or one in
// other words (two ADRs of one number).
func choosesOtherwise(a, b *changelog.Record) bool {
	if names(a.Decision, b.Alternatives) || names(b.Decision, a.Alternatives) {
		return true
	}
	x, y := *a, *b
	x.Kind, y.Kind = changelog.KindLearning, changelog.KindLearning
	x.Body, y.Body = a.Decision, b.Decision
	return differentValues(&x, &y)
}

// names reports whether text names one of options, as a word or words of
// its own.
func names(text string, options []string) bool {
	words := " " + strings.Join(valueWords(text), " ") + " "
	for _, o := range options {
		if w := strings.Join(valueWords(o), " "); w != "" && strings.Contains(words, " "+w+" ") {
			return true
		}
	}
	return false
}

// maxSlotWords is the most words the value two records disagree on takes
// in each ("two spaces" against "tabs": two and one).
const maxSlotWords = 3

// filler reports whether w says nothing of a value. A switch, not a map:
// nothing built at every planq process's start.
func filler(w string) bool {
	switch w {
	case "a", "an", "the", "of", "to", "in", "on", "at", "for", "and", "or", "is", "are", "be", "with", "by", "it", "this", "that":
		return true
	}
	return false
}

// valueWords are line's words in order, lowercased, without the
// punctuation around them and without filler.
func valueWords(line string) []string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(line)) {
		w = strings.Trim(w, ".,;:!?()[]{}\"'`*_-—")
		if w != "" && !filler(w) {
			words = append(words, w)
		}
	}
	return words
}

// betweenDecisions links the first decision to each later one it disputes.
func (against contradicting) betweenDecisions(slug string, recs []*changelog.Record) {
	var first *changelog.Record
	for _, r := range recs {
		if r.Kind != changelog.KindDecision {
			continue
		}
		if first == nil {
			first = r
			continue
		}
		x, y := *first, *r
		x.Subject, y.Subject = slug, slug // one article, one subject
		if changelog.Disputes(&x, &y) && choosesOtherwise(first, r) {
			against.link(first, r)
		}
	}
}

// promoted links a record promote marked disputed to the record it disputes.
func (against contradicting) promoted(recs []*changelog.Record, ofSubject func(string) []*changelog.Record) {
	for _, r := range recs {
		if r.Status != changelog.StatusDisputed || len(against[r.ID]) > 0 {
			continue
		}
		for _, other := range ofSubject(changelog.SubjectKey(r)) {
			if changelog.Disputes(other, r) && !other.Timestamp.After(r.Timestamp) && differentValues(other, r) {
				against.link(other, r)
				break
			}
		}
	}
}

// conflictLines are the Conflict section's lines: every side, oldest first,
// in its own words with its ID and the IDs it contradicts; sides that are
// no source of the article (a record promote disputed it against) are
// among them, read from rs.
func conflictLines(slug string, recs []*changelog.Record, against map[string][]string, rs *records) []string {
	sides := map[string]*changelog.Record{}
	for _, r := range recs {
		if len(against[r.ID]) > 0 {
			sides[r.ID] = r
		}
		for _, id := range against[r.ID] {
			if o := rs.byID[id]; o != nil {
				sides[id] = o
			}
		}
	}
	list := make([]*changelog.Record, 0, len(sides))
	for _, r := range sides {
		list = append(list, r)
	}
	changelog.SortByTime(list)
	lines := []string{fmt.Sprintf("These sources say different things on one subject; planq keeps every side until `planq kb resolve %s --keep SOURCE` settles it.", slug), ""}
	for _, r := range list {
		others := slices.Clone(against[r.ID])
		slices.Sort(others)
		marks := r.ID
		if r.Status == changelog.StatusDisputed {
			marks += ", marked disputed"
		}
		if len(others) > maxContradictsNamed {
			// Every side has a line of its own: naming each other side on
			// each line would grow as their square.
			others = append(others[:maxContradictsNamed], fmt.Sprintf("and %d more", len(others)-maxContradictsNamed))
		}
		lines = append(lines, fmt.Sprintf("- %s (%s; contradicts %s)", lineOf(r), marks, strings.Join(others, ", ")))
	}
	return lines
}

// ofSubject finds global's current records of a subject key; the index is
// made on the first question, which most updates never ask.
func (rs *records) ofSubject(key string) []*changelog.Record {
	if rs.bySubject == nil {
		rs.bySubject = map[string][]*changelog.Record{}
		for _, r := range rs.current {
			k := changelog.SubjectKey(r)
			rs.bySubject[k] = append(rs.bySubject[k], r)
		}
	}
	return rs.bySubject[key]
}

// ofSubject finds global's current records of a subject key but those
// 'planq kb resolve' set aside from d: a settled side is no side again.
func (d *draft) ofSubject(rs *records) func(string) []*changelog.Record {
	return func(key string) []*changelog.Record {
		recs := rs.ofSubject(key)
		if len(d.aside) == 0 {
			return recs
		}
		return slices.DeleteFunc(slices.Clone(recs), func(r *changelog.Record) bool { return d.aside[r.ID] })
	}
}

// resolution is one settled conflict, as the Resolved note records it.
type resolution struct {
	date  time.Time
	kept  string
	aside []string
}

func (r resolution) line() string {
	return fmt.Sprintf("- %s: kept %s over %s.", r.date.UTC().Format(time.DateOnly), r.kept, strings.Join(r.aside, ", "))
}

var resolvedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^- (\d{4}-\d{2}-\d{2}): kept (\S+) over (\S+(?:, \S+)*)\.$`)
})

// resolutionsOf reads the Resolved note of an article's body: the
// conflicts settled, in the order they were.
func resolutionsOf(body string) []resolution {
	var out []resolution
	in := false
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(line) == resolvedHeading
			continue
		}
		if !in {
			continue
		}
		m := resolvedRE().FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		date, err := time.Parse(time.DateOnly, m[1])
		if err != nil || !changelog.ValidSource(m[2]) {
			continue
		}
		res := resolution{date: date, kept: m[2]}
		for _, s := range strings.Split(m[3], ", ") {
			if changelog.ValidSource(s) {
				res.aside = append(res.aside, s)
			}
		}
		if len(res.aside) > 0 {
			out = append(out, res)
		}
	}
	return out
}

// contradictionNotes say, for each of fresh (new sources of an article a
// person edited), which of the article's current sources it contradicts,
// in those sources' words: "" for one that contradicts none. The person's
// article is never rewritten: the note goes with the source's line under
// "New since your edit".
func contradictionNotes(h *held, fresh []*changelog.Record, rs *records) map[string]string {
	known := map[string]bool{}
	for _, r := range fresh {
		known[r.ID] = true
	}
	var recs []*changelog.Record
	for _, s := range h.Article.Sources {
		if r := rs.byID[s]; r != nil && rs.live[s] && !known[s] {
			recs = append(recs, r)
			known[s] = true
		}
	}
	recs = append(recs, fresh...)
	changelog.SortByTime(recs)
	against := contradictions(h.Article.Slug, recs, rs.ofSubject)
	notes := map[string]string{}
	for _, r := range fresh {
		var parts []string
		for _, id := range against[r.ID] {
			if o := rs.byID[id]; o != nil {
				parts = append(parts, fmt.Sprintf("%s, which says: %s", id, lineOf(o)))
			}
		}
		slices.Sort(parts)
		if len(parts) > 0 {
			notes[r.ID] = "contradicts " + strings.Join(parts, "; ")
		}
	}
	return notes
}
