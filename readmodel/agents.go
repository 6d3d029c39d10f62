package readmodel

import (
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
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
	tips, err := rd.e.Tips()
	if err != nil {
		return nil, nil, err
	}
	// A broken tip is reported as such; reading it would fail the listing.
	readable := make([]staterepo.Hash, 0, len(tips))
	for _, tip := range tips {
		if rd.e.Repo().CheckLoose(tip) == nil {
			readable = append(readable, tip)
		}
	}
	segs, problems, err := rd.e.Segments(readable, nil)
	if err != nil {
		return nil, nil, err
	}
	problems = engine.WithSegmentProblems(problems, segs)
	counts := rd.e.CurrentByAgent(segs)
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

// agentStatuses describes every agent but for its record counts, which
// take reading every record.
func (rd *Reader) agentStatuses() ([]AgentStatus, error) {
	names, err := rd.AgentNames()
	if err != nil {
		return nil, err
	}
	wts, err := rd.e.Repo().Worktrees()
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
		if tip, err := rd.e.Tip(branch); err == nil {
			if rd.e.Repo().CheckLoose(tip) != nil {
				st.Status = StatusBroken
			} else if at, err := rd.e.CommitTime(tip); err == nil {
				st.LastActivity = at.UTC()
			}
		}
		out = append(out, st)
	}
	return out, nil
}
