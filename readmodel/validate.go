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
	v := &validation{found: map[string]*Finding{}, byID: map[string]*changelog.Record{}, where: map[string][]string{}}
	for _, b := range names {
		if err := rd.validateBranch(v, b, branches[b]); err != nil {
			return nil, err
		}
	}
	v.checkTogether()
	return v.findings(), nil
}

// validation is what Validate found so far.
type validation struct {
	found map[string]*Finding
	byID  map[string]*changelog.Record // each ID's first record met
	where map[string][]string          // each ID's paths
	all   []heldRecord
}

// heldRecord is a record, and a branch that holds it.
type heldRecord struct {
	rec    *changelog.Record
	branch string
}

// add keeps f, found on branch: a finding met on another branch already
// names this one too.
func (v *validation) add(branch string, f Finding) {
	key := fmt.Sprintf("%s\x00%d\x00%s\x00%s", f.Path, f.Line, f.Check, f.Problem)
	if have := v.found[key]; have != nil {
		if !slices.Contains(have.Branches, branch) {
			have.Branches = append(have.Branches, branch)
		}
		return
	}
	f.Branches = []string{branch}
	v.found[key] = &f
}

// validateBranch checks each file of branch b, at tip, on its own, and
// keeps its records for the checks of the records together.
func (rd *Reader) validateBranch(v *validation, b string, tip staterepo.Hash) error {
	// Every file as it reads, the copies of one ID included (a load
	// keeps one record per ID).
	segs, problems, err := rd.e.Segments([]staterepo.Hash{tip}, nil)
	if err != nil {
		return err
	}
	var recs []*changelog.Record
	for _, seg := range segs {
		rs, err := rd.e.Records(seg)
		if err != nil {
			return err
		}
		recs = append(recs, rs...)
	}
	for _, p := range engine.WithSegmentProblems(problems, segs) {
		v.add(b, Finding{Path: p.Path, Line: p.Line, Check: CheckRecord, Problem: p.Msg})
	}
	// Readers pass over files that do not look like records; here
	// they are named.
	files, err := rd.e.Repo().Walk(tip, changelog.Dirs(), nil)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !changelog.IsRecordPath(f.Path) && !engine.Misplaced(f.Path) && path.Base(f.Path) != project.ReadmeFile {
			v.add(b, Finding{Path: f.Path, Check: CheckRecord,
				Problem: "is no record (planq reads <kind directory>/<shard>/<id>.md); move it out of the kind's directory"})
		}
	}
	for _, r := range recs {
		if !slices.Contains(v.where[r.ID], r.Path) {
			v.where[r.ID] = append(v.where[r.ID], r.Path)
		}
		if v.byID[r.ID] == nil {
			v.byID[r.ID] = r
		}
		v.all = append(v.all, heldRecord{r, b})
	}
	return nil
}

// checkTogether checks the records of every branch together: each has
// text unless replaced, the records it references exist, its ID is at
// one path, and no versions supersede each other in a ring.
func (v *validation) checkTogether() {
	replaced := map[string]bool{}
	for _, h := range v.all {
		replaced[h.rec.Supersedes] = true
	}
	branchOf := map[*changelog.Record]string{}
	for _, h := range v.all {
		branchOf[h.rec] = h.branch
		v.checkRecord(h, replaced[h.rec.ID])
	}
	for _, ring := range supersedeRings(v.byID) {
		r := v.byID[ring[0]]
		v.add(branchOf[r], Finding{Path: r.Path, Check: CheckCycle,
			Problem: RingProblem(ring)})
	}
}

// checkRecord checks one record among the others.
func (v *validation) checkRecord(h heldRecord, replaced bool) {
	r := h.rec
	// Every writer refuses a record without text; one committed by
	// hand is read, and named here until a new version or a
	// retraction replaces it.
	if err := changelog.CheckBody(r); err != nil && !replaced {
		v.add(h.branch, Finding{Path: r.Path, Check: CheckBody, Problem: fmt.Sprintf("%v; %s", err, bodyRemedy(r))})
	}
	refs := [][2]string{{"parent", r.Parent}, {"supersedes", r.Supersedes}}
	for _, id := range r.DependsOn {
		refs = append(refs, [2]string{"depends_on", id})
	}
	for _, ref := range refs {
		if field, id := ref[0], ref[1]; id != "" && v.byID[id] == nil {
			v.add(h.branch, Finding{Path: r.Path, Check: CheckReference,
				Problem: fmt.Sprintf("%s: %s is no record on any branch", field, id)})
		}
	}
	if paths := v.where[r.ID]; len(paths) > 1 {
		v.add(h.branch, Finding{Path: r.Path, Check: CheckDuplicate,
			Problem: fmt.Sprintf("%s is also at %s", r.ID, strings.Join(without(paths, r.Path), ", "))})
	}
}

// findings is what v found, sorted by path and line.
func (v *validation) findings() []Finding {
	out := make([]Finding, 0, len(v.found))
	for _, f := range v.found {
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
	return out
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
