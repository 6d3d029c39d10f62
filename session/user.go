package session

import (
	"context"
	"path/filepath"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// The user layer's commands need no project: the layer is the person's,
// under $PLANQ_HOME, and these methods never look for one.

// layer opens the user layer: with create, made on first use (made is
// then its path); without, nil when it was never made (a read makes none).
func (s *Project) layer(ctx context.Context, create bool) (l *userlayer.Layer, made string, err error) {
	home, err := project.Home()
	if err != nil {
		return nil, "", err
	}
	if !create {
		l, _, err := userlayer.OpenExisting(ctx, home)
		return l, "", err
	}
	if l, err = userlayer.Open(ctx, home); err != nil {
		return nil, "", err
	}
	if l.Created {
		made = l.Project.StateRepo()
	}
	return l, made, nil
}

// userHandle opens the user layer to read: nil when it was never made (a
// read makes none).
func userHandle(ctx context.Context) (*readmodel.Handle, error) {
	home, err := project.Home()
	if err != nil {
		return nil, err
	}
	h, _, err := userlayer.Read(ctx, home)
	return h, err
}

// UserRecord is one of the user layer's current learnings and decisions.
type UserRecord struct {
	ID     string         `json:"id"`
	Kind   changelog.Kind `json:"kind"`
	Type   changelog.Type `json:"type,omitempty"`
	Domain string         `json:"domain,omitempty"`
	Title  string         `json:"title"`
	Origin string         `json:"origin,omitempty"`
	Path   string         `json:"path"`
}

// UserListing is the user layer's current learnings and decisions, oldest
// first, and the files no reader could use.
type UserListing struct {
	Records  []UserRecord
	Problems []string
	// Exists is false when the layer was never made.
	Exists bool
}

// UserList lists the user layer's current learnings and decisions.
func (s *Project) UserList(ctx context.Context) (UserListing, error) {
	out := UserListing{Records: []UserRecord{}}
	h, err := userHandle(ctx)
	if err != nil || h == nil {
		return out, err
	}
	defer func() { _ = h.Close() }()
	recs, problems, err := userlayer.List(h)
	if err != nil {
		return out, err
	}
	out.Exists, out.Problems = true, problems
	for _, r := range recs {
		out.Records = append(out.Records, UserRecord{ID: r.ID, Kind: r.Kind, Type: r.Type, Domain: r.Domain, Title: r.Title(), Origin: r.Origin, Path: r.Path})
	}
	return out, nil
}

// UserRemote is the user layer's remote, "" when none is set.
func (s *Project) UserRemote() (string, error) {
	home, err := project.Home()
	if err != nil {
		return "", err
	}
	uc, err := project.LoadUserConfig(home)
	return uc.Remote, err
}

// SetUserRemote makes url the user layer's remote, and returns the file
// that keeps it.
func (s *Project) SetUserRemote(ctx context.Context, url string) (string, error) {
	home, err := project.Home()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, project.UserConfigFile), userlayer.SetRemote(ctx, home, url)
}

// UserPushed is what planq user push did.
type UserPushed struct {
	Remote string `json:"remote"`
	Commit string `json:"commit"`
	// Pulls counts the merges needed because another machine pushed first.
	Pulls int `json:"pulls"`
	// Made is the user layer's path when this push made it.
	Made string `json:"-"`
}

// UserPush publishes the user layer to its remote. allowSecret is refused:
// the user layer keeps no credential.
func (s *Project) UserPush(ctx context.Context, allowSecret bool) (UserPushed, error) {
	if err := userlayer.CheckAllowSecret(allowSecret); err != nil {
		return UserPushed{}, err // before the layer is opened: a refusal makes nothing
	}
	l, made, err := s.syncedLayer(ctx)
	if err != nil {
		return UserPushed{}, err
	}
	defer func() { _ = l.Close() }()
	res, err := l.Push(ctx, allowSecret)
	return UserPushed{Remote: l.Project.Config.Remote, Commit: res.Global, Pulls: res.Pulls, Made: made}, err
}

// UserPulled is what planq user pull did.
type UserPulled struct {
	Remote string `json:"remote"`
	// Outcome is up-to-date, fast-forward, merged, ahead or empty.
	Outcome string `json:"outcome"`
	Before  string `json:"before"`
	After   string `json:"after"`
	// Made is the user layer's path when this pull made it.
	Made string `json:"-"`
}

// UserPull merges the user layer's remote into it, making the layer first
// on a machine that has none.
func (s *Project) UserPull(ctx context.Context) (UserPulled, error) {
	l, made, err := s.syncedLayer(ctx)
	if err != nil {
		return UserPulled{}, err
	}
	defer func() { _ = l.Close() }()
	res, err := l.Pull(ctx)
	return UserPulled{Remote: l.Project.Config.Remote, Outcome: res.Outcome, Before: res.Before, After: res.After, Made: made}, err
}

// syncedLayer opens the user layer for a sync, made on first use; a sync
// that cannot run (no remote, or one git cannot reach) makes no layer.
func (s *Project) syncedLayer(ctx context.Context) (*userlayer.Layer, string, error) {
	home, err := project.Home()
	if err != nil {
		return nil, "", err
	}
	if err := userlayer.CheckRemote(home); err != nil {
		return nil, "", err
	}
	return s.layer(ctx, true)
}

// UserPruned is what planq user prune archived, with prune's JSON.
type UserPruned struct {
	lifecycle.PruneResult
	// Made is the user layer's path when this prune made it.
	Made string `json:"-"`
}

// UserPrune archives the user layer's learnings that outlived their shelf
// life, as prune does a project's global; dryRun writes nothing.
func (s *Project) UserPrune(ctx context.Context, dryRun bool) (UserPruned, error) {
	l, made, err := s.layer(ctx, true)
	if err != nil {
		return UserPruned{}, err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	res, err := lifecycle.Prune(ctx, l.Store, lifecycle.PruneOptions{Now: time.Now(), DryRun: dryRun, Writer: userlayer.Writer})
	return UserPruned{PruneResult: res, Made: made}, err
}

// AdoptInput is what planq adopt takes: the user layer's records to copy
// into the project, as records of the agent.
type AdoptInput struct {
	Agent       string
	IDs         []string
	DryRun      bool
	AllowSecret bool
}

// Adopt copies the user layer's learnings and decisions into the project
// as new records of the agent, each once.
func (s *Project) Adopt(ctx context.Context, in AdoptInput) (userlayer.Adopted, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return userlayer.Adopted{}, err
	}
	l, err := userHandle(ctx)
	if err != nil {
		return userlayer.Adopted{}, err
	}
	if l == nil {
		return userlayer.Adopted{}, planqerr.New(planqerr.NotFound, "the user layer", "does not exist yet, so it holds nothing to adopt").
			WithHint("record there first: 'planq learn INSIGHT --scope user', or from another project 'planq context promote --to user ID'")
	}
	defer func() { _ = l.Close() }()
	return userlayer.Adopt(ctx, l, a, userlayer.AdoptOptions{IDs: in.IDs, DryRun: in.DryRun, AllowSecret: in.AllowSecret})
}
