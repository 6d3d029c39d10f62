package readmodel

import (
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Agent statuses in a listing.
const (
	StatusActive    = "active"    // mounted in a workspace that exists
	StatusUnmounted = "unmounted" // branch only (after remove, or fetched)
	StatusMissing   = "missing"   // registered, but the directory is gone
	StatusBroken    = "broken"    // its tip's object file is damaged: planq doctor --fix
)

// AgentStatus is one row of `planq list`.
type AgentStatus struct {
	Name         string         `json:"name"`
	Branch       string         `json:"branch"`
	Status       string         `json:"status"`
	Workspace    string         `json:"workspace,omitempty"`
	AgentDir     string         `json:"agent_dir,omitempty"`
	LastActivity time.Time      `json:"last_activity"`
	Records      map[string]int `json:"records"`
}

// Agents describes every agent of the project, sorted by name. Malformed
// records do not hide the listing; they come back beside it.
func (rd *Reader) Agents() ([]AgentStatus, []string, error) {
	statuses, err := rd.agentStatuses()
	if err != nil {
		return nil, nil, err
	}
	tips, err := rd.tips()
	if err != nil {
		return nil, nil, err
	}
	// A broken tip is reported as such; reading it would fail the listing.
	readable := make([]staterepo.Hash, 0, len(tips))
	for _, tip := range tips {
		if rd.repo.CheckLoose(tip) == nil {
			readable = append(readable, tip)
		}
	}
	segs, problems, err := rd.segmentsOf(readable, nil)
	if err != nil {
		return nil, nil, err
	}
	problems = withSegmentProblems(problems, segs)
	counts := rd.currentByAgent(segs)
	for i := range statuses {
		st := &statuses[i]
		for k, kind := range changelog.Kinds {
			st.Records[string(kind)] = 0
			if c := counts[st.Name]; c != nil {
				st.Records[string(kind)] = c[k]
			}
		}
	}
	return statuses, problemLines(problems), nil
}

// currentByAgent counts the current records of segs per agent and kind (by
// index into changelog.Kinds): each record once, however many branches
// hold it; a new version that cites a duplicate, or one that supersedes an
// old one, is still one record.
func (rd *Reader) currentByAgent(segs []*segment) map[string][]int {
	orders := make([]idOrder, len(segs))
	var edges []versionEdge
	byPath := map[string][]int{} // a record lives in its kind's directory
	var paths []string
	for k, s := range segs {
		orders[k] = rd.idOrder(s)
		edges = append(edges, orders[k].edges(s)...)
		if byPath[s.path] == nil {
			paths = append(paths, s.path)
		}
		byPath[s.path] = append(byPath[s.path], k)
	}
	replaced := replacedBy(edges, ringBreaks(edges)) // of a ring of versions, the newest counts
	counts := map[string][]int{}
	of := make([][][]int, len(segs)) // each segment's agents' counts, by its agent index
	for k, s := range segs {
		of[k] = make([][]int, len(s.agents))
		for a, name := range s.agents {
			if counts[name] == nil {
				counts[name] = make([]int, len(changelog.Kinds))
			}
			of[k][a] = counts[name]
		}
	}
	for _, p := range paths {
		group := make([]idOrder, len(byPath[p]))
		for j, k := range byPath[p] {
			group[j] = orders[k]
		}
		eachDistinct(group, func(j int, id uint64, r idRow) {
			k := byPath[p][j]
			if r.flags&flagTombstone != 0 || (len(replaced) > 0 && replaced[id]) {
				return
			}
			if int(r.agent) < len(of[k]) && int(r.kind) < len(changelog.Kinds) {
				of[k][r.agent][r.kind]++
			}
		})
	}
	return counts
}

// agentStatuses describes every agent but for its record counts, which
// take reading every record.
func (rd *Reader) agentStatuses() ([]AgentStatus, error) {
	names, err := rd.AgentNames()
	if err != nil {
		return nil, err
	}
	wts, err := rd.repo.Worktrees()
	if err != nil {
		return nil, err
	}
	mounted := map[string]staterepo.WorktreeInfo{}
	for _, wt := range wts {
		mounted[wt.Branch] = wt
	}
	out := make([]AgentStatus, 0, len(names))
	for _, name := range names {
		branch := project.AgentBranch(name)
		st := AgentStatus{Name: name, Branch: branch, Status: StatusUnmounted, Records: map[string]int{}}
		if wt, ok := mounted[branch]; ok {
			st.AgentDir, st.Workspace, st.Status = wt.Path, project.WorkspaceOfAgentDir(wt.Path), StatusActive
			if wt.Missing {
				st.Status = StatusMissing
			}
		}
		if tip, err := rd.tip(branch); err == nil {
			if rd.repo.CheckLoose(tip) != nil {
				st.Status = StatusBroken
			} else if l, err := rd.listing(tip); err == nil {
				st.LastActivity = l.time.UTC()
			}
		}
		out = append(out, st)
	}
	return out, nil
}
