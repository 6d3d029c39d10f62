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
	rs, err := rd.rows(tips)
	if err != nil {
		return nil, nil, err
	}
	counts := map[string]map[string]int{}
	// Current versions only: a new version that cites a duplicate, or one that
	// supersedes an old one, is still one record.
	for _, r := range rs.current() {
		if counts[r.agent()] == nil {
			counts[r.agent()] = map[string]int{}
		}
		counts[r.agent()][string(r.kind())]++
	}
	for i := range statuses {
		st := &statuses[i]
		for _, k := range changelog.Kinds {
			st.Records[string(k)] = counts[st.Name][string(k)]
		}
	}
	return statuses, problemLines(rs.problems), nil
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
		if tip, err := rd.repo.Tip(branch); err == nil {
			if l, err := rd.listing(tip); err == nil {
				st.LastActivity = l.time.UTC()
			}
		}
		out = append(out, st)
	}
	return out, nil
}
