package changelog

import "github.com/planq-dev/planq/project"

// Skeleton is the initial tree of a state repository's global branch: a
// README at the top and in each kind's directory, so that a person or an
// agent browsing the repository with plain git knows what goes where.
func Skeleton() map[string][]byte {
	files := map[string][]byte{
		project.ReadmeFile: []byte(`# planq state

This repository holds the memory of a project's coding agents, managed by planq.

- Branch ` + "`global`" + ` holds what the team keeps: promoted learnings and decisions.
- Branch ` + "`agent-<name>`" + ` belongs to one agent, mounted at ` + "`.planq/agent`" + ` in its workspace.

Every record is one Markdown file with YAML frontmatter, named by its ID. Records
are never edited in place: an edit is a new record with ` + "`supersedes: <id>`" + `, and a
deletion is a record with ` + "`tombstone: true`" + `.
`),
		project.BranchesDir + "/" + project.ReadmeFile: []byte("# branches\n\nContext attached to code branches, one file per branch.\n"),
	}
	for _, spec := range table {
		if spec.Document {
			continue // written on global when there is something to say
		}
		files[spec.Dir+"/"+project.ReadmeFile] = []byte("# " + spec.Dir + "\n\n" + spec.About + "\n")
	}
	return files
}
