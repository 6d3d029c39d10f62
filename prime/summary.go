package prime

import (
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/readmodel"
)

// Summary is what an agent needs to pick up its work: `planq context show`
// and the MCP server's planq_context, and what prime's document is made of.
// Its records are the read model's agent view; the rest is the agent's own
// notes and code checkout (session gathers it).
type Summary struct {
	Project  string         `json:"project"`
	Agent    string         `json:"agent"`
	Branch   string         `json:"branch"`
	AgentDir string         `json:"agent_dir,omitempty"`
	Code     branchctx.Code `json:"code"`
	Focus    string         `json:"focus"`
	Scratch  string         `json:"scratch"`
	// BranchContext is the context of the checked-out code branch.
	BranchContext *branchctx.Context `json:"branch_context,omitempty"`
	// The agent's records and global's; its Problems also name a branch
	// context that could not be read.
	readmodel.AgentView
}
