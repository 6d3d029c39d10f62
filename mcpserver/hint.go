package mcpserver

import (
	"errors"

	"github.com/planq-dev/planq/planqerr"
)

func hintOf(err error) string {
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		return pe.Hint
	}
	return ""
}
