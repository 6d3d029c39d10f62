package agent

import (
	"bytes"
	"context"
	"time"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/secrets"
	"github.com/planq-dev/planq/planqerr"
)

// Every record planq writes, on an agent branch or on global, is stamped by
// Stamp and checked by Store.check before its file is written: an agent's
// Write and WriteMany, the notes and the inbox, and the writer of global
// (CommitGlobal: proposals, the states of proposals and notes, prune's
// archive records, restores). A file kept beside the records that is no
// record passes GuardFile (a proposal's files) or Guard (the plan).

// Stamp gives rec what every record planq writes carries and rec lacks: a
// writer (by), a time (at), and an ID drawn from them, from its text and
// from the version it supersedes (so that states of records with the same
// text, written at once, differ). What rec carries it keeps: an import its
// source's time and ID, a note's next state its author, whom 'planq notes
// --agent' finds it by. It reports whether it gave rec its time: only a
// record written now takes the code checkout's evidence.
func Stamp(rec *changelog.Record, by string, at time.Time) (fresh bool) {
	if rec.Agent == "" {
		rec.Agent = by
	}
	if fresh = rec.Timestamp.IsZero(); fresh {
		rec.Timestamp = at
	}
	if rec.ID == "" {
		seed := rec.Body
		if rec.Supersedes != "" {
			seed += "\n" + rec.Supersedes
		}
		rec.ID = changelog.NewID(by, rec.Kind, seed, rec.Timestamp)
	}
	return fresh
}

// stamp is Stamp on the agent's branch: a record there is the agent's,
// whatever it was made from (an import names its source), and one written
// now takes the code checkout's evidence and anchors.
func (a *Agent) stamp(ctx context.Context, rec *changelog.Record) {
	rec.Agent = a.Name
	if Stamp(rec, a.Name, now()) {
		a.fillEvidence(rec)
		a.fillAnchors(ctx, rec)
	}
}

// check is the agent branch's use of the one check.
func (a *Agent) check(rec *changelog.Record, opts WriteOptions) ([]byte, error) {
	return a.store.check(string(rec.Kind), rec, opts)
}

// check validates rec, renders it and refuses what no record may hold (see
// Guard), naming subject: the one check of every record planq writes. A
// credential passes when opts allow it (the allowance then travels with the
// record, so that a push later publishes it instead of refusing what its
// writer allowed), or when rec is a next version that adds none to those
// the version it supersedes held.
func (s *Store) check(subject string, rec *changelog.Record, opts WriteOptions) ([]byte, error) {
	if err := changelog.Validate(rec); err != nil {
		return nil, planqerr.New(planqerr.Invalid, subject, "%w", err)
	}
	data, err := changelog.Render(rec)
	if err != nil {
		return nil, err
	}
	if err := checkContent(subject, data); err != nil {
		return nil, err
	}
	found := secrets.Scan(string(data))
	switch {
	case len(found) == 0:
		return data, nil
	case opts.AllowSecret && !rec.AllowSecret:
		rec.AllowSecret = true
		return changelog.Render(rec)
	case opts.AllowSecret:
		return data, nil
	}
	carried, err := s.carriesNoNewCredential(rec, found)
	if err != nil || carried {
		return data, err
	}
	return nil, secretRefused(subject, found)
}

// carriesNoNewCredential tells whether every credential found in rec, a
// next version of a record, was in the version it supersedes already (or,
// for a record that supersedes none, the one of its ID some branch holds:
// promote's disputed copy of an agent's record). A new state of a record
// written before credentials were refused (a proposal dismissed) adds
// nothing a push would publish, and refusing it would leave no way to
// retire the record; a credential it adds is refused as ever.
func (s *Store) carriesNoNewCredential(rec *changelog.Record, found []secrets.Finding) (bool, error) {
	was := rec.Supersedes
	if was == "" {
		was = rec.ID
	}
	set, err := s.Records.All(rec.Kind)
	if err != nil {
		return false, err
	}
	for _, old := range set.Records {
		if old.ID != was || old == rec {
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

// Guard refuses text no file of planq's may hold: too large, binary, or
// carrying what looks like a credential (unless opts allow it). Records,
// notes, the team's plan and text artifacts all pass through it.
func Guard(subject string, data []byte, opts WriteOptions) error {
	if err := checkContent(subject, data); err != nil {
		return err
	}
	return refuseSecret(subject, data, opts)
}

func refuseSecret(subject string, data []byte, opts WriteOptions) error {
	if opts.AllowSecret {
		return nil
	}
	if found := secrets.Scan(string(data)); len(found) > 0 {
		return secretRefused(subject, found)
	}
	return nil
}

func checkContent(subject string, data []byte) error {
	if err := changelog.CheckContent(data); err != nil {
		return planqerr.New(planqerr.Invalid, subject, "%w", err).
			WithHint("keep it short and textual; put large material in the code repository and cite its path")
	}
	return nil
}

func secretRefused(subject string, found []secrets.Finding) error {
	return planqerr.New(planqerr.Refused, subject, "refusing to store what looks like a credential (%s, line %d)", found[0].Rule, found[0].Line).
		WithHint("remove the credential; if it is not one, allow it: --allow-secret on the command line, allow_secret over MCP")
}

// GuardFile refuses a file kept on a branch beside the records that is
// no record (a proposal's proposed instruction file): over 1 MiB, binary,
// or carrying what looks like a credential. Nothing allows a credential
// here: such a file is copied into the code repository as it is, and a
// push would refuse it for good.
func GuardFile(subject string, data []byte) error {
	if err := CheckTextFile(subject, data, "a file kept beside the records", "files kept beside the records"); err != nil {
		return err
	}
	if found := secrets.Scan(string(data)); len(found) > 0 {
		return planqerr.New(planqerr.Refused, subject, "refusing to store what looks like a credential (%s, line %d)", found[0].Rule, found[0].Line).
			WithHint("remove the credential: this file would be copied into the code repository and pushed with the team's memory")
	}
	return nil
}

// CheckTextFile refuses data no text file planq copies whole may hold: over
// 1 MiB, a NUL byte, or not UTF-8. one and many name such files in the
// message ("an instruction file", "instruction files"), so a proposal's
// file and a file kept beside the records share the check but not the words.
func CheckTextFile(subject string, data []byte, one, many string) error {
	switch {
	case len(data) > MaxArtifactSize:
		return planqerr.New(planqerr.Invalid, subject, "is %d bytes; %s holds at most 1 MiB", len(data), one)
	case bytes.IndexByte(data, 0) >= 0:
		return planqerr.New(planqerr.Invalid, subject, "contains a NUL byte; %s are text", many)
	case !utf8.Valid(data):
		return planqerr.New(planqerr.Invalid, subject, "is not valid UTF-8")
	}
	return nil
}
