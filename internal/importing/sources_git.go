package importing

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// From the code repository's history a bootstrap takes what a commit's
// message states outright, never a guess from the diff:
//
//   - a decision: a paragraph "Decision: X" (or "Decided: X"), its reason
//     the "Because:"/"Rationale:"/"Why:" paragraph after it or the
//     "because ..." in it, the alternatives an "Alternatives:" paragraph
//     lists; or a sentence "we chose X over Y because Z";
//   - a revert ("This reverts commit <hash>", a subject Revert "..."
//     with or without the pull request GitHub appends, or a conventional
//     commit of type revert): a learning that the change was reverted,
//     and why when the message says so.
//
// A conventional commit's scope ("feat(auth): ...") is the subject of what
// it states, and the domain of a revert, so that what the history says of
// one part of the code gathers in one article.

// gitSource reads the history of the checkout at code.
func gitSource(ctx context.Context, code string) (Found, error) {
	var f Found
	commits, err := staterepo.OpenCode(code).Log(ctx)
	if err != nil {
		return f, err
	}
	f.Read = len(commits)
	for i := len(commits) - 1; i >= 0; i-- { // oldest first
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return f, err
			}
		}
		f.Pieces = append(f.Pieces, commitPieces(commits[i])...)
	}
	return f, nil
}

var (
	// Compiled on first use: every planq process links the knowledge
	// sources, and only reading those sources (kb bootstrap) needs them.
	conventionalRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z]+(?:\(([^()]+)\))?!?:\s*(.*)$`) })
	// GitHub's squash merge appends the pull request: Revert "x (#1)" (#2).
	revertSubject = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:revert)\s+"(.+)"(?:\s+\(#\d+\))?\s*$`) })
	revertsLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^This reverts commit ([0-9a-f]{7,64})\b.*$`) })
	labelRE       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:[-*]\s+)?(decision|decided|because|rationale|why|alternatives|alternatives considered|considered)\s*:\s*(.*)$`)
	})
	choseRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:we\s+)?(?:chose|picked|went with|opted for|decided on)\s+(.+?)\s+over\s+(.+?)\s+because\s+(.+?)(?:\.\s|\.$|$)`)
	})
	becauseRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(.+?)[,;]?\s+because\s+(.+)$`) })
)

// mayState is a quick look at a message: only one that names a decision
// or a revert is parsed.
func mayState(msg string) bool {
	low := strings.ToLower(msg)
	for _, w := range []string{"decision", "decided", "chose", "went with", "opted for", "revert"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// commitPieces are the decisions and the revert one commit's message states.
func commitPieces(c staterepo.LoggedCommit) []Piece {
	if !mayState(c.Message) {
		return nil
	}
	// git keeps a message's bytes as written, in whatever encoding.
	subject, body, _ := strings.Cut(strings.ToValidUTF8(c.Message, "\uFFFD"), "\n")
	subject = strings.TrimSpace(subject)
	scope := ""
	if m := conventionalRE().FindStringSubmatch(subject); m != nil {
		scope = strings.TrimSpace(m[1])
	}
	short := shortOf(c.Hash)
	var recs []*changelog.Record
	if r := revertOf(subject, body, c.Hash); r != nil {
		recs = append(recs, r)
	}
	for _, d := range decisionsOf(body) {
		if d.rationale == "" {
			d.rationale = fmt.Sprintf("stated in commit %s, %q", short, changelog.Shorten(subject, 120))
		}
		r, err := changelog.NewDecision(changelog.DecisionInput{Decision: d.decision, Alternatives: d.alternatives, Rationale: d.rationale})
		if err != nil {
			continue
		}
		recs = append(recs, r)
	}
	var out []Piece
	for i, r := range recs {
		r.Origin = "git:" + c.Hash
		if i > 0 {
			r.Origin += fmt.Sprintf("#%d", i+1)
		}
		r.Timestamp = c.Time
		r.Tags = append(r.Tags, "from:git")
		if scope != "" {
			r.Subject = subjectOf(scope)
		}
		out = append(out, Piece{Source: SourceGit, File: "commit " + short, Record: r})
	}
	return out
}

// revertOf is the learning a revert states, nil when the commit reverts
// nothing: that the change was reverted, and why when the message says
// more than git's own line.
func revertOf(subject, body, hash string) *changelog.Record {
	what, scope := "", ""
	if m := revertSubject().FindStringSubmatch(subject); m != nil {
		what = m[1]
	} else if m := conventionalRE().FindStringSubmatch(subject); m != nil && strings.EqualFold(conventionalType(subject), "revert") {
		// revert(api): drop the cache, its reason in the body.
		what, scope = m[2], m[1]
	}
	reverted := ""
	var why []string
	for _, line := range strings.Split(body, "\n") {
		if m := revertsLine().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			reverted = m[1]
			continue
		}
		why = append(why, line)
	}
	if what == "" && reverted == "" {
		return nil
	}
	if what == "" {
		what = subject
		if m := conventionalRE().FindStringSubmatch(subject); m != nil && strings.HasPrefix(strings.ToLower(subject), "revert") {
			what = m[2]
		}
	}
	text := fmt.Sprintf("Reverted %q in commit %s", what, shortOf(hash))
	if reverted != "" {
		text += fmt.Sprintf(" (it undid commit %s)", shortOf(reverted))
	}
	reason := strings.Join(strings.Fields(strings.Join(why, " ")), " ")
	if reason != "" {
		text += ": " + reason
	} else {
		text += "."
	}
	if m := conventionalRE().FindStringSubmatch(what); scope == "" && m != nil {
		scope = m[1]
	}
	domain := "history"
	if d := changelog.Slugify(scope); scope != "" && project.ValidName(d) {
		domain = d
	}
	return &changelog.Record{Kind: changelog.KindLearning, Type: changelog.TypeDecision, Domain: domain,
		Classification: changelog.Tactical, Body: text, Evidence: &changelog.Evidence{Commit: hash}}
}

// conventionalType is a conventional commit's type: "revert" of
// "revert(api): ...".
func conventionalType(subject string) string {
	i := strings.IndexAny(subject, "(!:")
	if i < 0 {
		return ""
	}
	return subject[:i]
}

func shortOf(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// stated is a decision a message states.
type stated struct {
	decision, rationale string
	alternatives        []string
}

// decisionsOf reads the decisions a commit body states: labelled
// paragraphs ("Decision:", "Because:", "Alternatives:") and sentences
// "we chose X over Y because Z".
func decisionsOf(body string) []stated {
	var out []stated
	var last *stated
	for _, s := range labelledParagraphs(body) {
		text := strings.Join(strings.Fields(s.text), " ")
		switch s.label {
		case "decision", "decided":
			if text == "" {
				continue
			}
			d := stated{decision: text}
			if m := becauseRE().FindStringSubmatch(text); m != nil {
				d.decision, d.rationale = m[1], m[2]
			}
			out = append(out, d)
			last = &out[len(out)-1]
		case "because", "rationale", "why":
			if last != nil && last.rationale == "" {
				last.rationale = text
			}
		case "alternatives", "alternatives considered", "considered":
			if last != nil {
				last.alternatives = append(last.alternatives, listed(text)...)
			}
		default:
			for _, m := range choseRE().FindAllStringSubmatch(text, -1) {
				out = append(out, stated{decision: "Chose " + m[1] + " over " + m[2], alternatives: []string{m[2]}, rationale: m[3]})
			}
			last = nil
		}
	}
	for i := range out {
		out[i].decision = capitalize(strings.TrimSuffix(strings.TrimSpace(out[i].decision), "."))
		out[i].rationale = strings.TrimSpace(out[i].rationale)
	}
	return out
}

type labelled struct{ label, text string }

// labelledParagraphs: a labelled line ("Because: ...") starts a paragraph.
func labelledParagraphs(body string) []labelled {
	var segs []labelled
	var cur *labelled
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if m := labelRE().FindStringSubmatch(line); m != nil {
			segs = append(segs, labelled{label: strings.ToLower(m[1]), text: m[2]})
			cur = &segs[len(segs)-1]
			continue
		}
		if trimmed == "" {
			cur = nil
			continue
		}
		if cur == nil {
			segs = append(segs, labelled{})
			cur = &segs[len(segs)-1]
		}
		cur.text += " " + trimmed
	}
	return segs
}

func listed(text string) []string {
	var out []string
	for _, a := range strings.Split(text, ",") {
		if a = strings.TrimSpace(strings.TrimSuffix(a, ".")); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// capitalize makes a sentence's first letter upper case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
