package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/importing"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search"
)

// gatherUserLayer reads what the user layer gives the prime document of a
// into in.User: its preferences, and its other current learnings and
// decisions found for what the project is made with (Stack, read from
// the code checkout) and for the agent's task. A user layer that was never
// made gives nothing, and prime never makes it.
//
// A private project (private: true) gets the user layer too: privacy is
// about the project's records leaving it, and nothing of the project
// reaches the user layer here (its stack and task are searched for in
// this process, and no use is noted there); the user layer's records are
// the person's own, promoted to it on purpose, for every project they work
// on.
func gatherUserLayer(ctx context.Context, p *project.Project, a readmodel.Ref, in *prime.Input) error {
	l, ok, err := userlayer.Read(ctx, p.Home)
	if err != nil || !ok {
		return err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	rd := l.Records
	// By words alone: a record of the user layer is shown in a project
	// when it names what the project is made with or what the task says.
	// The meaning of "python pytest" is near enough to a Go record's for a
	// static embedding to rank it, and a person's memory shown where it
	// does not belong is what they complain of. It spares the model too.
	rd.UseModel(nil)
	learnings := search.Filters{Kinds: []changelog.Kind{changelog.KindLearning}, Domains: []string{prime.PreferencesDomain}}
	// Every preference holds its domain among its words (search.DocOf), so
	// this search finds them all, from the index, without decoding the
	// layer's other records; Total counts them.
	prefs, err := rd.SearchContext(ctx, readmodel.Query{Text: prime.PreferencesDomain, Branch: project.GlobalBranch,
		Limit: prime.MaxUserPreferences, Filters: learnings})
	if err != nil {
		return err
	}
	u := prime.UserLayer{PreferencesTotal: prefs.Total, Stack: importing.Stack(codeDir(p, a))}
	for _, h := range prefs.Hits {
		if r := h.Record(); r != nil {
			u.Preferences = append(u.Preferences, r)
		}
	}
	readmodel.Rank(u.Preferences)
	phrasings := userTask(in.Summary)
	if len(u.Stack) > 0 {
		phrasings = append([]string{stackWords(u.Stack)}, phrasings...)
	}
	if len(phrasings) > 0 {
		// The preferences are shown already: ask for enough more that
		// MaxUserRelevant others remain.
		found, err := rd.SearchContext(ctx, readmodel.Query{Phrasings: phrasings, Branch: project.GlobalBranch,
			Limit:   prime.MaxUserRelevant + len(u.Preferences),
			Filters: search.Filters{Kinds: []changelog.Kind{changelog.KindLearning, changelog.KindDecision}}})
		if err != nil && !planqerr.Is(err, planqerr.Invalid) { // no word to look for
			return err
		}
		for _, h := range found.Hits {
			if r := h.Record(); r != nil && r.Domain == prime.PreferencesDomain {
				continue
			}
			if len(u.Relevant) < prime.MaxUserRelevant {
				u.Relevant = append(u.Relevant, h)
			}
		}
	}
	if u.Memories, err = rd.Memories(project.GlobalBranch); err != nil {
		return err
	}
	in.User = u
	return nil
}

// userTask is what the agent's task says, as prime's own search of the
// project reads it: its focus, its code branch's context, the handoff it
// picks up.
func userTask(s *prime.Summary) []string {
	var task []string
	for _, t := range []string{s.Focus, branchBody(s), handoffBody(s)} {
		if t = strings.TrimSpace(t); t != "" {
			task = append(task, changelog.Shorten(t, 250))
		}
	}
	return task
}

func branchBody(s *prime.Summary) string {
	if s.BranchContext == nil {
		return ""
	}
	return s.BranchContext.Body
}

func handoffBody(s *prime.Summary) string {
	if s.Handoff == nil {
		return ""
	}
	return s.Handoff.Body
}

// stackWords is the stack as one phrasing, with the other names records
// give some of its parts ("golang" for go).
func stackWords(stack []string) string {
	words := make([]string, 0, len(stack)+2)
	for _, s := range stack {
		words = append(words, s)
		if alias, ok := stackAliases[s]; ok {
			words = append(words, alias)
		}
	}
	return strings.Join(words, " ")
}

var stackAliases = map[string]string{"go": "golang", "node": "node.js javascript"}

// codeDir is the code checkout of a's session: its workspace, or the
// project's where no agent is mounted.
func codeDir(p *project.Project, a readmodel.Ref) string {
	switch {
	case a.Workspace != "":
		return a.Workspace
	case p.Workspace != "":
		return p.Workspace
	}
	return p.Root
}

// userLayerProblem words an error of the user layer as prime reports it:
// the session starts without the layer.
func userLayerProblem(err error) error {
	return fmt.Errorf("the user layer was left out of the session's context: %w", err)
}
