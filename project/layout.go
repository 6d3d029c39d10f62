package project

import (
	"path/filepath"
	"strings"
)

// The state repository's layout: every branch, ref and tree name planq uses,
// in one place. Record directories are rows of the kind table (changelog);
// everything else that has a name is here.

// Branches of the state repository.
const (
	// GlobalBranch holds what the team keeps.
	GlobalBranch = "global"
	// AgentBranchPrefix starts the name of every agent branch.
	AgentBranchPrefix = "agent-"
)

// Refs of the state repository and of a team remote.
const (
	branchRefPrefix = "refs/heads/"
	// CheckpointRefPrefix namespaces checkpoint tags per agent, so two agents
	// can both have a checkpoint called "before-refactor".
	CheckpointRefPrefix = "refs/tags/checkpoint/"
	// ArchiveRefPrefix keeps what gc removes: refs/planq/archive/<agent>/<time>.
	ArchiveRefPrefix = "refs/planq/archive/"
	// RemoteGlobalRef is global on a team remote. Nothing of planq's lives
	// under refs/heads on a remote, so a code host never offers planq's state
	// as a branch to open a pull request from, even when the remote is the
	// code repository itself.
	RemoteGlobalRef = "refs/planq/global"
	// RemoteAgentsRefPrefix holds pushed agent branches on a team remote:
	// refs/planq/agents/<owner>/<agent>.
	RemoteAgentsRefPrefix = "refs/planq/agents/"
	// TrackingRefPrefix records locally what a remote had:
	// refs/planq/remotes/<remote>/global and .../agents/<owner>/<agent>.
	TrackingRefPrefix = "refs/planq/remotes/"
)

// Files and directories of the state tree that are not records.
const (
	// ScratchFile and FocusFile are an agent's two mutable notes, at the top
	// of its worktree.
	ScratchFile = "scratch.md"
	FocusFile   = "context.md"
	// ProposedDir keeps, on global, the files each curation proposal
	// proposes: proposed/<proposal id>/<path in the code repository>.
	ProposedDir = "proposed"
	// NotesInbox takes raw notes by plain append, a line each: planq turns
	// each into a note record at the agent's next note or session save.
	NotesInbox = "notes.md"
	// BranchesDir holds the context of code branches, one file per branch.
	BranchesDir = "branches"
	// ReadmeFile explains a directory to people browsing with plain git.
	ReadmeFile = "README.md"
	// PlanFile, on global, is the plan that drives the team's work.
	PlanFile = "plan.md"
	// ProjectFile, on global, names the project the state belongs to (one
	// line): pull and push refuse another project's global. It is added by
	// a commit of its own on top of the first commit, which every project
	// shares, so a global made before planq wrote it shares that commit too.
	ProjectFile = "PROJECT"
	// ChangelogFile, on global, is generated from every agent's log entries:
	// regenerated after promote, pull and gc, never merged.
	ChangelogFile = "changelog.md"
	// ArtifactsDir holds an agent's generated outputs: files, not records.
	ArtifactsDir = "artifacts"
	// UsesDir holds, per agent, when the records it was shown were last
	// used (uses/<agent>.tsv): a use restarts a learning's shelf life.
	// Only that agent writes its file, so merges never meet in one.
	UsesDir = "uses"
	// MemoriesDir is the folder the memory-tool protocol's /memories maps
	// to in an agent's worktree: plain files the protocol's commands view
	// and change, one commit per change.
	MemoriesDir = "memories"
)

// UsesPath is the file of agent's uses in the state tree.
func UsesPath(agent string) string { return UsesDir + "/" + agent + ".tsv" }

// AgentBranch is the state branch of the agent called name.
func AgentBranch(name string) string { return AgentBranchPrefix + name }

// AgentOfBranch returns the agent whose branch this is.
func AgentOfBranch(branch string) (string, bool) {
	return strings.CutPrefix(branch, AgentBranchPrefix)
}

// BranchRef is the full ref name of a local branch.
func BranchRef(branch string) string { return branchRefPrefix + branch }

// BranchOfRef returns the branch a full ref names, if it names one.
func BranchOfRef(ref string) (string, bool) { return strings.CutPrefix(ref, branchRefPrefix) }

// AgentBranchRefPattern matches the refs of every agent branch, for git's
// ref listing commands.
const AgentBranchRefPattern = branchRefPrefix + AgentBranchPrefix + "*"

// CheckpointRef is the tag of an agent's named checkpoint.
func CheckpointRef(agent, name string) string { return CheckpointRefPrefix + agent + "/" + name }

// ArchiveRef is where gc keeps agent's branch, removed at stamp.
func ArchiveRef(agent, stamp string) string { return ArchiveRefPrefix + agent + "/" + stamp }

// TrackingGlobalRef records what remote's global was when last seen.
func TrackingGlobalRef(remote string) string { return TrackingRefPrefix + remote + "/global" }

// TrackingAgentsRefPrefix records the agent branches remote had.
func TrackingAgentsRefPrefix(remote string) string { return TrackingRefPrefix + remote + "/agents/" }

// RemoteAgentRef is where an agent branch of owner's machine lives on a remote.
func RemoteAgentRef(owner, agent string) string { return RemoteAgentsRefPrefix + owner + "/" + agent }

// branchEscaper keeps a branch name one path component and reversible:
// "feature/login" is stored as branches/feature%2Flogin.md.
var branchEscaper = strings.NewReplacer("%", "%25", "/", "%2F")

// BranchContextPath is where the context of a code branch lives in the
// state tree.
func BranchContextPath(branch string) string {
	return BranchesDir + "/" + branchEscaper.Replace(branch) + ".md"
}

// branchUnescaper undoes branchEscaper.
var branchUnescaper = strings.NewReplacer("%2F", "/", "%25", "%")

// BranchOfContextPath is the code branch whose context lives at p.
func BranchOfContextPath(p string) string {
	return branchUnescaper.Replace(strings.TrimSuffix(strings.TrimPrefix(p, BranchesDir+"/"), ".md"))
}

// IsBranchContextPath reports whether p is where a branch context lives.
func IsBranchContextPath(p string) bool {
	rest, ok := strings.CutPrefix(p, BranchesDir+"/")
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".md") && rest != ReadmeFile
}

// WorkspaceOfAgentDir maps <workspace>/.planq/agent to <workspace>.
func WorkspaceOfAgentDir(agentDir string) string { return filepath.Dir(filepath.Dir(agentDir)) }
