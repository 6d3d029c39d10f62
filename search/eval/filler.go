package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// fillerEntry makes the n-th generated record. Each draws from its own stream
// of the seed, so filler n is the same whatever the corpus size.
func (d *Data) fillerEntry(seed uint64, n int, ids *idSource) (Entry, error) {
	key := "filler-" + strconv.Itoa(n)
	r := newRNG(seed, key)
	v := &d.vocabs[r.intn(len(d.vocabs))]
	f := &slots{r: r, v: v, t: &d.filler, vals: map[string]string{}}
	var rec *changelog.Record
	var err error
	switch k := r.intn(100); {
	case k < 55:
		t := pick(r, d.filler.Learnings)
		in := changelog.LearningInput{Text: f.fill(t.Text), Type: t.Type, Domain: v.Name, Classification: t.Classification}
		if t.Fix != "" {
			in.Resolution = f.fill(t.Fix)
		}
		if r.intn(3) == 0 {
			in.Evidence = changelog.Evidence{Files: []string{f.get("file")}}
		}
		rec, err = changelog.NewLearning(in)
	case k < 70:
		t := pick(r, d.filler.Decisions)
		in := changelog.DecisionInput{Decision: f.fill(t.Text), Rationale: f.fill(pick(r, d.filler.Reasons))}
		for _, a := range t.Alternatives {
			in.Alternatives = append(in.Alternatives, f.fill(a))
		}
		rec, err = changelog.NewDecision(in)
	case k < 92:
		t := pick(r, d.filler.Logs)
		rec, err = changelog.NewLog(changelog.LogInput{Text: f.fill(t.Text), Type: t.Type, Status: t.Status})
	default:
		in := changelog.HandoffInput{Text: f.fill(pick(r, d.filler.Handoffs))}
		if r.intn(4) == 0 {
			in.To = otherAgent(v.StateAgent)
		}
		rec, err = changelog.NewHandoff(in)
	}
	if err == nil && len(f.unknown) > 0 {
		err = fmt.Errorf("its template has unknown slots %v", f.unknown)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("failed to generate record %s: %w", key, err)
	}
	// A quarter of the learnings and decisions are not promoted yet; log
	// entries and handoffs never are.
	branch := project.GlobalBranch
	rec.Agent = v.Owner
	if !rec.Kind.Spec().Promoted || r.intn(4) == 0 {
		rec.Agent = v.StateAgent
		branch = project.AgentBranch(v.StateAgent)
	}
	rec.Timestamp = timeAt(r, 0, corpusDays)
	rec.ID = ids.next(key)
	return finish(Entry{Key: key, Domain: v.Name, Branch: branch, Record: rec})
}

func otherAgent(agent string) string {
	if agent == agentBackend {
		return agentInfra
	}
	return agentBackend
}

// slots fills one record's templates, remembering each slot's value: a
// template's {slot}s are filled from the record's domain (tool, tool2,
// ident, ident2, file, file2, cmd, err, topic, domain), from filler.json's
// shared lists (env, fix, reason, quarter), with a made-up ticket or with
// numbers (n, ms, ver). A slot used twice in one record has one value.
type slots struct {
	r    *rng
	v    *vocab
	t    *fillerData
	vals map[string]string
	// unknown are slots no value is known for: a typo in a template.
	unknown []string
}

// fill replaces the {slot}s of tmpl. Values are not scanned again, so
// braces in them ("user:v3:{id}") stay as they are.
func (s *slots) fill(tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(s.get(tmpl[i+1 : i+j]))
		tmpl = tmpl[i+j+1:]
	}
}

func (s *slots) get(name string) string {
	if v, ok := s.vals[name]; ok {
		return v
	}
	var v string
	switch name {
	case "tool":
		v = pick(s.r, s.v.Tools)
	case "tool2":
		v = s.other("tool", s.v.Tools)
	case "ident":
		v = pick(s.r, s.v.Idents)
	case "ident2":
		v = s.other("ident", s.v.Idents)
	case "file":
		v = pick(s.r, s.v.Files)
	case "file2":
		v = s.other("file", s.v.Files)
	case "cmd":
		v = pick(s.r, s.v.Cmds)
	case "err":
		v = pick(s.r, s.v.Errs)
	case "topic":
		v = pick(s.r, s.v.Topics)
	case "domain":
		v = s.v.Name
	case "env":
		v = pick(s.r, s.t.Envs)
	case "quarter":
		v = pick(s.r, s.t.Quarters)
	case "ticket":
		v = fmt.Sprintf("%s-%d", pick(s.r, []string{"ENG", "PLAT", "OPS"}), 100+s.r.intn(2900))
	case "n":
		v = strconv.Itoa(pick(s.r, []int{3, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 200, 500, 1000}))
	case "ms":
		v = strconv.Itoa(5 + s.r.intn(300))
	case "ver":
		v = fmt.Sprintf("%d.%d.%d", 1+s.r.intn(4), s.r.intn(30), s.r.intn(10))
	case "fix":
		v = s.fill(pick(s.r, s.t.Fixes))
	case "reason":
		v = s.fill(pick(s.r, s.t.Reasons))
	default:
		s.unknown = append(s.unknown, name)
	}
	s.vals[name] = v
	return v
}

// other picks a value of xs that differs from slot first's, when xs has one.
func (s *slots) other(first string, xs []string) string {
	a := s.get(first)
	for range 8 {
		if v := pick(s.r, xs); v != a {
			return v
		}
	}
	return a
}
