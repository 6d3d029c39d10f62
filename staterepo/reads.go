package staterepo

import "context"

// Reads is what a reader may ask of the state repository beyond the read
// model's indexes: git's reads alone, so that a read handle cannot write.
// *Repo has them all.
type Reads interface {
	Tip(branch string) (Hash, error)
	TreeOf(commit Hash) (Hash, error)
	MergeBase(ctx context.Context, a, b Hash) (Hash, bool, error)
	MergedBranches(ctx context.Context, target, pattern string) (map[string]Hash, error)
	WalkTree(tree Hash, dirs []string) ([]File, error)
	ReadBlob(h Hash) ([]byte, error)
	FileHistory(ctx context.Context, tip Hash, dir, key string) ([]FileChange, error)
	ConfigValue(ctx context.Context, key string) (string, error)
}

var _ Reads = (*Repo)(nil)
