package search

import (
	"fmt"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// One phrasing that names a rare identifier exactly (an error code) finds
// the one record that says it, far ahead of anything else; the agent's
// other phrasings, in words of their own, rank other records moderately
// and miss it. The exact hit comes first: several middling places do not
// outweigh one sharp first place.
func TestFusionKeepsASharpHit(t *testing.T) {
	doc := func(title, body string) Doc {
		return Doc{Domain: "billing", Type: changelog.TypeFailure, text: [numFields]string{title, "billing", body}}
	}
	docs := []Doc{
		0: doc("Nightly invoice run stops", "The invoice run aborts with ERR_QUOTA_7731 when the tax provider's yearly quota is spent: raise it in the provider's console."),
	}
	// Many records speak of monthly reports and tenants, each in a few
	// words of its own: the vague phrasings rank them moderately, none far
	// ahead of the rest.
	topics := []string{"report", "monthly totals", "tenant list", "empty rows", "report job", "tenant plans", "monthly export"}
	for i := range 60 {
		a, b := topics[i%len(topics)], topics[(i/len(topics)+i+1)%len(topics)]
		docs = append(docs, doc(fmt.Sprintf("Note %d on the %s", i, a), fmt.Sprintf("The %s and the %s of customer %d need a look after the upgrade.", a, b, i)))
	}
	parts := openParts(t, Encode(indexAll(docs)))
	q := Query{Phrasings: []string{
		"why is the monthly report empty for some tenants",
		"monthly report tenants missing",
		"ERR_QUOTA_7731",
	}, Limit: 5}

	// Each phrasing alone ranks as the case says.
	for i, p := range q.Phrasings {
		res, err := Search(parts, Query{Phrasings: []string{p}, Limit: 60})
		if err != nil {
			t.Fatal(err)
		}
		found := -1
		for r, h := range res.Hits {
			if h.Doc == 0 {
				found = r
			}
		}
		switch {
		case i < 2 && (found >= 0 || len(res.Hits) < 3):
			t.Fatalf("phrasing %q finds the error's record (at %d of %d): the case needs it to miss", p, found+1, len(res.Hits))
		case i == 2 && (found != 0 || len(res.Hits) != 1):
			t.Fatalf("phrasing %q finds %v: the case needs the error's record alone", p, res.Hits)
		}
	}

	res, err := Search(parts, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Doc != 0 {
		t.Fatalf("the phrasings fused rank %v first; want record 0, the only one that says ERR_QUOTA_7731", res.Hits)
	}
}
