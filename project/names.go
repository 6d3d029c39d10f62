package project

import (
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// ValidateName checks an agent, project or domain name and explains what is
// wrong with a bad one.
func ValidateName(what, name string) error {
	problem := changelog.NameProblem(name)
	if problem == "" {
		return nil
	}
	return planqerr.New(planqerr.Invalid, what+` "`+name+`"`, "%s", problem).
		WithHint("use letters, digits, '-' and '_', starting with a letter or digit (at most %d characters)", changelog.MaxNameLen)
}
