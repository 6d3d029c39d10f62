package readmodel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Handle is a project opened to read: its state repository and record
// cache, and no writer. Readers (search, get, the session context, the
// review page, MCP's read tools) take it; the write side's store holds one
// and hands it out.
type Handle struct {
	Project *project.Project
	// repo is read through the reader's methods alone: what a read needs
	// of git, the read model answers.
	repo *staterepo.Repo
	// Records reads the records, through the project's record cache.
	Records *Reader
}

// OpenHandle opens the project's state repository and its record cache. Its
// reader reports its builds from git to the Progress ctx carries.
func OpenHandle(ctx context.Context, p *project.Project) (*Handle, error) {
	// Before Open: a missing repository's own error would send the user to
	// 'planq init', which must not make a new one over an agent's history.
	if err := staterepo.CheckMounts(p); err != nil {
		return nil, err
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return nil, err
	}
	return Attach(ctx, p, repo), nil
}

// Attach is the handle of p's state repository, opened already: the
// writer's store, which holds the repository, reads through it.
func Attach(ctx context.Context, p *project.Project, repo *staterepo.Repo) *Handle {
	rd := Open(repo, p.CacheDir())
	rd.ReportBuilds(ProgressOf(ctx))
	rd.UseModel(func(ctx context.Context) (embed.Model, error) { return ProjectModel(ctx, p) })
	return NewHandle(p, repo, rd)
}

// NewHandle is the handle of p's state repository read through rd: for a
// reader set up otherwise (the search evaluation's).
func NewHandle(p *project.Project, repo *staterepo.Repo, rd *Reader) *Handle {
	return &Handle{Project: p, repo: repo, Records: rd}
}

// Git is what a read asks of git beyond the read model's indexes (a
// promote's preview, a proposal's blob, an article's history): reads
// alone.
func (h *Handle) Git() staterepo.Reads { return h.repo }

// Close saves what the record cache learned. Losing it costs only time.
func (h *Handle) Close() error { return h.Records.Close() }

// AgentNames lists the agents that have a branch, sorted.
func (h *Handle) AgentNames() ([]string, error) { return h.Records.AgentNames() }

// Ref names what a read reads: an agent (its branch and, when mounted, its
// worktree and workspace) or global. It is plain data; nothing writes
// through it.
type Ref struct {
	Name   string
	Branch string
	// Dir is the mounted state worktree (<workspace>/.planq/agent), or ""
	// when the agent is not mounted anywhere (and for global).
	Dir string
	// Workspace is the code checkout the agent is mounted in.
	Workspace string
}

// Global reports whether r is the team's branch rather than an agent's.
func (r Ref) Global() bool { return r.Branch == project.GlobalBranch }

// Global is the team's branch as a reader names it: no agent, no worktree.
func (h *Handle) Global() Ref {
	return Ref{Name: project.GlobalBranch, Branch: project.GlobalBranch}
}

// Agent finds the agent called name, mounted or not.
func (h *Handle) Agent(name string) (Ref, error) {
	if err := project.ValidateName("agent", name); err != nil {
		return Ref{}, err
	}
	branch := project.AgentBranch(name)
	if _, err := h.repo.Tip(branch); err != nil {
		if planqerr.Is(err, planqerr.NotFound) {
			return Ref{}, planqerr.New(planqerr.NotFound, `agent "`+name+`"`, "does not exist").
				WithHint("run 'planq list' to see the agents, or 'planq create %s'", name)
		}
		return Ref{}, err
	}
	r := Ref{Name: name, Branch: branch}
	wt, ok, err := h.repo.WorktreeOf(branch)
	if err != nil {
		return Ref{}, err
	}
	if ok && !wt.Missing {
		r.Dir = wt.Path
		r.Workspace = WorkspaceOf(wt.Path)
	}
	return r, nil
}

// AgentAt finds the agent mounted in the workspace at dir, if any.
func (h *Handle) AgentAt(workspace string) (Ref, bool, error) {
	dir := filepath.Join(workspace, project.AgentMount)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return Ref{}, false, nil
	}
	branch, err := h.repo.OpenWorktree(dir).Branch()
	if err != nil {
		return Ref{}, false, err
	}
	name, ok := strings.CutPrefix(branch, project.AgentBranchPrefix)
	if !ok {
		return Ref{}, false, planqerr.New(planqerr.Corrupt, dir, "has branch %s checked out, not an agent branch", branch).
			WithHint("switch it back: git -C %s switch agent-<name>", dir)
	}
	return Ref{Name: name, Branch: branch, Dir: dir, Workspace: workspace}, true, nil
}

// Resolve finds the agent a command acts on: the one named, else the one
// mounted in the current workspace, else the one PLANQ_AGENT_DIR points at.
func (h *Handle) Resolve(name string) (Ref, error) {
	if name != "" {
		return h.Agent(name)
	}
	if r, ok, err := h.AgentAt(h.Project.Workspace); ok || err != nil {
		return r, err
	}
	if dir := os.Getenv("PLANQ_AGENT_DIR"); dir != "" {
		if r, ok, err := h.AgentAt(WorkspaceOf(dir)); ok || err != nil {
			return r, err
		}
	}
	return Ref{}, planqerr.New(planqerr.NotFound, h.Project.Workspace, "no agent is mounted here").
		WithHint("name the agent ('planq list' shows them), work in an agent's workspace, or mount one here: planq create NAME --here")
}

// Reader finds what a read reads: the agent named, else the one mounted
// here; where none is named and none is mounted (a lead's main checkout,
// say), global, read only.
func (h *Handle) Reader(name string) (Ref, error) {
	r, err := h.Resolve(name)
	if err != nil && name == "" && planqerr.Is(err, planqerr.NotFound) {
		return h.Global(), nil
	}
	return r, err
}

// WorkspaceOf maps <workspace>/.planq/agent to <workspace>.
func WorkspaceOf(agentDir string) string { return filepath.Dir(filepath.Dir(agentDir)) }

// The heading a focus file starts with, which Focus leaves out.
const focusHeading = "# Current focus"

// Scratch returns the scratch notes of r: as on disk when the agent is
// mounted (an agent may edit the file by hand), else as committed.
func (h *Handle) Scratch(r Ref) (string, error) { return h.readNote(r, project.ScratchFile) }

// Focus returns the current focus of r, without the file's heading.
func (h *Handle) Focus(r Ref) (string, error) {
	text, err := h.readNote(r, project.FocusFile)
	return strings.TrimSpace(strings.TrimPrefix(text, focusHeading)), err
}

func (h *Handle) readNote(r Ref, name string) (string, error) {
	if r.Dir != "" && !h.Records.Pinned() {
		data, err := os.ReadFile(filepath.Join(r.Dir, name))
		if err == nil || !errors.Is(err, os.ErrNotExist) {
			return string(data), err
		}
	}
	tip, err := h.Records.Tip(r.Branch)
	if planqerr.Is(err, planqerr.NotFound) && h.Records.Pinned() {
		return "", nil // the agent did not exist yet
	}
	if err != nil {
		return "", err
	}
	data, err := h.Records.FileAt(tip, name)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return string(data), err
}

// BranchContext returns the context of a code branch as r sees it: its own
// working copy, else what it committed, else what global holds. The second
// result says which ("agent" or "global"); nil when there is none.
func (h *Handle) BranchContext(r Ref, branch string) (*branchctx.Context, string, error) {
	rel := branchctx.Path(branch)
	if r.Dir != "" && !h.Records.Pinned() {
		if data, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(rel))); err == nil {
			c, err := ParseBranchContext(rel, data)
			return c, "agent", err
		}
	}
	for _, from := range []string{r.Branch, project.GlobalBranch} {
		tip, err := h.Records.Tip(from)
		if planqerr.Is(err, planqerr.NotFound) && h.Records.Pinned() {
			continue // not there yet at that moment
		}
		if err != nil {
			return nil, "", err
		}
		data, err := h.Records.FileAt(tip, rel)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		c, err := ParseBranchContext(rel, data)
		source := "agent"
		if from == project.GlobalBranch {
			source = "global"
		}
		return c, source, err
	}
	return nil, "", nil
}

// ParseBranchContext parses the branch context file at rel, naming the file
// and the way out when it cannot.
func ParseBranchContext(rel string, data []byte) (*branchctx.Context, error) {
	c, err := branchctx.Parse(rel, data)
	if err != nil {
		return nil, planqerr.New(planqerr.Corrupt, rel, "%w", err).WithHint("fix the file in .planq/agent by hand, or replace it with 'planq branch edit'")
	}
	return c, nil
}

// NoteUses records that r was shown the records ids (a search hit, a get,
// what prime gave it): one line appended to its journal outside git, no
// commit and no lock, so a read stays a read. The agent's next commit
// carries them into its uses file, and promote carries that to the team.
// Global, having no writer of its own, notes none.
func (h *Handle) NoteUses(r Ref, ids []string) error {
	var keep []string
	for _, id := range ids {
		if changelog.ValidID(id) {
			keep = append(keep, id)
		}
	}
	if len(keep) == 0 || h.Project == nil || r.Global() {
		return nil
	}
	path := h.Project.UsesJournal(r.Name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("failed to note uses: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("failed to note uses: %w", err)
	}
	// One write of one line: appends of concurrent readers never interleave.
	_, err = f.WriteString(time.Now().UTC().Format(time.RFC3339) + "\t" + strings.Join(keep, " ") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("failed to note uses: %w", err)
	}
	return nil
}

// NoteUse records that r read the file at p, if p is a record (see NoteUses).
func (h *Handle) NoteUse(r Ref, p string) error {
	if id := changelog.IDOfPath(p); id != "" {
		return h.NoteUses(r, []string{id})
	}
	return nil
}
