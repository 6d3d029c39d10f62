package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/team"
)

// InitOptions are the choices of `planq init`.
type InitOptions struct {
	// Project names the project; empty means the existing config's name, or
	// the repository directory's name.
	Project string
	// Remote is the team remote to record in a new config.
	Remote string
}

// InitResult says what Init changed; all false means nothing.
type InitResult struct {
	Project      *project.Project
	WroteConfig  bool
	AddedExclude bool
	// SetRemote is true when an existing config got the team remote.
	SetRemote bool
	State     StateInit
}

// excludeLine keeps every workspace's mounted agent out of the code repo.
const excludeLine = "/" + project.AgentMount + "/"

// Init makes the code checkout at dir a planq project. It is idempotent.
func Init(ctx context.Context, dir string, opts InitOptions) (InitResult, error) {
	if opts.Remote != "" {
		if err := project.CheckRemoteCredential(opts.Remote, "planq init --remote %s"); err != nil {
			return InitResult{}, err
		}
	}
	co, err := project.FindCheckout(dir)
	if err != nil {
		return InitResult{}, err
	}
	home, err := project.Home()
	if err != nil {
		return InitResult{}, err
	}
	var res InitResult
	cfgPath := filepath.Join(co.Root, project.ConfigPath)
	cfg, configBefore, err := initConfig(co, opts, &res)
	if err != nil {
		return res, err
	}
	p := &project.Project{Root: co.Root, Workspace: co.Root, CommonGitDir: co.CommonGitDir, Config: cfg, Home: home}
	res.Project = p
	if res.AddedExclude, err = EnsureExclude(co.CommonGitDir); err != nil {
		return res, err
	}
	res.State, err = InitState(ctx, p)
	// Nothing half-made: without a state repository the config goes too,
	// or goes back to what it was.
	switch {
	case err != nil && res.WroteConfig:
		_ = os.Remove(cfgPath)
		res.WroteConfig = false
	case err != nil && res.SetRemote:
		_ = os.WriteFile(cfgPath, configBefore, 0o644)
		res.SetRemote = false
	}
	return res, err
}

// initConfig is the project's config: the one the checkout has, given
// opts.Remote when it names none, or a new one written. It returns the
// config as it was, when init changes it, and says in res what it did.
func initConfig(co project.Checkout, opts InitOptions, res *InitResult) (project.Config, []byte, error) {
	cfgPath := filepath.Join(co.Root, project.ConfigPath)
	cfg, err := project.LoadConfig(co.Root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		cfg, err = writeNewConfig(co, cfgPath, opts)
		res.WroteConfig = err == nil
		return cfg, nil, err
	case err != nil:
		return cfg, nil, err
	}
	if opts.Project != "" && opts.Project != cfg.Project {
		return cfg, nil, planqerr.New(planqerr.Exists, cfgPath, "already names project %q", cfg.Project).
			WithHint("edit %s by hand to rename the project", project.ConfigPath)
	}
	switch {
	case opts.Remote == "" || opts.Remote == cfg.Remote:
		return cfg, nil, nil
	case cfg.Remote != "":
		return cfg, nil, planqerr.New(planqerr.Exists, cfgPath, "already names the team remote %s", cfg.Remote).
			WithHint("replace it: planq state remote add origin %s --replace", opts.Remote)
	}
	before, err := os.ReadFile(cfgPath)
	if err != nil {
		return cfg, nil, fmt.Errorf("failed to read %s: %w", cfgPath, err)
	}
	cfg.Remote = opts.Remote
	if err := project.SaveConfig(co.Root, cfg); err != nil {
		return cfg, nil, err
	}
	res.SetRemote = true
	return cfg, before, nil
}

// writeNewConfig writes the config of a new project, named by opts or
// for the checkout's directory.
func writeNewConfig(co project.Checkout, cfgPath string, opts InitOptions) (project.Config, error) {
	name := opts.Project
	if name == "" {
		name = nameFromDir(co.MainRoot)
	}
	if err := project.ValidateName("project", name); err != nil {
		return project.Config{}, err
	}
	cfg := project.DefaultConfig(name)
	cfg.Remote = opts.Remote
	data, err := cfg.Marshal()
	if err != nil {
		return project.Config{}, err
	}
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o755); err != nil {
		return project.Config{}, fmt.Errorf("failed to create %s: %w", filepath.Dir(cfgPath), err)
	}
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		return project.Config{}, fmt.Errorf("failed to write %s: %w", cfgPath, err)
	}
	return cfg, nil
}

// StateInit says what InitState did.
type StateInit struct {
	Created bool
	// Fetched is true when global came from the team's remote.
	Fetched bool
}

// InitState creates the project's state repository if it is missing. When
// the config names a team remote, global comes from there.
//
// A state repository that belongs to another code repository (one whose
// directory has the same name, say) is refused, not shared.
func InitState(ctx context.Context, p *project.Project) (StateInit, error) {
	owner, err := ownerOf(ctx, p) // read once: checked before, recorded after
	if err != nil {
		return StateInit{}, err
	}
	if err := claimState(ctx, p, owner, true); err != nil {
		return StateInit{}, err
	}
	var res StateInit
	if p.Config.Remote != "" {
		res.Created, res.Fetched, err = team.InitFromRemote(ctx, p)
	} else {
		res.Created, err = team.InitGlobal(ctx, p.StateRepo(), p.Config.Project)
	}
	if err != nil {
		return res, err
	}
	if err := claimState(ctx, p, owner, false); err != nil {
		return res, err
	}
	// Recorded now, not at the next command: search across projects reads
	// whether a project opted out from here, and skips one never recorded.
	return res, p.Register()
}

// EnsureExclude adds the agent mount to the repository's info/exclude,
// shared by all its worktrees, and reports whether it had to.
func EnsureExclude(commonGitDir string) (bool, error) {
	path := filepath.Join(commonGitDir, "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("failed to read %s: %w", path, err)
	}
	if hasExclude(data) {
		return false, nil
	}
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	data = append(data, []byte("# planq: agent state is a separate repository\n"+excludeLine+"\n")...)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return false, fmt.Errorf("failed to write %s: %w", path, err)
	}
	return true, nil
}

func hasExclude(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		switch strings.TrimSpace(line) {
		case excludeLine, strings.TrimSuffix(excludeLine, "/"), ".planq/agent", ".planq/agent/":
			return true
		}
	}
	return false
}

// nameFromDir turns a directory name into a valid project name.
func nameFromDir(dir string) string {
	var b strings.Builder
	for _, r := range filepath.Base(dir) {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteRune('-')
		}
	}
	name := strings.Trim(b.String(), "-_")
	if len(name) > project.MaxNameLen {
		name = name[:project.MaxNameLen]
	}
	if name == "" {
		name = "project"
	}
	return name
}
