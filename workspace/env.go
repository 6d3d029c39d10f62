package workspace

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/project"
)

// Env is the environment an agent runs with.
type Env struct {
	Project   string `json:"project"`
	StateRepo string `json:"state_repo"`
	Agent     string `json:"agent"`
	Branch    string `json:"branch"`
	AgentDir  string `json:"agent_dir"`
	Workspace string `json:"workspace"`
}

// EnvFor is the environment of agent name mounted in workspace ws.
func EnvFor(p *project.Project, name, ws string) Env {
	return Env{
		Project:   p.Config.Project,
		StateRepo: p.StateRepo(),
		Agent:     name,
		Branch:    project.AgentBranch(name),
		AgentDir:  filepath.Join(ws, project.AgentMount),
		Workspace: ws,
	}
}

// Vars lists the variables in a stable order.
func (e Env) Vars() [][2]string {
	return [][2]string{
		{"PLANQ_PROJECT_NAME", e.Project},
		{"PLANQ_STATE_REPO", e.StateRepo},
		{"PLANQ_AGENT_NAME", e.Agent},
		{"PLANQ_AGENT_BRANCH", e.Branch},
		{"PLANQ_AGENT_DIR", e.AgentDir},
		{"PLANQ_WORKSPACE", e.Workspace},
	}
}

// Exports renders the variables as shell export lines for eval.
func (e Env) Exports() string {
	var b strings.Builder
	for _, kv := range e.Vars() {
		fmt.Fprintf(&b, "export %s=%s\n", kv[0], ShellQuote(kv[1]))
	}
	return b.String()
}

// ShellQuote quotes s for a POSIX shell: whatever it holds reaches the
// command as it is, never expanded.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
