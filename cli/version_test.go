package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// What the build set wins; what it did not set comes from what Go
// recorded in the binary; what neither knows stays empty.
func TestResolveBuild(t *testing.T) {
	recorded := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/planq-dev/planq", Version: "v0.0.0-20260501100000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-05-01T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		info                  *debug.BuildInfo
		want                  buildInfo
	}{
		{"a release", "v1.2.3", "fedcba9876543210fedcba9876543210fedcba98", "2026-06-01T08:00:00Z", recorded,
			buildInfo{"v1.2.3", "fedcba9876543210fedcba9876543210fedcba98", "2026-06-01T08:00:00Z", "go1.26.8", platform}},
		{"go build in a checkout", "dev", "", "", recorded,
			buildInfo{"v0.0.0-20260501100000-0123456789ab+dirty", "0123456789abcdef0123456789abcdef01234567", "2026-05-01T10:00:00Z", "go1.26.8", platform}},
		{"go install of a tag", "dev", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			buildInfo{"v1.4.0", "", "", "go1.26.8", platform}},
		{"a build Go recorded nothing of", "dev", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			buildInfo{"dev", "", "", "go1.26.8", platform}},
		{"no build information", "", "", "", nil,
			buildInfo{"dev", "", "", runtime.Version(), platform}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resolveBuild(tc.version, tc.commit, tc.date, tc.info); got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
