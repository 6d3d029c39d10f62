package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Every agent call and every hook starts planq afresh, and Go runs the
// init of every package linked in before main, whatever the command. These
// tests hold that work to a budget in what GODEBUG=inittrace=1 reports
// each package's init allocating: bytes, which do not drift with the
// machine's load as clock time does (scripts/bench -only startup times it).

// childEnv marks the test binary started by startupTrace: "init" exits
// in TestMain, after every package's init and before any test; "main" runs
// planq's main. That main is called at all keeps linked in everything it
// reaches, as in planq: the linker drops the init of a package-level map
// that nothing reachable reads, and a test binary's main is not its own.
const childEnv = "PLANQ_STARTUP_TRACE_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "init":
		os.Exit(0)
	case "main":
		main()
	}
	os.Exit(m.Run())
}

// planqInitBudget is the most a planq package's init may allocate, in
// bytes: a few errors, small tables and the sync.OnceValue wrappers of
// what is built on first use. One regular expression compiled at init
// costs 0.8 to 30 KiB, a map of a few dozen entries 2 KiB or more.
const planqInitBudget = 1024

// planqInitBudgets are the packages allowed more, with why.
var planqInitBudgets = map[string]int{
	// The regular expressions of the sources planq imports from (ADRs,
	// commits, memories), each behind its own sync.OnceValue (some 100
	// bytes apiece).
	"github.com/planq-dev/planq/internal/importing": 2560,
	// The environment git runs with (staterepo.gitEnv), taken once at
	// start-up; it grows with the environment, fixed in this test.
	"github.com/planq-dev/planq/staterepo": 2048,
	// mulch's built-in types (builtins) stay a map: internal/mulch/convert.go reads it.
	"github.com/planq-dev/planq/internal/mulch": 1536,
	// Git's transports by kind (networkSchemes, refusedTransports), small
	// maps every remote check reads, and the config errors' lazy patterns.
	"github.com/planq-dev/planq/project": 1536,
}

// heavyInits are the packages outside planq whose init allocates more
// than heavyInitBytes, with why planq links them: Go runs their init in
// every planq process, so a new one is a cost every hook pays and must be
// a choice. (Most of their cost is tables built at init that planq cannot
// defer; only not linking them would spare it.)
const heavyInitBytes = 16 << 10

var heavyInits = map[string]string{
	"encoding/gob":       "go-git reads git config through gcfg, which copies values with gob",
	"go.yaml.in/yaml/v3": "records' and config's YAML",
	"gopkg.in/yaml%2ev2": "adrg/frontmatter links yaml.v2 for its default YAML format",
}

// TestStartupInitBudget: no planq package does more at init than its
// budget allows, and no package outside planq with a heavy init is linked
// in without a reason written down.
func TestStartupInitBudget(t *testing.T) {
	inits := startupTrace(t)
	for _, in := range inits {
		if rest, ok := strings.CutPrefix(in.pkg, "github.com/planq-dev/planq"); ok && (rest == "" || rest[0] == '/') {
			budget, ok := planqInitBudgets[in.pkg]
			if !ok {
				budget = planqInitBudget
			}
			if in.bytes > budget {
				t.Errorf("%s: its init allocates %d bytes (%d allocs), over its budget of %d: build what it makes at package level on first use (sync.OnceValue)",
					in.pkg, in.bytes, in.allocs, budget)
			}
			continue
		}
		if _, known := heavyInits[in.pkg]; in.bytes > heavyInitBytes && !known {
			t.Errorf("%s: its init allocates %d bytes (%d allocs) in every planq process: link it only with a reason in heavyInits, or find a lighter way",
				in.pkg, in.bytes, in.allocs)
		}
	}
}

// TestStartupTraceSeesPlanq: the trace names planq's packages, so the
// budget test is not passing on a trace it cannot read.
func TestStartupTraceSeesPlanq(t *testing.T) {
	for _, in := range startupTrace(t) {
		if strings.HasPrefix(in.pkg, "github.com/planq-dev/planq/") {
			return
		}
	}
	t.Fatal("GODEBUG=inittrace=1 reported no planq package")
}

type initTrace struct {
	pkg           string
	bytes, allocs int
}

// startupTrace runs this test binary, which links every package planq
// does, with GODEBUG=inittrace=1, in a small fixed environment (an init
// that reads the environment costs the same on every machine), and reads
// what each package's init allocated.
func startupTrace(t *testing.T) []initTrace {
	t.Helper()
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation adds init work of its own; the budget is the released binary's")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = []string{childEnv + "=init", "GODEBUG=inittrace=1", "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, stderr.String())
	}
	var inits []initTrace
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init <pkg> @<t> ms, <clock> ms clock, <bytes> bytes, <allocs> allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read %q: %v", sc.Text(), err)
		}
		a, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("cannot read %q: %v", sc.Text(), err)
		}
		inits = append(inits, initTrace{pkg: f[1], bytes: b, allocs: a})
	}
	if len(inits) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 reported nothing:\n%s", stderr.String())
	}
	return inits
}
