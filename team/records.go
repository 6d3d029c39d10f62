package team

import (
	"context"
	"fmt"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/secrets"
	"github.com/planq-dev/planq/staterepo"
)

// CommitGlobalRecords writes recs on global as new record files in one
// commit whose message is message: what a lead's upkeep (prune, restore)
// writes straight to the team's memory, without an agent's worktree. Each
// record is stamped as an agent's write stamps it (writer, now, a fresh ID)
// and checked before anything is written; a record file never replaces
// another.
func CommitGlobalRecords(ctx context.Context, store *agent.Store, writer string, recs []*changelog.Record, message string) (staterepo.Hash, error) {
	now := time.Now().UTC()
	for _, r := range recs {
		r.Agent, r.Timestamp = writer, now
		if r.ID == "" {
			r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		}
	}
	return CommitGlobal(ctx, store, GlobalChange{Records: recs, Message: message})
}

// GlobalChange is one commit on global: records, stamped already (ID,
// agent, time), and files that are no records (a proposal's proposed
// files), each new.
type GlobalChange struct {
	Records []*changelog.Record
	Files   map[string][]byte
	Message string
}

// CommitGlobal writes c on global in one commit, or nothing: every record
// and file is checked before anything is written, as an agent's record is
// (valid, at most 64 KiB of text, no credential its writer did not allow;
// a file that is no record holds at most 1 MiB and no credential at all),
// and no file replaces another. A record global cannot read back would
// wedge every reader of the project.
func CommitGlobal(ctx context.Context, store *agent.Store, c GlobalChange) (staterepo.Hash, error) {
	files := map[string][]byte{}
	for p, data := range c.Files {
		if err := agent.GuardFile(p, data); err != nil {
			return staterepo.ZeroHash, err
		}
		files[p] = data
	}
	for _, r := range c.Records {
		if err := changelog.Validate(r); err != nil {
			return staterepo.ZeroHash, planqerr.New(planqerr.Invalid, string(r.Kind), "%w", err)
		}
		data, err := changelog.Render(r)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		allow := r.AllowSecret
		if !allow && r.Supersedes != "" {
			if allow, err = carriesNoNewCredential(store, r, data); err != nil {
				return staterepo.ZeroHash, err
			}
		}
		if err := agent.Guard(string(r.Kind)+" "+r.ID, data, agent.WriteOptions{AllowSecret: allow}); err != nil {
			return staterepo.ZeroHash, err
		}
		r.Path = changelog.RecordPath(r)
		files[r.Path] = data
	}
	return writeGlobal(ctx, store, c.Message, func(tree staterepo.Hash) (staterepo.Hash, error) {
		edits := map[string]staterepo.Hash{}
		for p, data := range files {
			if _, err := store.Repo.BlobAt(tree, p); err == nil {
				return staterepo.ZeroHash, planqerr.New(planqerr.Exists, p, "a file at this path exists on global already")
			}
			blob, err := store.Repo.WriteBlob(data)
			if err != nil {
				return staterepo.ZeroHash, fmt.Errorf("failed to write %s: %w", p, err)
			}
			edits[p] = blob
		}
		return store.Repo.EditTree(tree, edits)
	})
}

// carriesNoNewCredential tells whether every credential in data, the next
// version of a record, was in the version it supersedes already. A new
// state of a record written before credentials were refused (a proposal
// dismissed) adds nothing a push would publish, and refusing it would leave
// no way to retire the record; a credential it adds is refused as ever.
func carriesNoNewCredential(store *agent.Store, r *changelog.Record, data []byte) (bool, error) {
	found := secrets.Scan(string(data))
	if len(found) == 0 {
		return false, nil
	}
	set, err := store.Records.All(r.Kind)
	if err != nil {
		return false, err
	}
	for _, old := range set.Records {
		if old.ID != r.Supersedes {
			continue
		}
		was, err := changelog.Render(old)
		if err != nil {
			return false, err
		}
		had := map[string]bool{}
		for _, f := range secrets.Scan(string(was)) {
			had[f.Text] = true
		}
		for _, f := range found {
			if !had[f.Text] {
				return false, nil
			}
		}
		return true, nil
	}
	return false, nil
}
