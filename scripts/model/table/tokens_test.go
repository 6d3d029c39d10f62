package table

import (
	"reflect"
	"testing"
)

func TestTokensSplitIdentifiersAndKeepThemWhole(t *testing.T) {
	got := Tokens("The HTTPServer uses pg_dump --no-owner; sha256 of A")
	want := []string{"the", "httpserver", "http", "server", "uses", "pgdump", "pg", "dump",
		"noowner", "no", "owner", "sha256", "sha", "256", "of", "a"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
