package agent

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Checkpoint saves the agent's state under a name: pending changes are
// committed, a checkpoint record is written, and a tag marks that commit.
func (a *Agent) Checkpoint(ctx context.Context, name, note string, opts WriteOptions) (Written, error) {
	rec, err := changelog.NewCheckpoint(changelog.CheckpointInput{Name: name, Note: note})
	if err != nil {
		return Written{}, err
	}
	ref := project.CheckpointRef(a.Name, name)
	if existing, _ := a.store.Repo.Refs(ref); !existing[ref].IsZero() {
		return Written{}, planqerr.New(planqerr.Exists, "checkpoint "+quote(name), "already exists for agent %s", a.Name).
			WithHint("pick another name; 'planq checkpoint list' shows the ones taken")
	}
	if _, _, err := a.CommitPending(ctx, "save pending state for checkpoint "+name); err != nil {
		return Written{}, err
	}
	w, err := a.Write(ctx, rec, opts)
	if err != nil {
		return Written{}, err
	}
	failpoint.Hit(failpoint.CheckpointCommitted)
	if err := a.store.Repo.CreateRef(ctx, ref, staterepo.NewHash(w.Commit), "planq: checkpoint "+name); err != nil {
		return Written{}, err
	}
	return w, nil
}

// CheckpointInfo describes one checkpoint tag.
type CheckpointInfo struct {
	Agent  string    `json:"agent"`
	Name   string    `json:"name"`
	Commit string    `json:"commit"`
	Time   time.Time `json:"time"`
	Note   string    `json:"note"`
}

// Checkpoints lists the checkpoints of agent ("" for every agent), oldest first.
func (s *Store) Checkpoints(agent string) ([]CheckpointInfo, error) {
	prefix := project.CheckpointRefPrefix
	if agent != "" {
		prefix += agent + "/"
	}
	refs, err := s.Repo.Refs(prefix)
	if err != nil {
		return nil, err
	}
	var out []CheckpointInfo
	for ref, h := range refs {
		who, name, ok := strings.Cut(strings.TrimPrefix(ref, project.CheckpointRefPrefix), "/")
		if !ok {
			continue
		}
		info := CheckpointInfo{Agent: who, Name: name, Commit: h.String()}
		if c, err := s.Repo.Commit(h); err == nil {
			info.Time = c.Time.UTC()
			info.Note = strings.TrimPrefix(c.Subject(), "checkpoint: ")
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].Agent+"/"+out[i].Name < out[j].Agent+"/"+out[j].Name
	})
	return out, nil
}
