package changelog

// Skeleton is the initial tree of a state repository's global branch: a
// README at the top and in each kind's directory, so that a person or an
// agent browsing the repository with plain git knows what goes where.
func Skeleton() map[string][]byte {
	files := map[string][]byte{
		"README.md": []byte(`# planq state

This repository holds the memory of a project's coding agents, managed by planq.

- Branch ` + "`global`" + ` holds what the team keeps: promoted learnings and decisions.
- Branch ` + "`agent-<name>`" + ` belongs to one agent, mounted at ` + "`.planq/agent`" + ` in its workspace.

Every record is one Markdown file with YAML frontmatter, named by its ID. Records
are never edited in place: an edit is a new record with ` + "`supersedes: <id>`" + `, and a
deletion is a record with ` + "`tombstone: true`" + `.
`),
		"branches/README.md": []byte("# branches\n\nContext attached to code branches, one file per branch.\n"),
	}
	about := map[Kind]string{
		KindLog:        "Changelog entries: what an agent did, one file each, sharded by month.",
		KindLearning:   "Learnings: conventions, patterns, failures with their resolutions; sharded by domain.",
		KindDecision:   "Decisions with the alternatives considered and the rationale; sharded by month.",
		KindHandoff:    "Handoffs: what the next session, or another agent, should pick up; sharded by month.",
		KindCheckpoint: "Checkpoint notes: named save points, each also a tag checkpoint/<agent>/<name>.",
	}
	for _, k := range Kinds {
		files[k.Dir()+"/README.md"] = []byte("# " + k.Dir() + "\n\n" + about[k] + "\n")
	}
	return files
}
