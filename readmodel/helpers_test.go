package readmodel

import "github.com/planq-dev/planq/staterepo"

// The records and repositories the views' tests read are the engine's too:
// internal/testkit/testrecords.

// counting opens a reader that counts the blobs it reads from git.
func counting(repo *staterepo.Repo, cacheDir string, reads *int) *Reader {
	rd := Open(repo, cacheDir)
	rd.e.CountBlobReads(reads)
	return rd
}
