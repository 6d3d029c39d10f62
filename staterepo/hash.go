package staterepo

import "github.com/go-git/go-git/v5/plumbing"

// Hash is a git object ID. It is go-git's type under planq's name, so that
// packages above staterepo never import go-git themselves.
type Hash = plumbing.Hash

// ZeroHash is the ID of no object.
var ZeroHash = plumbing.ZeroHash

// NewHash parses a hex object ID.
func NewHash(s string) Hash { return plumbing.NewHash(s) }

// BlobHash is the hash git gives data stored as a blob.
func BlobHash(data []byte) Hash { return plumbing.ComputeHash(plumbing.BlobObject, data) }
