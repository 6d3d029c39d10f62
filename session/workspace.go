package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/hooks"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/workspace"
)

// InitInput is what planq init takes: the project's name and team remote.
type InitInput = workspace.InitOptions

// CreateInput is what planq create takes.
type CreateInput = workspace.CreateOptions

// Finding is one problem doctor found, and whether it fixed it.
type Finding = workspace.Finding

// Init makes the code checkout the service was opened in a planq project;
// running it again changes nothing.
func (s *Project) Init(ctx context.Context, in InitInput) (InitResult, error) {
	if in.Remote != "" {
		if err := project.CheckRemoteURL(s.dir, in.Remote); err != nil {
			return InitResult{}, err
		}
	}
	// A project already set up here may have an agent mounted from a state
	// repository that was moved away: following "run 'planq init'" must not
	// put a new one in its place.
	if p, err := s.project(); err == nil {
		if err := workspace.RefuseOverDeadMount(p); err != nil {
			return InitResult{}, err
		}
	}
	res, err := workspace.Init(ctx, s.dir, in)
	s.located = false // what was found before init is stale now
	return res, err
}

// InitResult says what Init and InitState did.
type InitResult = workspace.InitResult

// InitState creates the state repository of a project whose config is
// already committed (a fresh clone, a new machine), from the team's
// remote when the config names one. Its result holds only Project and
// State.
func (s *Project) InitState(ctx context.Context) (InitResult, error) {
	p, err := s.project()
	if err != nil {
		return InitResult{}, err
	}
	if err := workspace.RefuseOverDeadMount(p); err != nil {
		return InitResult{}, err
	}
	state, err := workspace.InitState(ctx, p)
	return InitResult{Project: p, State: state}, err
}

// Create makes an agent: its branch, its worktree and, unless it is
// mounted here, a code workspace.
func (s *Project) Create(ctx context.Context, in CreateInput) (workspace.Created, error) {
	p, err := s.project()
	if err != nil {
		return workspace.Created{}, err
	}
	return workspace.Create(ctx, p, in)
}

// Remove unmounts agent name, saving its pending state first; force
// removes it even with uncommitted code or notes no note may hold.
func (s *Project) Remove(ctx context.Context, name string, force bool) (workspace.Removed, error) {
	p, err := s.project()
	if err != nil {
		return workspace.Removed{}, err
	}
	return workspace.Remove(ctx, p, name, force)
}

// Env is the environment of agent name (the one mounted here when empty),
// which must be mounted.
func (s *Project) Env(ctx context.Context, name string) (workspace.Env, error) {
	a, err := s.agent(ctx, name)
	if err != nil {
		return workspace.Env{}, err
	}
	if _, err := a.Worktree(); err != nil {
		return workspace.Env{}, err
	}
	p, err := s.project()
	if err != nil {
		return workspace.Env{}, err
	}
	return workspace.EnvFor(p, a.Name, a.Workspace), nil
}

// Checkup is what doctor found in the project and the user layer.
type Checkup struct {
	Findings []Finding
	// Project is the project checked, "" outside one: then the user layer
	// alone was.
	Project string
	// UserLayer is the user layer's path, and UserLayerExists whether it
	// was there to check.
	UserLayer       string
	UserLayerExists bool
}

// Doctor checks the project (when the service was opened in one) and the
// user layer, and with fix repairs what it can. Outside a project, with
// no user layer either, there is nothing to check: that is the error.
func (s *Project) Doctor(ctx context.Context, fix bool) (Checkup, error) {
	p, perr := s.project()
	if perr != nil && !planqerr.Is(perr, planqerr.NotInitialized) {
		return Checkup{}, perr
	}
	home, err := s.Home()
	if err != nil {
		return Checkup{}, err
	}
	c := Checkup{Findings: []Finding{}, UserLayer: project.StateRepoPath(home, project.UserLayerName)}
	if p != nil {
		c.Project = p.Config.Project
		found, err := workspace.Doctor(ctx, p, fix)
		if err != nil {
			return c, err
		}
		c.Findings = append(c.Findings, found...)
	} else if !userlayer.Exists(home) {
		return c, perr
	}
	user, _, err := workspace.DoctorUser(ctx, home, fix)
	if err != nil {
		return c, fmt.Errorf("failed to check the user layer: %w", err)
	}
	c.Findings = append(c.Findings, user...)
	c.UserLayerExists = userlayer.Exists(home)
	return c, nil
}

// GitHookSet says what installing or removing a git hook changed.
type GitHookSet struct {
	// Path is the hook's file.
	Path string
	// Chained is the user's own hook, moved aside to run first.
	Chained string
	// Changed is false when the hook was already as asked.
	Changed bool
	// Switch is the key of .planq/config set (hooks.post_checkout), ""
	// when it was already so.
	Switch string
}

// SetGitHook installs (or removes) planq's git hook name in the code
// repository, running planq at self, and sets its switch in .planq/config
// to match.
func (s *Project) SetGitHook(ctx context.Context, name string, install bool, self string) (GitHookSet, error) {
	p, err := s.project()
	if err != nil {
		return GitHookSet{}, err
	}
	dir, err := staterepo.OpenCode(p.Workspace).HooksDir(ctx)
	if err != nil {
		return GitHookSet{}, err
	}
	set := GitHookSet{Path: filepath.Join(dir, name)}
	if install {
		res, err := hooks.InstallGitHook(dir, name, self)
		if err != nil {
			return set, err
		}
		set.Path, set.Chained, set.Changed = res.Path, res.Chained, res.Changed
	} else if set.Changed, err = hooks.RemoveGitHook(dir, name); err != nil {
		return set, err
	}
	cfg := p.Config
	on := hookSwitch(&cfg, name)
	if on == nil || *on == install {
		return set, nil
	}
	*on = install
	if err := project.SaveConfig(p.Root, cfg); err != nil {
		return set, err
	}
	set.Switch = "hooks." + strings.ReplaceAll(name, "-", "_")
	return set, nil
}

// GitHookOn reports whether .planq/config switches git hook name on.
func (s *Project) GitHookOn(name string) (bool, error) {
	p, err := s.project()
	if err != nil {
		return false, err
	}
	on := hookSwitch(&p.Config, name)
	return on != nil && *on, nil
}

// hookSwitch is git hook name's switch in cfg, nil for a hook planq has
// none of.
func hookSwitch(cfg *project.Config, name string) *bool {
	return map[string]*bool{"post-checkout": &cfg.Hooks.PostCheckout, "post-commit": &cfg.Hooks.PostCommit}[name]
}

// CodeTracked is the code checkout of the project and whether git tracks
// a file there, for setup's --remove never to delete one; files outside it
// are no code. When git cannot answer, the file counts as tracked: keeping
// it is the safe side.
func (s *Project) CodeTracked(ctx context.Context) (root string, tracked func(path string) bool, err error) {
	p, err := s.project()
	if err != nil {
		return "", nil, err
	}
	code := staterepo.OpenCode(p.Root)
	return p.Root, func(path string) bool {
		rel, err := filepath.Rel(p.Root, path)
		if err != nil || !filepath.IsLocal(rel) {
			return false
		}
		tracked, err := code.Tracked(ctx, rel)
		return tracked || err != nil
	}, nil
}
