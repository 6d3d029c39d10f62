package workspace

import (
	"context"
	"path/filepath"
	"time"

	"github.com/planq-dev/planq/agent"
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

// List describes every agent of the project, sorted by name. Malformed
// records do not hide the listing; they are returned as the error beside it.
func List(_ context.Context, p *project.Project) ([]AgentStatus, error) {
	store, err := agent.OpenStore(p)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	names, err := store.AgentNames()
	if err != nil {
		return nil, err
	}
	wts, err := store.Repo.Worktrees()
	if err != nil {
		return nil, err
	}
	mounted := map[string]staterepo.WorktreeInfo{}
	for _, wt := range wts {
		mounted[wt.Branch] = wt
	}
	recs, loadErr := store.AllRecords()
	counts := map[string]map[string]int{}
	for _, r := range recs {
		if counts[r.Agent] == nil {
			counts[r.Agent] = map[string]int{}
		}
		counts[r.Agent][string(r.Kind)]++
	}
	out := make([]AgentStatus, 0, len(names))
	for _, name := range names {
		branch := staterepo.AgentBranch(name)
		st := AgentStatus{Name: name, Branch: branch, Status: StatusUnmounted, Records: map[string]int{}}
		for _, k := range changelog.Kinds {
			st.Records[string(k)] = counts[name][string(k)]
		}
		if wt, ok := mounted[branch]; ok {
			st.AgentDir, st.Workspace, st.Status = wt.Path, workspaceDir(wt.Path), StatusActive
			if wt.Missing {
				st.Status = StatusMissing
			}
		}
		if tip, err := store.Repo.Tip(branch); err == nil {
			if c, err := store.Repo.Commit(tip); err == nil {
				st.LastActivity = c.Committer.When.UTC()
			}
		}
		out = append(out, st)
	}
	return out, loadErr
}

// workspaceDir maps <workspace>/.planq/agent to <workspace>.
func workspaceDir(agentDir string) string {
	return filepath.Dir(filepath.Dir(agentDir))
}
