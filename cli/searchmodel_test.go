package cli

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// Variables of the test build, for the scripts that watch the embedding
// model (search_vector.txtar):
const (
	// modelLoadsVar names a file that every opening of the project's model
	// appends a line to: a command that does not search must leave none.
	modelLoadsVar = "PLANQ_TEST_MODEL_LOADS"
	// embedVar says which model the scripts' searches embed by. Unset or
	// empty, none: a script's search ranks by words alone, whatever model
	// this build carries, so that what it asserts holds for every model.
	// "builtin": the project's model as planq opens it (the one built in,
	// unless the config names another). Otherwise a table of synonyms:
	// groups of words separated by ";", the words of a group sharing one
	// vector, the groups orthogonal; "!" and a message makes the model fail
	// to load with that message.
	embedVar = "PLANQ_TEST_EMBED"
)

func init() {
	builtIn := readmodel.ProjectModel
	readmodel.ProjectModel = func(ctx context.Context, p *project.Project) (embed.Model, error) {
		if path := os.Getenv(modelLoadsVar); path != "" {
			if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
				_, _ = f.WriteString("loaded\n")
				_ = f.Close()
			}
		}
		switch spec := os.Getenv(embedVar); {
		case spec == "":
			return nil, embed.ErrOff
		case spec == "builtin":
			return builtIn(ctx, p)
		case strings.HasPrefix(spec, "!"):
			return nil, errors.New(spec[1:])
		default:
			return synonymTable(spec)
		}
	}
}

// synonymTable is the table embedVar describes.
func synonymTable(spec string) (*embed.Table, error) {
	return testmodel.Synonyms(strings.Split(spec, ";")...)
}
