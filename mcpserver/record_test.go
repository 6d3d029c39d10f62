package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// TestRecordSchemaFollowsTheRows holds planq_record's schema to the rows of
// the generic kinds it writes (the build has none; e2e's newkind test
// writes through it with one): the kinds and their types enumerated, each
// field of their own under extra with its type, nothing else there.
func TestRecordSchemaFollowsTheRows(t *testing.T) {
	specs := []*changelog.Spec{
		{Kind: "memo", Noun: "memo", Extra: []changelog.ExtraField{{Key: "audience", Required: true, About: "who it is for"}}},
		{Kind: "article", Noun: "article", Types: []changelog.Type{"guide", "reference"},
			Extra: []changelog.ExtraField{{Key: "related", List: true, About: "what else to read"}, {Key: "audience", About: "its readers"}}},
		{Kind: "bare", Noun: "bare"},
	}
	schema, about := recordSchema(specs)
	if about != "memo (extra: audience), article (extra: related, audience), bare (extra: none)" {
		t.Errorf("description lists %q", about)
	}
	data, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"kind":{"type":"string","description":"what kind of record","enum":["memo","article","bare"]}`,
		`"enum":["guide","reference"]`,
		`"audience":{"type":"string","description":"who it is for (memo, required); its readers (article)"}`,
		`"related":{"type":"array","items":{"type":"string"},"description":"what else to read (article)"}`,
		`"additionalProperties":false`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("schema lacks %s:\n%s", want, data)
		}
	}
	if schema, _ := recordSchema(specs[:1]); schema.Properties["type"] != nil {
		t.Error("a schema for kinds without types offers a type")
	}
}
