package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Project is a planq project as seen from one code checkout.
type Project struct {
	// Root is the checkout whose .planq/config was read.
	Root string
	// Workspace is the code checkout the command runs in; it equals Root in
	// the main checkout and differs in a linked worktree without its own config.
	Workspace string
	// CommonGitDir is the code repository's shared git directory.
	CommonGitDir string
	Config       Config
	// Home is PLANQ_HOME.
	Home string
}

// Home returns PLANQ_HOME, defaulting to ~/.planq.
func Home() (string, error) {
	if h := os.Getenv("PLANQ_HOME"); h != "" {
		return filepath.Abs(h)
	}
	dir, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("failed to find the home directory: %w", err)
	}
	return filepath.Join(dir, ".planq"), nil
}

// StateRepo is the path of the project's bare state repository.
func (p *Project) StateRepo() string { return StateRepoPath(p.Home, p.Config.Project) }

// StateRepoPath is where the state repository of project lives under home.
func StateRepoPath(home, project string) string {
	return filepath.Join(StateReposDir(home), project+".git")
}

// StateReposDir is the directory of every state repository under home.
func StateReposDir(home string) string { return filepath.Join(home, "state-repos") }

// OrphansDir is where doctor moves what a crash left of the project's
// agents, never deleting it.
func (p *Project) OrphansDir() string { return filepath.Join(p.Home, "orphans", p.Config.Project) }

// ModelsDir is where fetched models, and the tables planq converts them
// to, live under home.
func ModelsDir(home string) string { return filepath.Join(home, "models") }

// UsesJournal is where the uses an agent's reads noted since its last
// commit wait, outside git: a read appends a line, the agent's next commit
// folds them into its uses file (UsesPath).
func (p *Project) UsesJournal(agent string) string {
	return filepath.Join(p.Home, "uses", p.Config.Project, agent+".log")
}

// CacheDir is where caches of the project live; everything there can be rebuilt.
func (p *Project) CacheDir() string { return filepath.Join(p.Home, "cache", p.Config.Project) }

// WorkspacesDir is where `planq create` makes code workspaces.
func (p *Project) WorkspacesDir() string {
	ws := p.Config.Workspaces
	switch {
	case ws == "":
		return filepath.Join(p.Home, "workspaces", p.Config.Project)
	case strings.HasPrefix(ws, "~/"):
		if dir, err := os.UserHomeDir(); err == nil {
			return filepath.Join(dir, ws[2:])
		}
	case !filepath.IsAbs(ws):
		return filepath.Join(p.Root, ws)
	}
	return filepath.Clean(ws)
}

// WorkspacePath is the code workspace `planq create name` makes.
func (p *Project) WorkspacePath(name string) string {
	return filepath.Join(p.WorkspacesDir(), name)
}

// Checkout is a code checkout found by walking up from a directory: its root
// and its git directories. It need not be a planq project yet.
type Checkout struct {
	Root         string
	CommonGitDir string
	// MainRoot is the main worktree of the repository; it equals Root unless
	// Root is a linked worktree.
	MainRoot string
}

// FindCheckout walks up from dir to the root of the enclosing code checkout.
// A directory inside a mounted agent (.planq/agent) belongs to the checkout
// that mounts it, not to the state repository.
func FindCheckout(dir string) (Checkout, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Checkout{}, fmt.Errorf("failed to resolve %s: %w", dir, err)
	}
	dir = outsideAgentMount(dir)
	for d := dir; ; d = filepath.Dir(d) {
		info, err := os.Stat(filepath.Join(d, ".git"))
		if err == nil {
			return describeCheckout(d, info)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return Checkout{}, fmt.Errorf("failed to inspect %s: %w", d, err)
		}
		if filepath.Dir(d) == d {
			return Checkout{}, planqerr.New(planqerr.NotInitialized, dir, "not inside a git repository").
				WithHint("run planq inside a git checkout, or 'git init' first")
		}
	}
}

// outsideAgentMount maps a path inside <checkout>/.planq/agent to <checkout>.
func outsideAgentMount(dir string) string {
	marker := string(filepath.Separator) + filepath.FromSlash(AgentMount)
	if i := strings.Index(dir+string(filepath.Separator), marker+string(filepath.Separator)); i >= 0 {
		return dir[:i]
	}
	return dir
}

func describeCheckout(root string, dotGit fs.FileInfo) (Checkout, error) {
	if dotGit.IsDir() {
		common := filepath.Join(root, ".git")
		return Checkout{Root: root, CommonGitDir: common, MainRoot: root}, nil
	}
	gitDir, err := readGitFile(filepath.Join(root, ".git"))
	if err != nil {
		return Checkout{}, err
	}
	common := gitDir
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	main := root
	if filepath.Base(common) == ".git" {
		main = filepath.Dir(common)
	}
	return Checkout{Root: root, CommonGitDir: common, MainRoot: main}, nil
}

// readGitFile resolves a ".git" file ("gitdir: <path>") to the directory it names.
func readGitFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("failed to read %s: %w", path, err)
	}
	line := strings.TrimSpace(string(data))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", planqerr.New(planqerr.Corrupt, path, "not a git file (no 'gitdir:' line)")
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target), nil
}

// Find returns the planq project enclosing dir.
func Find(dir string) (*Project, error) {
	co, err := FindCheckout(dir)
	if err != nil {
		return nil, err
	}
	home, err := Home()
	if err != nil {
		return nil, err
	}
	for _, root := range []string{co.Root, co.MainRoot} {
		if _, err := os.Stat(filepath.Join(root, ConfigPath)); err != nil {
			continue
		}
		cfg, err := LoadConfig(root)
		if err != nil {
			return nil, err
		}
		p := &Project{Root: root, Workspace: co.Root, CommonGitDir: co.CommonGitDir, Config: cfg, Home: home}
		// Every command in a project passes here: other projects read whose
		// state repository this is from what it records (planq projects,
		// search across projects). A failure to record costs only that.
		_ = p.Register()
		return p, nil
	}
	return nil, planqerr.New(planqerr.NotInitialized, co.Root, "not a planq project (no %s)", ConfigPath).
		WithHint("run 'planq init' in the repository first")
}
