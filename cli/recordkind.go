package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// newRecordCmd is 'planq record KIND TEXT': one subcommand for each
// generic kind of the kind table (changelog.Spec.Generic), with a flag for
// each of its extra fields, so that a kind added as a row is written from
// the command line with no code here. Hidden while no kind is generic.
func newRecordCmd(env *Env) *cobra.Command {
	kinds := changelog.GenericKinds()
	cmd := &cobra.Command{
		Use:   "record KIND TEXT",
		Short: "Record a record of a kind the kind table describes in full (TEXT '-' reads stdin)",
		Long: `Record a record of a generic kind: a kind whose row in the kind table says all
there is to it, its types, statuses and fields of its own. Each such kind is a
subcommand, with a flag for each of its fields; the record gets the kind's
default type and its first status, and is committed on the agent's branch.
Every other kind has a command of its own.

Kinds written this way: ` + orNoKind(kinds) + `.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return planqerr.New(planqerr.Invalid, strconv.Quote(args[0]), "is not a kind 'planq record' writes").
				WithHint("kinds written this way: %s; every other kind has a command of its own ('planq help' lists them)", orNoKind(kinds))
		},
		Hidden: len(kinds) == 0,
	}
	for _, k := range kinds {
		cmd.AddCommand(newRecordKindCmd(env, k.Spec()))
	}
	return cmd
}

func orNoKind(kinds []changelog.Kind) string {
	if len(kinds) == 0 {
		return "none in this build"
	}
	return changelog.Join(kinds, ", ")
}

type recordOptions struct {
	writeFlags
	typ string
	// extra are the flags of the kind's extra fields, by key: a string
	// or, for a list, a []string.
	extra map[changelog.Field]any
}

// newRecordKindCmd is 'planq record KIND', its flags read from spec.
func newRecordKindCmd(env *Env, spec *changelog.Spec) *cobra.Command {
	opts := recordOptions{extra: map[changelog.Field]any{}}
	cmd := &cobra.Command{
		Use:   string(spec.Kind) + " TEXT",
		Short: "Record a " + spec.Noun + " (TEXT '-' reads stdin)",
		Long:  spec.About,
		Args:  exactArgs(1, "the TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecord(cmd.Context(), env, spec, opts, args[0])
		},
	}
	opts.register(cmd)
	if len(spec.Types) > 0 {
		cmd.Flags().StringVar(&opts.typ, "type", string(spec.DefaultType), "`TYPE`: "+changelog.Join(spec.Types, "|"))
	}
	for _, f := range spec.Extra {
		name, usage := strings.ReplaceAll(string(f.Key), "_", "-"), f.About
		if f.Required {
			usage += " (required)"
		}
		if f.List {
			list := new([]string)
			opts.extra[f.Key] = list
			cmd.Flags().StringArrayVar(list, name, nil, usage+"; repeat it, or separate values with commas")
			continue
		}
		s := new(string)
		opts.extra[f.Key] = s
		cmd.Flags().StringVar(s, name, "", usage)
	}
	return cmd
}

func runRecord(ctx context.Context, env *Env, spec *changelog.Spec, opts recordOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	extra := map[string]any{}
	for key, v := range opts.extra {
		switch v := v.(type) {
		case *string:
			extra[string(key)] = *v
		case *[]string:
			extra[string(key)] = splitList(*v)
		}
	}
	return reported(env, opts.writeFlags)(env.service().Record(ctx, session.RecordInput{Kind: spec.Kind,
		RecordInput: changelog.RecordInput{Text: text, Type: changelog.Type(opts.typ), Extra: extra}, Author: opts.author()}))
}
