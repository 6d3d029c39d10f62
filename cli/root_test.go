package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// A run builds only the command it names (see commandsFor): each name in
// commandGroups must be its command's, and every command and subcommand
// must answer --help, a bad flag and a bad argument exactly as it does
// in the whole tree.
func TestCommandGroupsNameTheirCommands(t *testing.T) {
	env := &Env{Stdin: strings.NewReader("")}
	seen := map[string]bool{}
	for _, g := range commandGroups {
		for _, c := range g.cmds {
			if got := c.new(env).Name(); got != c.name {
				t.Errorf("commandGroups names %q the command called %q", c.name, got)
			}
			if seen[c.name] {
				t.Errorf("commandGroups names %q twice", c.name)
			}
			seen[c.name] = true
		}
	}
	var paths [][]string
	var walk func(cmd *cobra.Command, path []string)
	walk = func(cmd *cobra.Command, path []string) {
		for _, sub := range cmd.Commands() {
			p := append(append([]string(nil), path...), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(newRootCmd(env), nil)
	if len(paths) < len(seen) {
		t.Fatalf("the whole tree has %d commands, fewer than the %d named", len(paths), len(seen))
	}
	for _, path := range paths {
		for _, extra := range [][]string{{"--help"}, {"--no-such-flag"}, {"-C", "/no/such/dir", "x", "y", "z", "w"}} {
			args := append(append([]string(nil), path...), extra...)
			whole, wholeCode := runWith(t, newRootCmd, args)
			alone, aloneCode := runWith(t, func(env *Env) *cobra.Command { return newRootCmdFor(env, commandsFor(args)) }, args)
			if whole != alone || wholeCode != aloneCode {
				t.Errorf("planq %s: alone it answers (%d)\n%s\nin the whole tree (%d)\n%s", strings.Join(args, " "), aloneCode, alone, wholeCode, whole)
			}
		}
	}
	if commandsFor([]string{"--version"})("log") || commandsFor([]string{"help"}) != nil || commandsFor([]string{"-C", ".", "log"}) != nil {
		t.Error("commandsFor builds a command --version does not need, or skips one help or a flag first may need")
	}
}

// runWith executes args on the root newRoot builds, without running
// anything past the parse (every args here fails or asks for help).
func runWith(t *testing.T, newRoot func(*Env) *cobra.Command, args []string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, rawStdout: &out, Stderr: &out, Log: newLazyLogger(&out)}
	root := newRoot(env)
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.ExecuteContext(context.Background())
	code := 0
	if err != nil {
		code = exitCode(err)
		out.WriteString("error: " + err.Error())
	}
	return out.String(), code
}
