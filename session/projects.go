package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// ProjectInfo is one state repository on this machine, as planq projects
// lists it.
type ProjectInfo struct {
	// Name is the project's name; the user layer's is project.UserLayerName.
	Name string `json:"name"`
	// UserLayer marks the user layer's row.
	UserLayer bool `json:"user_layer"`
	// Current marks the project the command ran in.
	Current   bool   `json:"current"`
	StateRepo string `json:"state_repo"`
	// Size is what the state repository takes on disk, in bytes.
	Size int64 `json:"size"`
	// LastActivity is the time of the newest commit its branches point at;
	// zero when none reads.
	LastActivity time.Time `json:"last_activity"`
	// CodeRepo is the code repository it belongs to, as the last command
	// run in it recorded (project.Registration); "" when none did.
	CodeRepo string `json:"code_repo"`
	// Private says the project opted out: it is never searched from
	// another project.
	Private bool `json:"private"`
	// Records counts its current records; -1 when they did not read.
	Records int `json:"records"`
	// Problem says what is wrong with it, when something is: a repository
	// that does not open, records that do not read.
	Problem string `json:"problem,omitempty"`
}

// userLayerLabel is how the user layer is named where a project's name
// would stand: no project name has a space.
const userLayerLabel = "user layer"

// Label is how a listing names the repository: the project's name, or
// "user layer".
func (pi ProjectInfo) Label() string {
	if pi.UserLayer {
		return userLayerLabel
	}
	return pi.Name
}

// stateRepo is one state repository found under $PLANQ_HOME/state-repos.
type stateRepo struct {
	name string
	path string
	// code is its code repository, once read from its registration.
	code string
	// problem says why the entry cannot be a state repository (a plain
	// file, a symbolic link to nothing); "" when it is a directory.
	problem string
}

// stateRepos lists the state repositories under home, sorted by name (the
// user layer among them): every entry named <name>.git. One that is no
// directory (a plain file, a symbolic link to nothing) is listed with its
// problem: a listing that left it out would hide why a project's memory
// is not there.
func stateRepos(home string) ([]stateRepo, error) {
	dir := project.StateReposDir(home)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to list the state repositories: %w", err)
	}
	var out []stateRepo
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".git")
		if !ok || name == "" {
			continue
		}
		sr := stateRepo{name: name, path: filepath.Join(dir, e.Name())}
		if !e.IsDir() {
			sr.problem = notDirProblem(sr.path, e.Type())
		}
		out = append(out, sr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// notDirProblem says why path, an entry of the given type that is no
// directory, is no state repository; "" for a symbolic link to one, which
// is read through as the directory it names.
func notDirProblem(path string, typ fs.FileMode) string {
	if typ&fs.ModeSymlink == 0 {
		return "a file, not a state repository (a bare git repository, a directory): remove it or move it out of state-repos"
	}
	target, _ := os.Readlink(path)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("a symbolic link to %s, which does not exist: remove it or point it at the state repository", target)
	case err != nil:
		return fmt.Sprintf("a symbolic link to %s, which does not resolve: %v", target, errors.Unwrap(err))
	case !info.IsDir():
		return fmt.Sprintf("a symbolic link to %s, a file, not a state repository (a bare git repository, a directory)", target)
	}
	return ""
}

// privacy is what this machine knows of whether the project name opted
// out, and where its code is: the project's own .planq/config in the code
// repository its state repository records, when that is still there and
// still names it (a flag set since the last command in it counts at
// once), else the flag recorded. known is false when nothing was ever
// recorded: then the project may have opted out, and is never searched.
func privacy(home, name string) (private bool, codeRepo string, known bool, err error) {
	reg, ok, err := project.ReadRegistration(home, name)
	if err != nil || !ok {
		return false, "", false, err
	}
	if cfg, err := project.LoadConfig(reg.CodeRepo); err == nil && cfg.Project == name {
		return cfg.Private, reg.CodeRepo, true, nil
	}
	return reg.Private, reg.CodeRepo, true, nil
}

// cacheDirOf is where the read model of the state repository name lives.
func cacheDirOf(home, name string) string {
	return (&project.Project{Home: home, Config: project.Config{Project: name}}).CacheDir()
}

// Projects lists the state repositories on this machine: each with its
// size, last activity, code repository, whether it opted out, and its
// count of current records; the one the service was opened in marked
// current. A repository that does not open or read is listed with its
// problem; only a home that cannot be listed fails. It needs no project.
func (s *Project) Projects(ctx context.Context) ([]ProjectInfo, error) {
	home, err := s.Home()
	if err != nil {
		return nil, err
	}
	current := "" // outside a project, none is current
	if p, err := s.project(); err == nil {
		current = p.Config.Project
	}
	repos, err := stateRepos(home)
	if err != nil {
		return nil, err
	}
	out := make([]ProjectInfo, len(repos))
	eachBounded(len(repos), func(i int) {
		out[i] = describeProject(ctx, home, repos[i], current)
	})
	return out, ctx.Err()
}

func describeProject(ctx context.Context, home string, sr stateRepo, current string) ProjectInfo {
	pi := ProjectInfo{Name: sr.name, UserLayer: sr.name == project.UserLayerName, Current: sr.name == current,
		StateRepo: sr.path, Records: -1}
	if sr.problem != "" {
		pi.Size, _ = dirSize(sr.path)
		pi.Problem = sr.problem
		return pi
	}
	var problems []string
	var err error
	pi.Size, err = dirSize(sr.path)
	if err != nil {
		problems = append(problems, err.Error())
	}
	if !pi.UserLayer {
		private, code, _, err := privacy(home, sr.name)
		if err != nil {
			problems = append(problems, err.Error())
		}
		pi.Private, pi.CodeRepo = private, code
	}
	if ctx.Err() != nil {
		return pi
	}
	repo, err := staterepo.Open(sr.path)
	if err != nil {
		pi.Problem = strings.Join(append(problems, err.Error()), "; ")
		return pi
	}
	if pi.LastActivity, err = lastActivity(repo); err != nil {
		problems = append(problems, err.Error())
	}
	n, bad, err := readmodel.Open(repo, cacheDirOf(home, sr.name)).CountCurrent()
	switch {
	case err != nil:
		problems = append(problems, err.Error())
	case len(bad) > 0:
		pi.Records = n
		problems = append(problems, fmt.Sprintf("%d record files do not read ('planq validate' in the project names them)", len(bad)))
	default:
		pi.Records = n
	}
	pi.Problem = strings.Join(problems, "; ")
	return pi
}

// lastActivity is the time of the newest commit a branch of repo points at,
// leaving out the commits every state repository starts with: zero when
// there is none other.
func lastActivity(repo *staterepo.Repo) (time.Time, error) {
	refs, err := repo.Refs("refs/heads/")
	if err != nil {
		return time.Time{}, err
	}
	var newest time.Time
	for ref, h := range refs {
		c, err := repo.Commit(h)
		if err != nil {
			return newest, fmt.Errorf("failed to read the tip of %s: %w", strings.TrimPrefix(ref, "refs/heads/"), err)
		}
		if !c.Time.After(newest) {
			continue
		}
		initial, err := initialOnly(repo, c)
		if err != nil {
			return newest, fmt.Errorf("failed to read the history of %s: %w", strings.TrimPrefix(ref, "refs/heads/"), err)
		}
		if !initial {
			newest = c.Time
		}
	}
	return newest.UTC(), nil
}

// maxInitialCommits bounds how far initialOnly walks: a new global has two
// commits, and no planq makes more before its first real one.
const maxInitialCommits = 8

// initialOnly reports whether tip is one of the commits a state repository
// is created with (staterepo.CreateGlobal), which are dated alike on every
// machine so that two machines' globals share them: that date says nothing
// of when anyone used it. They are told by their history: a root commit, or
// a commit as old as its first parent, and so on down to a root. A real
// commit is younger than the one before it, and is reached in one step.
func initialOnly(repo *staterepo.Repo, tip staterepo.Commit) (bool, error) {
	c := tip
	for range maxInitialCommits {
		if len(c.Parents) == 0 {
			return true, nil
		}
		parent, err := repo.Commit(c.Parents[0])
		if err != nil {
			return false, err
		}
		if !parent.Time.Equal(c.Time) {
			return false, nil
		}
		c = parent
	}
	return false, nil
}

// dirSize adds up the sizes of the files under dir (under the directory
// it names, when it is a symbolic link).
func dirSize(dir string) (int64, error) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("failed to measure %s: %w", dir, err)
	}
	return n, nil
}

// eachBounded calls fn(0) to fn(n-1), a few at a time: reading several
// state repositories at once overlaps their waits on the disk, and more
// at once than there are processors only adds contention.
func eachBounded(n int, fn func(i int)) {
	workers := min(max(runtime.GOMAXPROCS(0), 2), 8, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Sharing lists the state repositories under home with what the review
// page shows of each: its name, its code repository and whether it opted
// out (private: never searched from another project, never promoted
// from). It opens no repository, so a page shows it at no cost; current
// names the project the page is for.
func Sharing(home, current string) ([]ProjectInfo, error) {
	repos, err := stateRepos(home)
	if err != nil {
		return nil, err
	}
	out := make([]ProjectInfo, 0, len(repos))
	for _, sr := range repos {
		pi := ProjectInfo{Name: sr.name, UserLayer: sr.name == project.UserLayerName, Current: sr.name == current,
			StateRepo: sr.path, Records: -1}
		if sr.problem != "" {
			pi.Problem = sr.problem
		} else if !pi.UserLayer {
			private, code, known, err := privacy(home, sr.name)
			switch {
			case err != nil:
				pi.Problem = err.Error()
			case !known:
				pi.Problem = "no command has run in it since planq recorded projects: it is searched from nowhere until one does"
			}
			pi.Private, pi.CodeRepo = private, code
		}
		out = append(out, pi)
	}
	return out, nil
}
