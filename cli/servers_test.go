package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/mcpserver"
	"github.com/planq-dev/planq/review"
)

// testServers are planq-server's servers, as its main links them in.
var testServers = Servers{MCP: mcpserver.Serve, MCPTools: mcpserver.ToolsJSON, Review: review.Run}

// serving builds the root of planq-server: planq with the servers.
func serving(env *Env) *cobra.Command {
	env.servers = &testServers
	return newRootCmd(env)
}

// TestServerCommandsAreHandedOff holds planq without the servers to
// handing their commands, flags and --help included, to planq-server, and
// to saying how to install it when there is none.
func TestServerCommandsAreHandedOff(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no planq-server beside the test binary or on PATH
	for _, args := range [][]string{{"mcp", "serve", "--project", "x"}, {"mcp", "tools", "--json"}, {"ui", "--help"}, {"mcp", "serve", "--help"}, {"model", "fetch", "owner/name"}, {"setup", "cursor", "--dry-run"}, {"mcp", "install", "--check"}} {
		out, code := runWith(t, newRootCmd, args)
		if code != ExitNotFound || !strings.Contains(out, "planq-server: is not installed beside planq or on PATH") {
			t.Errorf("planq %s: exit %d, want planq-server's absence told (exit %d)\n%s", strings.Join(args, " "), code, ExitNotFound, out)
		}
	}
	// Help asked of cobra's help command stays planq's, without the tools.
	out, code := runWith(t, newRootCmd, []string{"help", "mcp", "serve"})
	if code != 0 || !strings.Contains(out, "Tools: 'planq mcp tools' lists them.") || strings.Contains(out, "planq_checkpoint") {
		t.Errorf("planq help mcp serve: exit %d\n%s", code, out)
	}
}

// TestServersAreLinkedOnlyIntoPlanqServer holds planq's hot path to its
// budget: neither the MCP SDK, the Markdown renderer, the HTTP client
// (net/http and TLS: 2 ms of every start) nor the JSON settings editor
// reaches planq (agents and hooks start it thousands of times a day), and
// planq-server has them all.
func TestServersAreLinkedOnlyIntoPlanqServer(t *testing.T) {
	heavy := []string{"github.com/modelcontextprotocol/go-sdk/mcp", "github.com/yuin/goldmark", "github.com/planq-dev/planq/mcpserver", "github.com/planq-dev/planq/review",
		"net/http", "crypto/tls", "github.com/planq-dev/planq/internal/netpost", "github.com/tidwall/gjson", "github.com/planq-dev/planq/internal/jsonedit"}
	deps := func(pkg string) map[string]bool {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		set := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			set[p] = true
		}
		return set
	}
	planq, server := deps("github.com/planq-dev/planq/cmd/planq"), deps("github.com/planq-dev/planq/cmd/planq-server")
	for _, p := range heavy {
		if planq[p] {
			t.Errorf("planq links %s: it belongs in planq-server only", p)
		}
		if !server[p] {
			t.Errorf("planq-server does not link %s", p)
		}
	}
}
