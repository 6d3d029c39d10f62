package cli

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/mcpserver"
)

// TestMCPServeHelpNamesTheServersTools holds 'planq mcp serve --help' to
// the tools a client connected to the server is given by tools/list: each
// one named, and no other.
func TestMCPServeHelpNamesTheServersTools(t *testing.T) {
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := mcpserver.Unavailable(context.Canceled, Version).MCP().Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tool := range list.Tools {
		want = append(want, tool.Name)
	}
	slices.Sort(want)
	for _, args := range [][]string{{"mcp", "serve", "--help"}, {"help", "mcp", "serve"}} {
		out, code := runWith(t, serving, args)
		if code != 0 {
			t.Fatalf("planq %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		got := slices.Compact(slices.Sorted(slices.Values(toolName.FindAllString(out, -1))))
		if !slices.Equal(got, want) {
			t.Errorf("planq %s names the tools\n%v\nthe server lists\n%v\n%s", strings.Join(args, " "), got, want, out)
		}
	}
}

var toolName = regexp.MustCompile(`\bplanq_[a-z_]+\b`)
