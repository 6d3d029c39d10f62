package mcpserver

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// enums names, per input property, the values the kind table allows.
type enums map[string][]any

// values lists enumerated values for a schema.
func values[T ~string](vals []T) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

// schemaFor is the input schema of T, with the enumerations of the kind
// table set on its properties: the agent sees exactly the values planq
// accepts, and a new kind, type or status reaches the schema with no edit
// here.
func schemaFor[T any](allowed enums) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: input schema of %T: %v", *new(T), err)) // a programming error, caught by every test run
	}
	for _, p := range s.Properties {
		// jsonschema-go lets every slice and pointer be null. Here null
		// would only mean "left out", which leaving it out says: one type
		// is shorter, and clients whose schema dialect has no type lists
		// read it.
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
	}
	for prop, vals := range allowed {
		p, ok := s.Properties[prop]
		if !ok {
			panic(fmt.Sprintf("mcpserver: input of %T has no property %q", *new(T), prop))
		}
		if p.Items != nil {
			p.Items.Enum = vals // each element is one of vals
			continue
		}
		p.Enum = vals
	}
	return s
}
