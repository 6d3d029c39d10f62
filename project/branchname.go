package project

import (
	"fmt"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// CodeBranchProblem says why git would refuse name as a branch name (the
// rules of 'git check-ref-format --branch'), or returns "" for a good one.
// A code branch's context is stored under its name, so a name git cannot
// have would only ever hold a context no checkout reaches.
func CodeBranchProblem(name string) string {
	if p := branchShapeProblem(name); p != "" {
		return p
	}
	for _, r := range name {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("contains the control character %q", r)
		case r == ' ':
			return "contains a space"
		case strings.ContainsRune(`~^:?*[\`, r):
			return fmt.Sprintf("contains %q", r)
		}
	}
	for _, part := range strings.Split(name, "/") {
		switch {
		case strings.HasPrefix(part, "."):
			return fmt.Sprintf("has a part that starts with '.' (%q)", part)
		case strings.HasSuffix(part, ".lock"):
			return fmt.Sprintf("has a part that ends with '.lock' (%q)", part)
		}
	}
	return ""
}

// branchShapeProblem is what git refuses of a branch name as a whole,
// before its characters and parts are looked at.
func branchShapeProblem(name string) string {
	switch {
	case name == "":
		return "is empty"
	case name == "HEAD":
		return "is HEAD, which names what is checked out, not a branch"
	case strings.HasPrefix(name, "-"):
		return "starts with '-'"
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/"):
		return "starts or ends with '/'"
	case strings.Contains(name, "//"):
		return "has an empty part between two '/'"
	case strings.Contains(name, ".."):
		return "contains '..'"
	case strings.Contains(name, "@{"):
		return "contains '@{'"
	case strings.HasSuffix(name, "."):
		return "ends with '.'"
	}
	return ""
}

// CheckCodeBranch refuses a branch name git would refuse, naming the rule
// it breaks.
func CheckCodeBranch(name string) error {
	problem := CodeBranchProblem(name)
	if problem == "" {
		return nil
	}
	return planqerr.New(planqerr.Invalid, fmt.Sprintf("branch %q", name), "is no branch name git allows: it %s", problem).
		WithHint("name a branch git allows, like feature/login ('git check-ref-format --branch NAME' says whether it does)")
}
