package session

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// ProjectHit is a hit labelled with the project it came from
// (project.UserLayerName for the user layer).
type ProjectHit struct {
	Project string `json:"project"`
	readmodel.Hit
}

// Label is how a front end names the hit's project: its name, or "user
// layer".
func (h ProjectHit) Label() string {
	if h.Project == project.UserLayerName {
		return userLayerLabel
	}
	return h.Project
}

// Skipped is a state repository a search across projects could not read.
type Skipped struct {
	Project string `json:"project"`
	Problem string `json:"problem"`
}

// FoundAll is what a search across projects found, best first.
type FoundAll struct {
	Query     string   `json:"query"`
	Phrasings []string `json:"phrasings,omitempty"`
	// Total counts every record that matched in every repository searched.
	Total int          `json:"total"`
	Hits  []ProjectHit `json:"hits"`
	// Problems are the record files that did not read, each prefixed with
	// its project's name.
	Problems []string `json:"problems,omitempty"`
	// Skipped are the repositories that did not open or search; the others
	// answered.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Explain is the current project's, when the query asked.
	Explain *readmodel.Explained `json:"explain,omitempty"`
	// Texts are the hits' whole records, in order, when the input was Full.
	Texts []string `json:"-"`
	// Current is the current project's name ("" when it was not searched),
	// Unnoted as Found's.
	Current string `json:"-"`
	Unnoted error  `json:"-"`
	// NoUserLayer is where the user layer would be, when the user layer
	// alone was asked for and none was ever made.
	NoUserLayer string `json:"-"`

	vectorWarning error
}

// searched is one repository's answer.
type searched struct {
	project string
	rd      *readmodel.Reader
	code    string // its code repository, for staleness; "" when unknown
	res     readmodel.Results
	err     error
}

// searchAcross searches beyond this project's branches, with the same
// query: the user layer alone (scope user), or this project (every branch
// of it, when there is one here), the other projects of this machine that
// did not opt out and the user layer (scope all); and fuses the answers
// into one list labelled by project. A repository that does not open or
// search is skipped and named in FoundAll.Skipped; a query that is no
// query fails as one project's search does.
func (s *Project) searchAcross(ctx context.Context, in SearchInput) (FoundAll, error) {
	var found FoundAll
	if in.AsOf != "" {
		return found, planqerr.New(planqerr.Invalid, "as-of", "reads one project's past; a search across projects reads today's memory").
			WithHint("search this project alone with --as-of")
	}
	home, err := s.Home()
	if err != nil {
		return found, err
	}
	all := in.Scope == ScopeAll
	if path := project.StateRepoPath(home, project.UserLayerName); !all && !userlayer.Exists(home) && !lexists(path) {
		// Something there that is no user layer (a link to nothing, a
		// broken repository) is no "not yet": the search names its problem.
		found.NoUserLayer = path
	}
	q, err := in.query()
	if err != nil {
		return found, err
	}
	var answers []*searched
	if all {
		cur, err := s.searchCurrent(ctx, in, &found)
		if err != nil {
			return found, err
		}
		if cur != nil {
			answers = append(answers, cur)
		}
	}
	others, skipped, err := otherRepos(home, found.Current, all)
	if err != nil {
		return found, err
	}
	found.Skipped = skipped
	model := sharedDefaultModel(home)
	more := make([]*searched, len(others))
	eachBounded(len(others), func(i int) {
		more[i] = searchRepo(ctx, home, others[i], model, q)
	})
	for _, s := range more {
		if s.err == nil {
			answers = append(answers, s)
			continue
		}
		if planqerr.Is(s.err, planqerr.Invalid) {
			return found, s.err // the query's fault: every repository would say it
		}
		found.Skipped = append(found.Skipped, Skipped{Project: s.project, Problem: s.err.Error()})
	}
	if err := ctx.Err(); err != nil {
		return found, err
	}
	slices.SortFunc(found.Skipped, func(a, b Skipped) int { return cmp.Compare(a.Project, b.Project) })
	return found, fuseAnswers(ctx, &found, answers, q, in.Full)
}

// searchCurrent searches every branch of this project for a search across
// projects, even if it opted out (it is the user's own), and notes what
// found says of it; nil outside a project.
func (s *Project) searchCurrent(ctx context.Context, in SearchInput, found *FoundAll) (*searched, error) {
	if _, err := s.project(); planqerr.Is(err, planqerr.NotInitialized) {
		return nil, nil // outside a project: the others and the user layer
	}
	in.Scope, in.Full = ScopeProject, false
	cur, err := s.searchProject(ctx, in)
	if err != nil {
		return nil, err
	}
	h, err := s.handle(ctx) // the one the search opened
	if err != nil {
		return nil, err
	}
	found.Current, found.Unnoted, found.Explain, found.vectorWarning = h.Project.Config.Project, cur.Unnoted, cur.Explain, cur.VectorWarning
	return &searched{project: found.Current, rd: h.Records, code: h.Project.Root, res: cur.Results}, nil
}

// fuseAnswers fills found with the repositories' answers: the query as
// they name it, their totals and problems, their hits fused by rank and
// marked stale, and, when full, each hit's whole record.
func fuseAnswers(ctx context.Context, found *FoundAll, answers []*searched, q readmodel.Query, full bool) error {
	if len(answers) > 0 { // every answer names the query alike
		found.Query, found.Phrasings = answers[0].res.Query, answers[0].res.Phrasings
	} else {
		for _, p := range q.Phrasings {
			if strings.TrimSpace(p) != "" {
				found.Phrasings = append(found.Phrasings, p)
			}
		}
		if len(found.Phrasings) > 0 {
			found.Query = found.Phrasings[0]
		}
		if len(found.Phrasings) < 2 {
			found.Phrasings = nil
		}
	}
	lists := make([][]ProjectHit, len(answers))
	byProject := map[string]*searched{}
	for i, a := range answers {
		byProject[a.project] = a
		found.Total += a.res.Total
		for _, p := range a.res.Problems {
			found.Problems = append(found.Problems, a.project+": "+p)
		}
		for _, hit := range a.res.Hits {
			lists[i] = append(lists[i], ProjectHit{Project: a.project, Hit: hit})
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = readmodel.DefaultSearchLimit
	}
	found.Hits = Fuse(lists, min(limit, readmodel.MaxSearchLimit))
	markStaleElsewhere(ctx, found.Hits, byProject, found.Current)
	if !full {
		return nil
	}
	for _, hit := range found.Hits {
		ex, err := byProject[hit.Project].rd.Get(hit.Path, 1, 1<<30)
		if err != nil {
			return err
		}
		found.Texts = append(found.Texts, ex.Text)
	}
	return nil
}

// lexists reports whether there is anything at path, a symbolic link to
// nothing included.
func lexists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// Fuse merges the ranked hit lists of several repositories into one of at
// most limit, best first. It fuses by rank, not by score: each list's
// first hit comes before any list's second, and so on (reciprocal rank
// fusion over one ranking per repository, where equal ranks tie); at equal
// rank the higher score goes first, then the project's name decides. A
// score is not compared across repositories alone because it is not
// comparable: BM25F weighs a word by how rare it is in its own repository,
// and a fused score by how far a hit stands out of its own ranking, so a
// large project's scores would drown a small one's best answer.
func Fuse(lists [][]ProjectHit, limit int) []ProjectHit {
	type ranked struct {
		hit  ProjectHit
		rank int
	}
	var all []ranked
	for _, l := range lists {
		for r, h := range l {
			all = append(all, ranked{h, r})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := cmp.Compare(b.hit.Score, a.hit.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.hit.Project, b.hit.Project)
	})
	out := make([]ProjectHit, 0, min(limit, len(all)))
	for _, r := range all[:min(limit, len(all))] {
		out = append(out, r.hit)
	}
	return out
}

// otherRepos are the state repositories besides current a search reads:
// the user layer, and with projects every other project; and those skipped
// for want of knowing whether they opted out (never those that did: they
// are left out without a word).
func otherRepos(home, current string, projects bool) ([]stateRepo, []Skipped, error) {
	repos, err := stateRepos(home)
	if err != nil {
		return nil, nil, err
	}
	var out []stateRepo
	var skipped []Skipped
	for _, sr := range repos {
		switch {
		case sr.name == current:
		case sr.name == project.UserLayerName:
			if sr.problem != "" {
				skipped = append(skipped, Skipped{Project: sr.name, Problem: sr.problem})
				break
			}
			out = append(out, sr)
		case !projects:
		case sr.problem != "":
			skipped = append(skipped, Skipped{Project: sr.name, Problem: sr.problem})
		default:
			private, code, known, err := privacy(home, sr.name)
			sr.code = code
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{Project: sr.name, Problem: err.Error()})
			case !known:
				skipped = append(skipped, Skipped{Project: sr.name,
					Problem: "whether it opted out is not known yet: run any planq command in its code repository once"})
			case !private:
				out = append(out, sr)
			}
		}
	}
	return out, skipped, nil
}

// searchRepo searches one state repository read-only, through its own
// read model (the project's cache under home), embedding by model.
func searchRepo(ctx context.Context, home string, sr stateRepo, model readmodel.ModelLoader, q readmodel.Query) *searched {
	s := &searched{project: sr.name}
	if err := ctx.Err(); err != nil {
		s.err = err
		return s
	}
	repo, err := staterepo.Open(sr.path)
	if err != nil {
		s.err = err
		return s
	}
	s.rd = readmodel.Open(repo, cacheDirOf(home, sr.name))
	s.rd.UseModel(model)
	s.code = sr.code
	s.res, s.err = s.rd.SearchContext(ctx, q)
	return s
}

// sharedDefaultModel opens the model built into planq for the other
// repositories' searches: theirs may name another in their config, which
// only their own checkout can read; the built-in one is opened once per
// process however many repositories embed by it.
func sharedDefaultModel(home string) readmodel.ModelLoader {
	return func(ctx context.Context) (embed.Model, error) {
		return embed.Open(ctx, embed.Settings{ModelsDir: project.ModelsDir(home)})
	}
}

// markStaleElsewhere marks the hits of other projects stale where the code
// they cite moved on in that project's code repository, when it is known
// (the current project's hits were marked by its search).
func markStaleElsewhere(ctx context.Context, hits []ProjectHit, by map[string]*searched, current string) {
	groups := map[string][]int{}
	var names []string
	for i, h := range hits {
		if h.Project == current || by[h.Project].code == "" {
			continue
		}
		if groups[h.Project] == nil {
			names = append(names, h.Project)
		}
		groups[h.Project] = append(groups[h.Project], i)
	}
	eachBounded(len(names), func(k int) {
		idx := groups[names[k]]
		sub := make([]readmodel.Hit, len(idx))
		for j, i := range idx {
			sub[j] = hits[i].Hit
		}
		readmodel.MarkStale(ctx, by[names[k]].code, sub)
		for j, i := range idx {
			hits[i].Stale = sub[j].Stale
		}
	})
}
