package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// helloWorld builds a Go hello-world in dir as planq is built: the
// baseline of every start-up figure.
func helloWorld(dir string) string {
	hello := filepath.Join(dir, "hello")
	check(os.MkdirAll(hello, 0o755))
	check(os.WriteFile(filepath.Join(hello, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644))
	check(os.WriteFile(filepath.Join(hello, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644))
	helloBin := filepath.Join(dir, "hello-bin")
	build(hello, helloBin, ".")
	return helloBin
}

// benchStartup: what a process that does nothing pays, the cost of every
// hook and agent call before planq does its work (issue 38). planq
// --version beside a Go hello-world built the same way, in alternating
// pairs (target: at most 2x); the package initialisation Go runs before
// main, the sum of GODEBUG=inittrace=1's clocks (target: at most 4 ms),
// with the heaviest packages named; and the pages of the embedded search
// model a command that does not search maps (target: its edges at most,
// the model is read on first use).
func benchStartup(dir string) bool {
	helloBin := helloWorld(dir)
	floorBin, floorPkgs := requiredFloor(dir)
	initsBin := planqInitsAlone(dir)
	n := max(*runs, 101)
	var version, base, floor, inits []time.Duration
	var planqFaults, helloFaults, floorFaults, initsFaults []int64
	for i := 0; i < n; i++ {
		d, f := timedFaults(dir, planqBin, "--version")
		version, planqFaults = append(version, d), append(planqFaults, f)
		d, f = timedFaults(dir, helloBin)
		base, helloFaults = append(base, d), append(helloFaults, f)
		d, f = timedFaults(dir, floorBin)
		floor, floorFaults = append(floor, d), append(floorFaults, f)
		d, f = timedFaults(dir, initsBin)
		inits, initsFaults = append(inits, d), append(initsFaults, f)
	}
	ratio := float64(median(version)) / float64(median(base))
	fmt.Printf("startup: %d alternating runs of each, medians\n", n)
	fmt.Printf("  %-44s %7s  minor page faults %d\n", "Go hello-world", ms(median(base)), medianInt(helloFaults))
	fmt.Printf("  %-44s %7s  minor page faults %d  %.2fx hello-world\n", "the required libraries alone (see below)", ms(median(floor)), medianInt(floorFaults),
		float64(median(floor))/float64(median(base)))
	fmt.Printf("  %-44s %7s  minor page faults %d  %.2fx hello-world\n", "planq's packages, initialised, and no command", ms(median(inits)), medianInt(initsFaults),
		float64(median(inits))/float64(median(base)))
	fmt.Printf("  %-44s %7s  minor page faults %d  %.2fx hello-world (target <= 2x)\n", "planq --version", ms(median(version)), medianInt(planqFaults), ratio)
	fmt.Printf("  (the required libraries alone: a program that links the %d packages planq imports of cobra, go-git, frontmatter and charmbracelet/log, and does nothing;\n", floorPkgs)
	fmt.Printf("   planq's packages and no command: planq's main replaced by one that returns, so every package initialises and the commands' code is not linked)\n")

	planqInit := initTraces(dir, planqBin, max(*runs, 51), "--version")
	helloInit := initTraces(dir, helloBin, max(*runs, 51))
	floorInit := initTraces(dir, floorBin, max(*runs, 51))
	total := planqInit.medianTotal()
	fmt.Printf("  %-44s %7s  hello-world %s, the required libraries alone %s; planq allocates %d KiB in %d packages' inits (target <= 4ms)\n",
		"package init (inittrace clocks summed)", ms(total), ms(helloInit.medianTotal()), ms(floorInit.medianTotal()), planqInit.bytes/1024, len(planqInit.clocks))
	fmt.Print("  heaviest inits (median clock, bytes):")
	for i, pkg := range planqInit.heaviest(10) {
		if i%3 == 0 {
			fmt.Print("\n     ")
		}
		fmt.Printf(" %s %.2fms %dKiB;", strings.TrimPrefix(pkg, "github.com/"), float64(median(planqInit.clocks[pkg]).Microseconds())/1000, planqInit.pkgBytes[pkg]/1024)
	}
	fmt.Println()

	model := filepath.Join("internal", "embed", "model", "default.pqemb")
	// planq mcp serve becomes planq-server (exec): measured in that binary.
	mapped, pages, err := modelPagesMapped(dir, filepath.Join(filepath.Dir(planqBin), "planq-server"), model, "mcp", "serve")
	modelOK := true
	switch {
	case err != nil:
		fmt.Printf("  embedded model: not measured (%v)\n", err)
	default:
		// Each fault maps up to 16 pages around it: the rodata either side
		// of the model may bring in a few of its pages at each end.
		modelOK = mapped <= 32
		fmt.Printf("  embedded model (%s, %d pages): %d mapped by planq-server mcp serve waiting on stdin (target <= 32: its edges)\n", model, pages, mapped)
	}
	return report(ratio <= 2 && total <= 4*time.Millisecond && modelOK)
}

// requiredLibraries are the modules planq is required to build on: what a
// program that links them, as planq does, pays at start is the floor of
// planq's.
var requiredLibraries = []string{"github.com/spf13/cobra", "github.com/go-git/go-git/v5", "github.com/adrg/frontmatter", "github.com/charmbracelet/log"}

// requiredFloor builds, beside planq and as planq is built, a program that
// imports every package of the required libraries that planq's own
// packages import, and does nothing; it returns the binary and how many
// packages it imports. The program is laid over the module (go build
// -overlay), so the libraries are the versions planq builds with.
func requiredFloor(dir string) (string, int) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}} {{join .Imports " "}}{{end}}`, "./cmd/planq").Output()
	check(err)
	imported := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "github.com/planq-dev/planq") {
			continue
		}
		for _, imp := range fields[1:] {
			for _, lib := range requiredLibraries {
				if imp == lib || strings.HasPrefix(imp, lib+"/") {
					imported[imp] = true
				}
			}
		}
	}
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, imp := range slices.Sorted(maps.Keys(imported)) {
		fmt.Fprintf(&src, "\t_ %q\n", imp)
	}
	src.WriteString(")\n\nfunc main() {}\n")
	main := filepath.Join(dir, "floor.go")
	check(os.WriteFile(main, []byte(src.String()), 0o644))
	bin := buildOverlaid(dir, "floor-bin", "./cmd/planq-floor", filepath.Join("cmd", "planq-floor", "main.go"), main)
	return bin, len(imported)
}

// planqInitsAlone builds planq with a main that returns at once: every
// package planq links initialises as in planq, but no command's code is
// linked, so the difference from planq --version is what planq's size
// and its command cost.
func planqInitsAlone(dir string) string {
	main := filepath.Join(dir, "inits-alone.go")
	check(os.WriteFile(main, []byte("package main\n\nimport _ \"github.com/planq-dev/planq/cli\"\n\nfunc main() {}\n"), 0o644))
	return buildOverlaid(dir, "inits-alone-bin", "./cmd/planq", filepath.Join("cmd", "planq", "main.go"), main)
}

// buildOverlaid builds pkg into dir/name as planq is built, with the
// module's file at rel (from the module's root) replaced by, or added as,
// the file with.
func buildOverlaid(dir, name, pkg, rel, with string) string {
	root, err := filepath.Abs(".")
	check(err)
	overlay := filepath.Join(dir, name+"-overlay.json")
	data, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, rel): with}})
	check(err)
	check(os.WriteFile(overlay, data, 0o644))
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-overlay", overlay, "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		check(fmt.Errorf("go build of %s (%s over %s): %w\n%s", pkg, with, rel, err, out))
	}
	return bin
}

// timedFaults runs a command and returns its wall time and its minor page
// faults: the pages of the binary and heap it touched.
func timedFaults(dir, name string, args ...string) (time.Duration, int64) {
	d, state := timedRun(dir, name, args...)
	return d, exitedMinorFaults(state)
}

func medianInt(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// inits is what GODEBUG=inittrace=1 reported over several runs.
type inits struct {
	totals   []time.Duration            // per run, every package's clock summed
	clocks   map[string][]time.Duration // per package, one a run
	pkgBytes map[string]int             // per package, from the last run
	bytes    int                        // every package, the last run
}

func (in inits) medianTotal() time.Duration { return median(in.totals) }

// heaviest are the n packages of the longest median init.
func (in inits) heaviest(n int) []string {
	var pkgs []string
	for pkg := range in.clocks {
		pkgs = append(pkgs, pkg)
	}
	slices.SortFunc(pkgs, func(a, b string) int { return int(median(in.clocks[b]) - median(in.clocks[a])) })
	return pkgs[:min(n, len(pkgs))]
}

// initTraces runs bin runs times with GODEBUG=inittrace=1 and reads each
// line, "init <pkg> @<t> ms, <clock> ms clock, <bytes> bytes, <allocs> allocs".
func initTraces(dir, bin string, runs int, args ...string) inits {
	in := inits{clocks: map[string][]time.Duration{}, pkgBytes: map[string]int{}}
	for i := 0; i < runs; i++ {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, append(slices.Clone(env), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "%s %v: %v\n%s", bin, args, err, stderr.String())
			os.Exit(2)
		}
		var total time.Duration
		in.bytes = 0
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 11 || f[0] != "init" || f[6] != "clock," || f[8] != "bytes," {
				continue
			}
			clock, err1 := strconv.ParseFloat(f[4], 64)
			b, err2 := strconv.Atoi(f[7])
			if err1 != nil || err2 != nil {
				fmt.Fprintf(os.Stderr, "cannot read inittrace line %q\n", sc.Text())
				os.Exit(2)
			}
			d := time.Duration(clock * float64(time.Millisecond))
			total += d
			in.clocks[f[1]] = append(in.clocks[f[1]], d)
			in.pkgBytes[f[1]] = b
			in.bytes += b
		}
		in.totals = append(in.totals, total)
	}
	return in
}
