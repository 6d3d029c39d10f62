package eval

import (
	"context"
	"testing"
)

func TestMeasureSpreadNeedsEveryRecordCited(t *testing.T) {
	ctx := context.Background()
	set := corpus(t, testData(t).MinRecords(), sliceSeed)
	byText := map[string]SpreadQuestion{}
	for _, q := range set.Spread {
		byText[q.Text] = q
	}
	for _, tc := range []struct {
		name               string
		shown              func(q SpreadQuestion) []PrimeArticle
		wantBody, wantList float64
	}{
		{"all cited, body", func(q SpreadQuestion) []PrimeArticle { return []PrimeArticle{{Sources: q.RecordIDs, Body: true}} }, 1, 1},
		{"all cited, line", func(q SpreadQuestion) []PrimeArticle { return []PrimeArticle{{Sources: q.RecordIDs}} }, 0, 1},
		{"one missing", func(q SpreadQuestion) []PrimeArticle {
			return []PrimeArticle{{Sources: q.RecordIDs[1:], Body: true}}
		}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := MeasureSpread(ctx, set, func(_ context.Context, q string, _ int) ([]string, error) {
				return byText[q].RecordIDs[2:3], nil
			}, func(_ context.Context, q string) ([]PrimeArticle, error) { return tc.shown(byText[q]), nil })
			if err != nil {
				t.Fatal(err)
			}
			if rep.Record != 1 || rep.Body != tc.wantBody || rep.Listed != tc.wantList {
				t.Errorf("record %.2f body %.2f listed %.2f, want 1, %.2f, %.2f", rep.Record, rep.Body, rep.Listed, tc.wantBody, tc.wantList)
			}
		})
	}
}
