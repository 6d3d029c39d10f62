package hooks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// TOMLBlock is planq's fenced block in a TOML file (Codex's config.toml):
// whole tables between two comment lines.
type TOMLBlock struct {
	Path    string
	Content string
	// Table is the table planq defines ("mcp_servers.planq"); one the user
	// defined outside planq's block is never overridden.
	Table string
}

const tomlBegin, tomlEnd = "# >>> planq (managed by 'planq setup'", "# <<< planq <<<"

// File implements Edit.
func (t TOMLBlock) File() string { return t.Path }

func (t TOMLBlock) block() string {
	body := strings.TrimRight(t.Content, "\n")
	return fmt.Sprintf("%s v%d sha256:%s) >>>\n%s\n%s\n", tomlBegin, BlockVersion, contentHash(body), body, tomlEnd)
}

func validTOML(data []byte) error {
	var v map[string]any
	if err := toml.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("is not valid TOML: %w", err)
	}
	return nil
}

// Install implements Edit.
func (t TOMLBlock) Install(data []byte, exists bool) ([]byte, error) {
	if err := validTOML(data); err != nil {
		return nil, err
	}
	outside, _, err := removeBlock(data, tomlBegin, tomlEnd)
	if err != nil {
		return nil, err
	}
	if strings.Contains(string(outside), "["+t.Table+"]") {
		return nil, errors.New("[" + t.Table + "] is already defined outside planq's block")
	}
	out, err := installBlock(data, exists, tomlBegin, tomlEnd, t.block())
	if err != nil {
		return nil, err
	}
	if err := validTOML(out); err != nil {
		return nil, fmt.Errorf("would not stay valid TOML with planq's table added: %w", err)
	}
	return out, nil
}

// Remove implements Edit.
func (t TOMLBlock) Remove(data []byte) ([]byte, bool, error) {
	return removeBlock(data, tomlBegin, tomlEnd)
}
