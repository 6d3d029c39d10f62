package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// CheckDomainRoom refuses a new learning in a domain that holds
// readmodel.DomainLimit current learnings already, as the agent sees it
// (global and its own branch): past that, agents lose the signal in the
// noise. The hint proposes sub-domains drawn from the domain's subjects.
//
// It counts files first, which costs two directory reads: only a domain
// with that many files is counted record by record.
func (a *Agent) CheckDomainRoom(domain string) error {
	files, err := a.domainFiles(domain)
	if err != nil || files < readmodel.DomainLimit {
		return err
	}
	var recs []*changelog.Record
	for _, branch := range []string{project.GlobalBranch, a.Branch} {
		set, err := a.store.Records.Branch(branch, changelog.KindLearning)
		if planqerr.Is(err, planqerr.NotFound) {
			continue
		}
		if err != nil {
			return err
		}
		recs = append(recs, set.Records...)
	}
	var current []*changelog.Record
	seen := map[string]bool{}
	for _, r := range changelog.Current(recs) {
		if r.Domain == domain && !seen[r.ID] {
			seen[r.ID] = true
			current = append(current, r)
		}
	}
	if len(current) < readmodel.DomainLimit {
		return nil
	}
	e := planqerr.New(planqerr.Refused, "domain "+domain, "holds %d current learnings; %d is the limit, past which agents lose the signal",
		len(current), readmodel.DomainLimit)
	if subs := SubDomains(domain, current, 3); len(subs) > 0 {
		return e.WithHint("split it: record under %s; or prune and dedupe it ('planq prune', 'planq dedupe'); or pass --force", strings.Join(subs, ", "))
	}
	return e.WithHint("split it into narrower domains; or prune and dedupe it ('planq prune', 'planq dedupe'); or pass --force")
}

// domainFiles counts the files of the domain's directory on global and in
// the agent's worktree (or branch): at least as many as its current
// learnings.
func (a *Agent) domainFiles(domain string) (int, error) {
	dir := changelog.KindLearning.Dir()
	n := 0
	if a.Dir != "" {
		entries, err := os.ReadDir(filepath.Join(a.Dir, dir, domain))
		if err != nil && !os.IsNotExist(err) {
			return 0, fmt.Errorf("failed to read %s/%s: %w", dir, domain, err)
		}
		n += len(entries)
	} else if c, err := a.store.Records.DirSize(a.Branch, dir, domain); err != nil {
		return 0, err
	} else {
		n += c
	}
	c, err := a.store.Records.DirSize(project.GlobalBranch, dir, domain)
	return n + c, err
}

// SubDomains proposes up to n sub-domains of domain ("auth-tokens") from
// the words its learnings' subjects (or first lines) share most, each with
// how many learnings it would take. Words of the domain's own name, words
// too rare to be worth a domain (under 5% of the learnings) and words
// nearly all of them share (90% or more: no split) are left out.
func SubDomains(domain string, recs []*changelog.Record, n int) []string {
	counts := subjectWords(domain, recs)
	words := make([]string, 0, len(counts))
	for w, c := range counts {
		if c*20 >= len(recs) && c*10 < len(recs)*9 {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	if len(words) > n {
		words = words[:n]
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = fmt.Sprintf("--domain %s-%s (%d of them)", domain, w, counts[w])
	}
	return out
}

// subjectWords counts, for each word of the learnings' subjects (or first
// lines) that could name a sub-domain of domain, the learnings that have
// it.
func subjectWords(domain string, recs []*changelog.Record) map[string]int {
	counts := map[string]int{}
	for _, r := range recs {
		text := r.Subject
		if text == "" {
			text = r.Title()
		}
		seen := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
			if len(w) < 3 || seen[w] || english.IsStopWord(w) || strings.Contains(domain, w) || !project.ValidName(domain+"-"+w) {
				continue
			}
			seen[w] = true
			counts[w]++
		}
	}
	return counts
}
