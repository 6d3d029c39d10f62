package userlayer

import (
	"context"
	"fmt"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// Write records rec, a new learning or decision, in the user layer: one
// commit on its global, written by Writer and checked as every record
// (CommitGlobal). Nothing of a code checkout is filled in: no code
// repository stands behind the layer. A record it supersedes must be the
// layer's.
func (l *Layer) Write(ctx context.Context, rec *changelog.Record, opts agent.WriteOptions) (agent.Written, error) {
	if rec.Kind != changelog.KindLearning && rec.Kind != changelog.KindDecision {
		return agent.Written{}, planqerr.New(planqerr.Invalid, string(rec.Kind), "the user layer holds learnings and decisions only")
	}
	if rec.Supersedes != "" {
		set, err := l.Records.Branch(project.GlobalBranch, rec.Kind)
		if err != nil {
			return agent.Written{}, err
		}
		found := false
		for _, r := range set.Records {
			found = found || r.ID == rec.Supersedes
		}
		if !found {
			return agent.Written{}, planqerr.New(planqerr.NotFound, rec.Supersedes, "no such %s in the user layer", rec.Kind.Noun()).
				WithHint("'planq user list' shows the user layer's records")
		}
	}
	if opts.AllowSecret {
		rec.AllowSecret = true
	}
	commit, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: Writer, Records: []*changelog.Record{rec},
		Message: fmt.Sprintf("%s: %s\n", rec.Kind, firstLine(rec.Title()))})
	if err != nil {
		return agent.Written{}, err
	}
	return agent.Written{ID: rec.ID, Kind: rec.Kind, Path: rec.Path, Commit: commit.String(), Agent: Writer}, nil
}

func firstLine(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
