package readmodel

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// Finding is one thing wrong with the records of the state repository, at
// a file (and line, when one line is to blame), on the branches that hold
// it.
type Finding struct {
	Path     string   `json:"path"`
	Line     int      `json:"line,omitempty"`
	Check    string   `json:"check"`
	Problem  string   `json:"problem"`
	Branches []string `json:"branches"`
}

// What a finding checks.
const (
	CheckRecord    = "record"    // a file that does not read as a record where it lies
	CheckReference = "reference" // parent, depends_on or supersedes names no record
	CheckDuplicate = "duplicate" // one ID at two paths
	CheckCycle     = "cycle"     // versions that supersede each other in a ring
	CheckBody      = "body"      // a current record that says nothing: its body is empty
)

// Validate checks every record on every branch (global and each agent's):
// each file on its own (frontmatter, types and enums, the ID, the file's
// place; strictly parsed, see changelog.Parse), then the records together:
// the records they reference exist on some branch, no ID is at two paths,
// and no versions supersede each other in a ring. A file held alike on
// several branches is one finding, naming them all. Findings come sorted by
// path and line.
func (rd *Reader) Validate() ([]Finding, error) {
	branches, err := rd.e.Repo().Branches("")
	if err != nil {
		return nil, err
	}
	var names []string
	for b := range branches {
		if _, isAgent := project.AgentOfBranch(b); isAgent || b == project.GlobalBranch {
			names = append(names, b)
		}
	}
	sort.Strings(names)
	found := map[string]*Finding{}
	add := func(branch string, f Finding) {
		key := fmt.Sprintf("%s\x00%d\x00%s\x00%s", f.Path, f.Line, f.Check, f.Problem)
		if have := found[key]; have != nil {
			if !slices.Contains(have.Branches, branch) {
				have.Branches = append(have.Branches, branch)
			}
			return
		}
		f.Branches = []string{branch}
		found[key] = &f
	}
	byID := map[string]*changelog.Record{} // each ID's first record met
	where := map[string][]string{}         // each ID's paths
	type held struct {
		rec    *changelog.Record
		branch string
	}
	var all []held
	for _, b := range names {
		// Every file as it reads, the copies of one ID included (a load
		// keeps one record per ID).
		segs, problems, err := rd.e.Segments([]staterepo.Hash{branches[b]}, nil)
		if err != nil {
			return nil, err
		}
		var recs []*changelog.Record
		for _, seg := range segs {
			rs, err := rd.e.Records(seg)
			if err != nil {
				return nil, err
			}
			recs = append(recs, rs...)
		}
		for _, p := range engine.WithSegmentProblems(problems, segs) {
			add(b, Finding{Path: p.Path, Line: p.Line, Check: CheckRecord, Problem: p.Msg})
		}
		// Readers pass over files that do not look like records; here
		// they are named.
		files, err := rd.e.Repo().Walk(branches[b], changelog.Dirs(), nil)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !changelog.IsRecordPath(f.Path) && !engine.Misplaced(f.Path) && path.Base(f.Path) != project.ReadmeFile {
				add(b, Finding{Path: f.Path, Check: CheckRecord,
					Problem: "is no record (planq reads <kind directory>/<shard>/<id>.md); move it out of the kind's directory"})
			}
		}
		for _, r := range recs {
			if !slices.Contains(where[r.ID], r.Path) {
				where[r.ID] = append(where[r.ID], r.Path)
			}
			if byID[r.ID] == nil {
				byID[r.ID] = r
			}
			all = append(all, held{r, b})
		}
	}
	replaced := map[string]bool{}
	for _, h := range all {
		replaced[h.rec.Supersedes] = true
	}
	branchOf := map[*changelog.Record]string{}
	for _, h := range all {
		r := h.rec
		branchOf[r] = h.branch
		// Every writer refuses a record without text; one committed by
		// hand is read, and named here until a new version or a
		// retraction replaces it.
		if err := changelog.CheckBody(r); err != nil && !replaced[r.ID] {
			add(h.branch, Finding{Path: r.Path, Check: CheckBody, Problem: fmt.Sprintf("%v; %s", err, bodyRemedy(r))})
		}
		refs := [][2]string{{"parent", r.Parent}, {"supersedes", r.Supersedes}}
		for _, id := range r.DependsOn {
			refs = append(refs, [2]string{"depends_on", id})
		}
		for _, ref := range refs {
			if field, id := ref[0], ref[1]; id != "" && byID[id] == nil {
				add(h.branch, Finding{Path: r.Path, Check: CheckReference,
					Problem: fmt.Sprintf("%s: %s is no record on any branch", field, id)})
			}
		}
		if paths := where[r.ID]; len(paths) > 1 {
			add(h.branch, Finding{Path: r.Path, Check: CheckDuplicate,
				Problem: fmt.Sprintf("%s is also at %s", r.ID, strings.Join(without(paths, r.Path), ", "))})
		}
	}
	for _, ring := range supersedeRings(byID) {
		r := byID[ring[0]]
		add(branchOf[r], Finding{Path: r.Path, Check: CheckCycle,
			Problem: RingProblem(ring)})
	}
	out := make([]Finding, 0, len(found))
	for _, f := range found {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Finding) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Problem, b.Problem)
	})
	return out, nil
}

// bodyRemedy names the command that gives r's text, or takes r back.
func bodyRemedy(r *changelog.Record) string {
	if r.Kind == changelog.KindLearning {
		return fmt.Sprintf("write it with 'planq edit %s --text TEXT', or 'planq retract %s'", r.ID, r.ID)
	}
	return fmt.Sprintf("retract it with 'planq retract %s' and write it again", r.ID)
}

func without(paths []string, p string) []string {
	return slices.DeleteFunc(slices.Clone(paths), func(q string) bool { return q == p })
}

// supersedeRings finds each ring of records that supersede one another,
// once, starting from its least ID.
func supersedeRings(byID map[string]*changelog.Record) [][]string {
	links := make(map[string]string, len(byID))
	for id, r := range byID {
		links[id] = r.Supersedes
	}
	return changelog.RingsOfLinks(links)
}
