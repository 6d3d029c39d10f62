package project

import (
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

// TestConfigReadsInstructionFileGlobsAsPlanqMatchesThem: an entry of
// curation.instruction_files is a glob in the syntax planq matches it with
// (** for any number of directories, {a,b} for either): one that syntax
// cannot read is refused with its line, not left to match nothing.
func TestConfigReadsInstructionFileGlobsAsPlanqMatchesThem(t *testing.T) {
	c, err := ParseConfig(".planq/config", []byte("project: demo\ncuration:\n  instruction_files: [\"**/AGENTS.md\", \"{CLAUDE,GEMINI}.md\"]\n"))
	if err != nil || strings.Join(c.InstructionFiles(), " ") != "**/AGENTS.md {CLAUDE,GEMINI}.md" {
		t.Errorf("good list: %v %v", c.InstructionFiles(), err)
	}
	_, err = ParseConfig(".planq/config", []byte("project: demo\ncuration:\n  instruction_files:\n    - AGENTS.md\n    - \"{CLAUDE,GEMINI.md\"\n"))
	if !planqerr.Is(err, planqerr.Corrupt) || !strings.Contains(err.Error(), `line 5: instruction_files: "{CLAUDE,GEMINI.md" is not a glob`) {
		t.Errorf("an unclosed brace: %v", err)
	}
}
