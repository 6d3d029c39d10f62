package branchctx

import "github.com/planq-dev/planq/staterepo"

// Code is what a code checkout has checked out.
type Code struct {
	// Branch is the short branch name; "" when HEAD is detached.
	Branch string `json:"branch,omitempty"`
	// Commit is the checked-out commit; "" before the first commit.
	Commit string `json:"commit,omitempty"`
}

// Current reads the code checkout at dir without starting git.
func Current(dir string) (Code, error) {
	h, err := staterepo.CodeHead(dir)
	if err != nil {
		return Code{}, err
	}
	return Code(h), nil
}
