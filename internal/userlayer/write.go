package userlayer

import (
	"context"
	"errors"
	"fmt"
	"time"

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
	if err := CheckAllowSecret(opts.AllowSecret); err != nil {
		return agent.Written{}, err
	}
	return l.commit(ctx, rec, fmt.Sprintf("%s: %s\n", rec.Kind, firstLine(rec.Title())))
}

// NoCredential is the user layer's answer to a credential, whoever tries to
// store one there: the memory tool, promote --to user, learn and decide.
const NoCredential = "remove the credential: the user layer keeps none (every project's session may read it, and it syncs to your own remote)"

// CheckAllowSecret refuses an allowance for a credential: one stored in the
// user layer would be read by every project's session and pushed to the
// layer's remote, so no writer of the layer takes one.
func CheckAllowSecret(allow bool) error {
	if !allow {
		return nil
	}
	return planqerr.New(planqerr.Refused, "--allow-secret", "refused: the user layer keeps no credential, allowed or not").
		WithHint("leave --allow-secret out, and %s", NoCredential)
}

// commit writes rec, stamped by Writer, in one commit on the layer's
// global: checked as CommitGlobal checks every record, and refused if it
// holds a credential, even one it carries over from the version it
// supersedes (CommitGlobal lets that pass on a project's global, whose
// record allowed it).
func (l *Layer) commit(ctx context.Context, rec *changelog.Record, message string) (agent.Written, error) {
	rec.AllowSecret = false
	agent.Stamp(rec, Writer, time.Now().UTC())
	subject := string(rec.Kind) + " " + rec.ID
	data, err := l.CheckForGlobal(rec)
	if err == nil {
		err = agent.Guard(subject, data, agent.WriteOptions{})
	}
	if err != nil {
		return agent.Written{}, noCredential(err)
	}
	commit, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: Writer, Records: []*changelog.Record{rec}, Message: message})
	if err != nil {
		return agent.Written{}, noCredential(err)
	}
	return agent.Written{ID: rec.ID, Kind: rec.Kind, Path: rec.Path, Commit: commit.String(), Agent: Writer}, nil
}

// noCredential gives a refused credential the user layer's hint: the
// writer's hint offers --allow-secret, which the layer refuses.
func noCredential(err error) error {
	var pe *planqerr.Error
	if errors.As(err, &pe) && pe.Kind == planqerr.Refused {
		refused := *pe
		refused.Hint = NoCredential
		return &refused
	}
	return err
}

func firstLine(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
