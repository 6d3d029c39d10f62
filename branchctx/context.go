package branchctx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/project"
)

// Statuses of a branch's context.
var Statuses = []string{"active", "merged", "abandoned"}

// Context is what is known about one code branch: why it exists, the plan,
// the key decisions. It is a mutable note, rewritten in place and merged
// per file when promoted.
type Context struct {
	Branch    string    `yaml:"branch" json:"branch"`
	CreatedAt time.Time `yaml:"created_at" json:"created_at"`
	UpdatedAt time.Time `yaml:"updated_at" json:"updated_at"`
	Agent     string    `yaml:"agent" json:"agent"`
	Status    string    `yaml:"status" json:"status"`
	Body      string    `yaml:"-" json:"body"`
}

// Path is where the context of branch lives in the state tree.
func Path(branch string) string { return project.BranchContextPath(branch) }

// New is the context a branch starts with.
func New(branch, agent string, now time.Time) *Context {
	return &Context{Branch: branch, CreatedAt: now, UpdatedAt: now, Agent: agent, Status: "active",
		Body: "## Context\n\n## Plan\n\n## Key decisions\n"}
}

// Parse reads a branch context file strictly.
func Parse(path string, data []byte) (*Context, error) {
	c := &Context{}
	format := frontmatter.NewFormat("---", "---", func(b []byte, v any) error {
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	})
	body, err := frontmatter.MustParse(bytes.NewReader(data), c, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.Branch == "" {
		return nil, fmt.Errorf("%s: branch is missing", path)
	}
	c.Body = strings.TrimLeft(string(body), "\n")
	return c, nil
}

// Render writes c as a branch context file.
func (c *Context) Render() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("failed to encode branch context: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("failed to encode branch context: %w", err)
	}
	buf.WriteString("---\n")
	buf.WriteString(strings.TrimRight(c.Body, "\n"))
	buf.WriteString("\n")
	return buf.Bytes(), nil
}
