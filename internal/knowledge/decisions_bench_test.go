package knowledge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
)

// BenchmarkUpdateOf5000Decisions: kb update from nothing over 5,000
// decisions, four in five naming no subject (issue 39: at most 5 s, and an index
// under 64 KiB that lists every article). It reports the articles made
// and the index's size.
//
//	go test ./internal/knowledge -run '^$' -bench UpdateOf5000Decisions -benchtime 3x
func BenchmarkUpdateOf5000Decisions(b *testing.B) {
	words := strings.Fields("use keep store sign rotate cache queue split merge pin drop add tokens keys sessions logs builds " +
		"releases redis postgres kafka jwt rs256 weekly daily json yaml grpc rest docker nix retries timeouts shards replicas " +
		"backups migrations flags metrics traces alerts quotas limits webhooks schemas indexes vacuum locks leases")
	for b.Loop() {
		b.StopTimer()
		p := testproject.New(b, nil)
		recs := make([]*changelog.Record, 0, benchDecisions)
		for i := range benchDecisions {
			// Wording of its own, as a team's decisions have; every fifth
			// names one of 50 subjects.
			text := []string{"Decision", fmt.Sprint(i)}
			for k := range 6 {
				text = append(text, words[(i*7+k*13+i/len(words))%len(words)])
			}
			subject := ""
			if i%5 == 0 {
				subject = fmt.Sprintf("component %d", i%50)
			}
			r, err := changelog.NewDecision(changelog.DecisionInput{Decision: strings.Join(text, " "), Rationale: "it was measured", Subject: subject})
			if err != nil {
				b.Fatal(err)
			}
			recs = append(recs, r)
		}
		if _, err := p.Store.CommitGlobal(context.Background(), agent.GlobalChange{Writer: "auth", Records: recs, Message: "5,000 decisions\n"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := Update(context.Background(), p.Store, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if len(res.Skipped) > 0 {
			b.Errorf("articles skipped: %+v", res.Skipped)
		}
		tip, err := p.Store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			b.Fatal(err)
		}
		index, err := p.Store.Repo.ReadFile(tip, IndexPath)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(res.Created)), "articles")
		b.ReportMetric(float64(len(index)), "index-bytes")
		if len(index) >= 64<<10 {
			b.Errorf("the index is %d bytes, over 64 KiB", len(index))
		}
		b.StartTimer()
	}
}

var benchDecisions = 5000
