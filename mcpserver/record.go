package mcpserver

import (
	"context"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type recordIn struct {
	agentArg
	writeArg
	Kind  string         `json:"kind" jsonschema:"what kind of record"`
	Text  string         `json:"text" jsonschema:"what it says"`
	Type  string         `json:"type,omitempty" jsonschema:"its type, for a kind with types; default the kind's"`
	Extra map[string]any `json:"extra,omitempty" jsonschema:"the kind's fields of its own"`
}

// registerRecord adds planq_record, the writer of every generic kind of
// the kind table (changelog.Spec.Generic), its schema read from their rows:
// a kind added as a row is written over MCP with no code here. No generic
// kind, no tool.
func (s *Server) registerRecord(srv *mcp.Server) {
	var specs []*changelog.Spec
	for _, k := range changelog.GenericKinds() {
		specs = append(specs, k.Spec())
	}
	if len(specs) == 0 {
		return
	}
	schema, about := recordSchema(specs)
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_record", Annotations: annotate("Record another kind", adds),
		Description: "Record a record of a kind described by its row alone: " + about + ".",
		InputSchema: schema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in recordIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) {
				return written(s.svc.Record(ctx, session.RecordInput{Kind: changelog.Kind(in.Kind), Author: author(in.agentArg, in.writeArg),
					RecordInput: changelog.RecordInput{Text: in.Text, Type: changelog.Type(in.Type), Extra: in.Extra}}))
			})
		})
}

// recordSchema is planq_record's input schema for the generic kinds specs:
// kind one of them, type one of their types (no type when none has any),
// and under extra each one's fields of its own, typed; and the kinds with
// their fields, for the description.
func recordSchema(specs []*changelog.Spec) (*jsonschema.Schema, string) {
	var kinds []changelog.Kind
	var types []changelog.Type
	extra := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	var about []string
	for _, spec := range specs {
		kinds = append(kinds, spec.Kind)
		for _, t := range spec.Types {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		var fields []string
		for _, f := range spec.Extra {
			fields = append(fields, string(f.Key))
			whose := spec.Noun
			if f.Required {
				whose += ", required"
			}
			p := &jsonschema.Schema{Type: "string", Description: f.About + " (" + whose + ")"}
			if f.List {
				p = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: p.Description}
			}
			if have, ok := extra.Properties[string(f.Key)]; ok {
				p.Description = have.Description + "; " + p.Description
			}
			extra.Properties[string(f.Key)] = p
		}
		about = append(about, string(spec.Kind)+" (extra: "+orNone(fields)+")")
	}
	allowed := enums{"kind": values(kinds)}
	if len(types) > 0 {
		allowed["type"] = values(types)
	}
	schema := schemaFor[recordIn](allowed)
	schema.Properties["extra"] = extra
	if len(types) == 0 {
		delete(schema.Properties, "type")
	}
	return schema, strings.Join(about, ", ")
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
