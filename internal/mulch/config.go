package mulch

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/planqerr"
)

// Config is what planq reads of a mulch.config.yaml: the record types the
// project declares beside mulch's six.
type Config struct {
	CustomTypes map[string]CustomType `yaml:"custom_types"`
}

// CustomType is a type declared under custom_types: the built-in type it
// extends (whose fields it has too), its own fields, their legacy names,
// and the template of its one-line summary.
type CustomType struct {
	Extends  string              `yaml:"extends"`
	Required []string            `yaml:"required"`
	Optional []string            `yaml:"optional"`
	Aliases  map[string][]string `yaml:"aliases"`
	Summary  string              `yaml:"summary"`
	// ExtractsFiles makes FilesField (default "files") a list of paths.
	ExtractsFiles bool   `yaml:"extracts_files"`
	FilesField    string `yaml:"files_field"`
}

var customName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*$`) })

// maxConfig is the largest mulch.config.yaml read: a few KiB in practice.
const maxConfig = 1 << 20

// ReadConfig reads dir's mulch.config.yaml, if it has one. Only
// custom_types is read; every other key is mulch's business. A custom type
// whose declaration mulch would refuse (a name or field it does not take,
// a built-in it cannot extend) is an error naming it.
func ReadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, "mulch.config.yaml")
	data, err := untrusted.ReadFile(dir, path, maxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil
	}
	if untrusted.ReasonOf(err) != 0 {
		return Config{}, planqerr.New(planqerr.Invalid, path, "%s", untrusted.Why(err)).
			WithHint("make it a regular file of the mulch directory (mulch reads it too); nothing was imported")
	}
	if err != nil {
		return Config{}, fmt.Errorf("failed to read %s: %w", path, err)
	}
	var c Config
	if err := yaml.Unmarshal(data, &c); err != nil {
		return Config{}, planqerr.New(planqerr.Invalid, path, "cannot be read: %v", err).
			WithHint("fix it (mulch reads it too); nothing was imported")
	}
	for name, ct := range c.CustomTypes {
		if err := ct.check(name); err != nil {
			return Config{}, planqerr.New(planqerr.Invalid, path, "custom type %q: %v", name, err).
				WithHint("fix its declaration under custom_types (mulch refuses it too); nothing was imported")
		}
	}
	return c, nil
}

func (ct CustomType) check(name string) error {
	if !customName().MatchString(name) {
		return errors.New("a type's name is lowercase letters, digits and '_'")
	}
	if _, ok := builtins[name]; ok {
		return errors.New("is one of mulch's own types")
	}
	if _, ok := builtins[ct.Extends]; ct.Extends != "" && !ok {
		return fmt.Errorf("extends %q, which is not one of mulch's types (%s)", ct.Extends, builtinNames)
	}
	if ct.Extends == "" && len(ct.Required) == 0 {
		return errors.New("extends no type and requires no field")
	}
	for _, f := range append(slicesClip(ct.Required), ct.Optional...) {
		if !customName().MatchString(f) || baseFields()[f] {
			return fmt.Errorf("%q is not a field a custom type may declare", f)
		}
	}
	return nil
}

// applyAliases renames ct's legacy fields in raw to their current names,
// as mulch reads them: the current name wins when both are there.
func (ct CustomType) applyAliases(raw map[string]json.RawMessage) {
	for canonical, legacy := range ct.Aliases {
		for _, old := range legacy {
			v, ok := raw[old]
			if !ok {
				continue
			}
			if cur, has := raw[canonical]; !has || string(cur) == "null" || string(cur) == `""` {
				raw[canonical] = v
			}
			delete(raw, old)
		}
	}
}

// value decodes custom field f: a string, or a list of paths for the
// files field of a type that extracts files.
func (ct CustomType) value(f string, v json.RawMessage) (any, error) {
	if ct.ExtractsFiles && f == ct.filesField() {
		var files []string
		if err := json.Unmarshal(v, &files); err != nil {
			return nil, fmt.Errorf("field %q is not a list of paths", f)
		}
		return files, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, fmt.Errorf("field %q is not a string", f)
	}
	return s, nil
}

func (ct CustomType) filesField() string {
	if ct.FilesField != "" {
		return ct.FilesField
	}
	return "files"
}

// fields are ct's own fields in the order it declares them.
func (ct CustomType) fields() []string {
	return append(slicesClip(ct.Required), ct.Optional...)
}

// nearest is the planq type of a custom type: the built-in it extends, or
// for one that extends none, the built-in whose fields it has: a
// resolution makes a failure, a rationale a decision, content a
// convention, a name a pattern; anything else is a reference.
func (ct CustomType) nearest() string {
	if ct.Extends != "" {
		return ct.Extends
	}
	has := map[string]bool{}
	for _, f := range ct.fields() {
		has[f] = true
	}
	switch {
	case has["resolution"]:
		return "failure"
	case has["rationale"]:
		return "decision"
	case has["content"]:
		return "convention"
	case has["name"]:
		return "pattern"
	}
	return "reference"
}

var summaryToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z_][a-z0-9_]*)\}`) })

// summary is ct's summary of r: its template with r's fields filled in.
func (ct CustomType) summary(r Record) string {
	if ct.Summary == "" {
		return ""
	}
	return summaryToken().ReplaceAllStringFunc(ct.Summary, func(tok string) string {
		return r.text(tok[1 : len(tok)-1])
	})
}

// sortedFields are r's custom fields by name.
func sortedFields(r Record) []string {
	out := make([]string, 0, len(r.Fields))
	for f := range r.Fields {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// fieldLines are r's custom fields, one "field: value" line each, in ct's
// order: the text of a learning whose type extends none.
func (ct CustomType) fieldLines(r Record) string {
	var b strings.Builder
	for _, f := range ct.fields() {
		if v := r.text(f); strings.TrimSpace(v) != "" {
			fmt.Fprintf(&b, "%s: %s\n", f, v)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ConfigYAML is a mulch.config.yaml for an export of recs into domains:
// the domains, and the custom types recs are of, each declared with the
// built-in it extends and the fields its records hold (those every record
// of a type that extends none holds are required, its first the key mulch
// draws ids and duplicates from), so that mulch, and an import, read the
// export back.
func ConfigYAML(domains []string, recs []Record) []byte {
	var b strings.Builder
	b.WriteString("version: '1'\ndomains:\n")
	for _, d := range domains {
		fmt.Fprintf(&b, "  %s: {}\n", d)
	}
	types, names := customTypesOf(recs)
	if len(names) == 0 {
		return []byte(b.String())
	}
	b.WriteString("custom_types:\n")
	for _, name := range names {
		t := types[name]
		fmt.Fprintf(&b, "  %s:\n", name)
		required, optional := t.split()
		if t.extends != "" {
			fmt.Fprintf(&b, "    extends: %s\n", t.extends)
		} else if len(required) > 0 {
			fmt.Fprintf(&b, "    dedup_key: %s\n    summary: '{%s}'\n", required[0], required[0])
		}
		writeList(&b, "required", required)
		writeList(&b, "optional", optional)
	}
	return []byte(b.String())
}

// seenType is a custom type as the records of an export show it.
type seenType struct {
	extends string
	count   int
	fields  map[string]int
	order   []string
}

// customTypesOf is the custom types recs are of, and their names, sorted.
func customTypesOf(recs []Record) (map[string]*seenType, []string) {
	types := map[string]*seenType{}
	var names []string
	for _, r := range recs {
		if _, builtin := builtins[r.Type]; builtin || !customName().MatchString(r.Type) {
			continue
		}
		t := types[r.Type]
		if t == nil {
			t = &seenType{extends: r.Extends, fields: map[string]int{}}
			types[r.Type] = t
			names = append(names, r.Type)
		}
		t.count++
		for _, f := range sortedFields(r) {
			if t.fields[f] == 0 {
				t.order = append(t.order, f)
			}
			t.fields[f]++
		}
	}
	sort.Strings(names)
	return types, names
}

// split is t's fields, required (those every record of a type that
// extends none holds) and optional.
func (t *seenType) split() (required, optional []string) {
	for _, f := range t.order {
		if t.extends == "" && t.fields[f] == t.count {
			required = append(required, f)
		} else {
			optional = append(optional, f)
		}
	}
	return required, optional
}

func writeList(b *strings.Builder, key string, fields []string) {
	if len(fields) > 0 {
		fmt.Fprintf(b, "    %s: [%s]\n", key, strings.Join(fields, ", "))
	}
}
