package cli

import (
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Commit and Date are set at build time, as Version is, by the release
// build (.goreleaser.yaml):
//
//	-ldflags "-X github.com/planq-dev/planq/cli.Version=v1.2.3
//	          -X github.com/planq-dev/planq/cli.Commit=<hash>
//	          -X github.com/planq-dev/planq/cli.Date=<the commit's date, RFC 3339>"
//
// A build without them (go install, go build) reads what Go recorded in the
// binary instead: the module's version and the commit and time of the
// checkout it was built from.
var (
	Commit = ""
	Date   = ""
)

// buildInfo is what planq version prints.
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// currentBuild is this binary's build: the values set at build time, else
// those Go recorded in it.
func currentBuild() buildInfo {
	info, _ := debug.ReadBuildInfo()
	return resolveBuild(Version, Commit, Date, info)
}

// resolveBuild fills what the build did not set from what Go recorded:
// the main module's version (a tag, or a pseudo-version of the commit, for
// go install and, since Go 1.24, go build in a checkout), vcs.revision and
// vcs.time. What neither knows stays empty; the version is then "dev".
func resolveBuild(version, commit, date string, info *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info != nil {
		if (b.Version == "" || b.Version == "dev") && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.Date == "":
				b.Date = s.Value
			}
		}
		if info.GoVersion != "" {
			b.Go = info.GoVersion
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

type versionOptions struct {
	json bool
}

func newVersionCmd(env *Env) *cobra.Command {
	var opts versionOptions
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print planq's version, commit and build date",
		Long: `Print the version of this planq, the commit it was built from, that
commit's date, the Go that built it and the platform it runs on. A value the
build did not record reads "unknown".

A release sets them when it is built; a planq built with go install or
go build reads them from what Go recorded in the binary.

JSON: {"version","commit","date","go","platform"}, an empty string for what
is unknown.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runVersion(env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runVersion(env *Env, opts versionOptions) error {
	b := currentBuild()
	if opts.json {
		return env.writeJSON(b)
	}
	for _, row := range [][2]string{{"version", b.Version}, {"commit", b.Commit}, {"date", b.Date}, {"go", b.Go}, {"platform", b.Platform}} {
		if row[1] == "" {
			row[1] = "unknown"
		}
		env.printf("%-9s %s\n", row[0], row[1])
	}
	return nil
}
