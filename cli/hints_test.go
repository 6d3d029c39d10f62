package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// planqCommand finds the planq commands a hint names: the text after
// "planq " that starts a hint, follows a quote, a colon or "$(", up to the
// quote, parenthesis, comma or semicolon that ends it.
var planqCommand = regexp.MustCompile(`(?:^|'|: |\$\()planq ([^'"(),;]+)`)

// placeholders are the words hints use for what the user fills in, with a
// value of the right shape.
var placeholders = map[string]string{
	"NAME": "auth", "ID": "pq-0123456789", "WORDS": "tokens", "URL": "https://example.com/team.git",
	"DIR": "/tmp", "PATH": "learnings/auth/pq-0123456789.md", "FILE": "notes.md", "N": "10",
	"PLAN": "ship it", "FOCUS": "token refresh", "MESSAGE": "did it", "NEW": "new-branch",
}

// checkHints parses every planq command the scripts' hints named, as the
// command line would: each must name a command, flags it has and the
// arguments it takes. A hint that sends the user to a flag that does not
// exist fails here.
func checkHints(t *testing.T, path string) {
	t.Helper()
	// Every script prints some hint; a run of a few scripts may print none.
	all := flag.Lookup("test.run").Value.String() == ""
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if all {
			t.Error("the scripts printed no hint at all: the hint recorder is not wired")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	checked := 0
	for _, hint := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		for _, m := range planqCommand.FindAllStringSubmatch(hint, -1) {
			line := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[1]), "."))
			if seen[line] {
				continue
			}
			seen[line] = true
			checked++
			if err := parseCommand(line); err != nil {
				t.Errorf("hint %q names %q, which planq refuses: %v", hint, "planq "+line, err)
			}
		}
	}
	if checked == 0 && all {
		t.Error("no planq command found in the scripts' hints")
	}
	t.Logf("checked %d distinct planq commands named in hints", checked)
}

// parseCommand parses args as planq would, without running the command.
func parseCommand(line string) error {
	var args []string
	for _, a := range strings.Fields(line) {
		if v, ok := placeholders[a]; ok {
			a = v
		}
		args = append(args, a)
	}
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Log: nil}
	root := newRootCmd(env)
	root.InitDefaultHelpCmd() // cobra adds these as it executes
	root.InitDefaultCompletionCmd()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if cmd == root {
		return errUnknown(args)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	if cmd.Args != nil {
		return cmd.Args(cmd, cmd.Flags().Args())
	}
	return nil
}

type errUnknown []string

func (e errUnknown) Error() string {
	var b bytes.Buffer
	b.WriteString("no such command: planq ")
	b.WriteString(strings.Join(e, " "))
	return b.String()
}
