package knowledge

import (
	"context"
	"fmt"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
)

// BenchmarkIncrementalUpdateAt50000Records: kb update after one promote
// on a project of 50,000 records on global (45,000 learnings over 40
// domains and 2,000 subjects, 5,000 decisions) whose knowledge base is in
// step (issue 39: at most 300 ms). Each run opens the store afresh, as a
// planq process does, with the read model's cache on disk from the runs
// before; one learning joins global before it, outside the timer. It
// reports the articles the update made again.
//
//	go test ./internal/knowledge -run '^$' -bench IncrementalUpdateAt50000Records -benchtime 10x
func BenchmarkIncrementalUpdateAt50000Records(b *testing.B) {
	ctx := context.Background()
	p := testproject.New(b, nil)
	recs := make([]*changelog.Record, 0, 50000)
	types := []changelog.Type{changelog.TypeConvention, changelog.TypePattern, changelog.TypeFailure, changelog.TypeGuide, changelog.TypeReference}
	for i := range 45000 {
		r, err := changelog.NewLearning(changelog.LearningInput{
			Text:       fmt.Sprintf("Part %d of the %d layer retries call %d with backoff.", i, i%40, i%97),
			Type:       types[i%len(types)],
			Domain:     fmt.Sprintf("domain-%d", i%40),
			Subject:    fmt.Sprintf("subject %d", i%2000),
			Resolution: map[bool]string{true: "Retry once."}[types[i%len(types)] == changelog.TypeFailure],
		})
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, r)
	}
	for i := range 5000 {
		r, err := changelog.NewDecision(changelog.DecisionInput{Decision: fmt.Sprintf("Decision %d: keep part %d in store %d", i, i%300, i%17),
			Rationale: "it was measured", Subject: map[bool]string{true: fmt.Sprintf("subject %d", i%2000)}[i%5 == 0]})
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, r)
	}
	if _, err := p.Store.CommitGlobal(ctx, agent.GlobalChange{Writer: "auth", Records: recs, Message: "50,000 records\n"}); err != nil {
		b.Fatal(err)
	}
	if _, err := Update(ctx, p.Store, Options{}); err != nil {
		b.Fatal(err)
	}
	remade := 0
	i := 0
	for b.Loop() {
		b.StopTimer()
		r, err := changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("Promoted %d: the cache holds %d entries.", i, i*10),
			Type: changelog.TypePattern, Domain: fmt.Sprintf("domain-%d", i%40), Subject: fmt.Sprintf("subject %d", i%2000)})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Store.CommitGlobal(ctx, agent.GlobalChange{Writer: "auth", Records: []*changelog.Record{r}, Message: "one promote\n"}); err != nil {
			b.Fatal(err)
		}
		i++
		store, err := agent.OpenStore(ctx, p.Store.Project)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := Update(ctx, store, Options{})
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		_ = store.Close()
		remade += len(res.Created) + len(res.Updated)
		if len(res.Updated)+len(res.Created) == 0 {
			b.Errorf("run %d: the promoted learning joined no article", i)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(remade)/float64(b.N), "articles/op")
}
