package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// TestRecordKindCmdFollowsTheRow builds 'planq record KIND' for a row this
// build does not have (e2e's newkind test writes through one it has): a
// flag per field of its own, --type for a kind with types, and what the
// flags say handed to changelog.NewRecord, which refuses a kind outside
// the table.
func TestRecordKindCmdFollowsTheRow(t *testing.T) {
	spec := &changelog.Spec{Kind: "article", Noun: "article", About: "Articles.", Types: []changelog.Type{"guide", "reference"}, DefaultType: "guide",
		Extra: []changelog.ExtraField{{Key: "related_to", List: true, About: "what else to read"}, {Key: "audience", Required: true, About: "its readers"}}}
	var out bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, rawStdout: &out, Stderr: &out, Log: newLazyLogger(&out)}
	cmd := newRecordKindCmd(env, spec)
	for _, flag := range []string{"type", "related-to", "audience", "agent", "json"} {
		if cmd.Flags().Lookup(flag) == nil {
			t.Errorf("planq record article has no --%s", flag)
		}
	}
	if usage := cmd.Flags().Lookup("audience").Usage; usage != "its readers (required)" {
		t.Errorf("--audience says %q", usage)
	}
	cmd.SetArgs([]string{"How to read the code", "--audience", "newcomers", "--related-to", "a,b", "--related-to", "c"})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	err := cmd.ExecuteContext(context.Background())
	if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "article: is not a kind written this way") {
		t.Errorf("got %v, want NewRecord's refusal of a kind outside the table", err)
	}
	if newRecordCmd(env).Hidden != (len(changelog.GenericKinds()) == 0) {
		t.Error("planq record is shown with no kind to write, or hidden with one")
	}
}
