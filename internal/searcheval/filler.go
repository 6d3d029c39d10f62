package searcheval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// A template's {slot}s are filled from the record's domain (tool, tool2,
// ident, ident2, file, file2, cmd, err, topic, domain), from shared lists
// (env, ticket, fix, reason, quarter) or with numbers (n, ms, ver). A slot
// used twice in one record has one value.

type learningTemplate struct {
	typ            changelog.Type
	classification changelog.Classification
	text, fix      string
}

var learningTemplates = []learningTemplate{
	{typ: changelog.TypeFailure, text: "`{cmd}` fails with `{err}` in {env}", fix: "{fix}"},
	{typ: changelog.TypeFailure, text: "After upgrading {tool} to {ver}, {topic} breaks with `{err}`", fix: "{fix}"},
	{typ: changelog.TypeFailure, text: "{topic} is flaky in {env}: about one run in {n} ends with `{err}`", fix: "{fix}"},
	{typ: changelog.TypeFailure, text: "`{err}` from {tool} during a deploy; {topic} stalls until it retries", fix: "{fix}"},
	{typ: changelog.TypeFailure, text: "The service panics on startup when `{ident}` is unset ({file})",
		fix: "give `{ident}` a default in {file2} and fail with a clear message instead of a nil dereference"},
	{typ: changelog.TypeFailure, text: "`{cmd}` hangs on a fresh checkout",
		fix: "it waits for {tool}; start the stack first with `make dev-up`, or set `{ident}` to skip that step"},
	{typ: changelog.TypeFailure, text: "{tool} rejects calls from {env} with `{err}`", fix: "{fix}"},
	{typ: changelog.TypeConvention, text: "Keep {topic} code in {file}; new helpers go next to `{ident}`, not into a shared util package."},
	{typ: changelog.TypeConvention, text: "Always run `{cmd}` before pushing changes to {file}; CI runs the same check and fails otherwise."},
	{typ: changelog.TypeConvention, text: "Name new {topic} settings after `{ident}` and document them in {file}; the {tool} loader rejects keys it does not know."},
	{typ: changelog.TypeConvention, classification: changelog.Foundational,
		text: "Changes to {file} need a review from the {domain} owners (CODEOWNERS); say in the PR description when `{ident}` changes."},
	{typ: changelog.TypeConvention, text: "Log {topic} failures with the `{ident}` field set so that Loki queries can filter them; bare fmt errors get lost."},
	{typ: changelog.TypePattern, text: "For {topic}, wrap calls to {tool} in `{ident}` ({file}) so that retries, timeouts and metrics live in one place."},
	{typ: changelog.TypePattern, text: "{topic}: read `{ident}` once at startup and pass it down; reading it from {tool} on every request added {ms} ms to p99."},
	{typ: changelog.TypePattern, text: "Batch {topic} work in groups of {n}; one call to {tool} per item was the slowest part of `{cmd}`."},
	{typ: changelog.TypePattern, text: "Tests for {topic} build their fixtures with the helpers in {file}; don't copy the `{ident}` set-up into each test."},
	{typ: changelog.TypeReference, text: "{tool} dashboards for {topic} are in the Grafana folder {domain}; the panel to watch is `{ident}`."},
	{typ: changelog.TypeReference, text: "`{cmd}` shows the current state of {topic}; add `-v` to see `{ident}` as well."},
	{typ: changelog.TypeReference, text: "{topic} settings live in {file}; `{ident}` defaults to {n} and {env} overrides it."},
	{typ: changelog.TypeReference, classification: changelog.Observational,
		text: "prod runs {tool} {ver}; local dev gets the same version through docker compose, CI still has the one before."},
	{typ: changelog.TypeReference, classification: changelog.Observational,
		text: "Seen in {env}: {topic} got slower after the {tool} {ver} rollout, p99 from {ms} ms to about twice that; not explained yet."},
	{typ: changelog.TypeGuide, text: "To change {topic}: edit {file}, run `{cmd}`, open a PR with the {domain} label and wait for the {tool} check."},
	{typ: changelog.TypeGuide, text: "Debugging {topic} locally: start the stack with `make dev-up`, run `{cmd}` and watch for `{ident}` in the logs."},
	{typ: changelog.TypeGuide, text: "To reproduce `{err}` locally, set `{ident}` as {env} has it and run `{cmd}`; it shows within {n} tries."},
	{typ: changelog.TypeDecision, classification: changelog.Foundational,
		text: "We standardised on {tool} for {topic}; new code must not add {tool2}."},
}

var fixes = []string{
	"pin {tool} to {ver} in {file} until upstream ships a fix",
	"set `{ident}` explicitly in {file}; its default changed in {tool} {ver}",
	"clear the cache and rerun `{cmd}`; the stale artefact came from another branch",
	"`{ident}` was read before the config was loaded; the fix moves it into the constructor in {file}",
	"raise `{ident}` to {n} in {env}; the old value was sized for a tenth of the traffic",
	"retrying is safe here: wrap the call in `{ident2}` and stop after 3 attempts",
	"go back to the previous {tool} release and follow the upstream issue in {ticket}",
	"the credentials for {env} had expired; rotate them and rerun `{cmd}`",
}

type decisionTemplate struct {
	text         string
	alternatives []string
}

var decisionTemplates = []decisionTemplate{
	{text: "Use {tool} for {topic}", alternatives: []string{"{tool2}", "keeping the current setup"}},
	{text: "Move {topic} from {tool2} to {tool} by {quarter}", alternatives: []string{"staying on {tool2}"}},
	{text: "Keep `{ident}` at {n} for {topic}", alternatives: []string{"raising it with traffic", "making it per-tenant"}},
	{text: "Changes to {topic} ship behind a flag and spend a week in staging first"},
	{text: "{topic} lives in {file}; other packages go through `{ident}`", alternatives: []string{"one copy per service"}},
	{text: "Drop {tool2} from {topic}; {tool} covers what we used it for", alternatives: []string{"keeping both"}},
}

var reasons = []string{
	"{tool} is already in the stack and the team knows it, while {tool2} would be one more service to run",
	"it was the only option that held {n} requests per second in the load test",
	"{tool2} needs a paid plan for what we use",
	"the incident in {ticket} came from two code paths doing {topic} differently",
	"it keeps {topic} testable without a network",
	"on-call could not tell from the dashboards which part was misbehaving",
}

type logTemplate struct {
	typ    changelog.Type
	status changelog.Status
	text   string
}

var logTemplates = []logTemplate{
	{changelog.TypeStart, changelog.StatusInProgress, "Starting {ticket}: {topic} in {file}."},
	{changelog.TypePlan, changelog.StatusPending, "Plan for {ticket}: add `{ident}` to {file}, update the callers, then run `{cmd}`."},
	{changelog.TypeImplement, changelog.StatusCompleted, "Implemented the {topic} change for {ticket} in {file}; `{ident}` now defaults to {n}."},
	{changelog.TypeImplement, changelog.StatusCompleted, "Fixed `{err}` in {topic} ({ticket}); the cause was `{ident}` in {file}."},
	{changelog.TypeImplement, changelog.StatusBlocked, "Blocked on {ticket}: `{cmd}` fails with `{err}` in {env}; waiting for the {domain} owners."},
	{changelog.TypeImplement, changelog.StatusCompleted, "Refactored {file}: moved `{ident}` next to `{ident2}`, no change in behaviour."},
	{changelog.TypeDecision, changelog.StatusCompleted, "Chose {tool} over {tool2} for {topic} in {ticket}."},
	{changelog.TypeEnd, changelog.StatusCompleted, "Done with {ticket}: `{cmd}` passes, PR open for review."},
	{changelog.TypeHandoff, changelog.StatusCompleted, "Handing {ticket} ({topic}) over to the next session."},
}

var handoffTemplates = []string{
	"Next session: finish {ticket} ({topic}). `{cmd}` still fails with `{err}`; start reading at {file}.",
	"Pick up the {topic} review: the comments on {file} about `{ident}` are unanswered.",
	"{ticket} waits on the {domain} owners; meanwhile give `{ident}` in {file} a test.",
}

var (
	envs     = []string{"staging", "prod", "local dev", "CI", "the preview environments", "the eu-west-1 cluster"}
	quarters = []string{"Q2", "Q3", "Q4", "the end of the year"}
)

// filler makes the n-th generated record. Each draws from its own stream
// of the seed, so filler n is the same whatever the corpus size.
func filler(seed uint64, n int, ids *idSource) (Entry, error) {
	key := "filler-" + strconv.Itoa(n)
	r := newRNG(seed, key)
	v := &vocabs[r.intn(len(vocabs))]
	f := &slots{r: r, v: v, vals: map[string]string{}}
	var rec *changelog.Record
	var err error
	switch k := r.intn(100); {
	case k < 55:
		t := pick(r, learningTemplates)
		in := changelog.LearningInput{Text: f.fill(t.text), Type: t.typ, Domain: v.name, Classification: t.classification}
		if t.fix != "" {
			in.Resolution = f.fill(t.fix)
		}
		if r.intn(3) == 0 {
			in.Evidence = changelog.Evidence{Files: []string{f.get("file")}}
		}
		rec, err = changelog.NewLearning(in)
	case k < 70:
		t := pick(r, decisionTemplates)
		in := changelog.DecisionInput{Decision: f.fill(t.text), Rationale: f.fill(pick(r, reasons))}
		for _, a := range t.alternatives {
			in.Alternatives = append(in.Alternatives, f.fill(a))
		}
		rec, err = changelog.NewDecision(in)
	case k < 92:
		t := pick(r, logTemplates)
		rec, err = changelog.NewLog(changelog.LogInput{Text: f.fill(t.text), Type: t.typ, Status: t.status})
	default:
		in := changelog.HandoffInput{Text: f.fill(pick(r, handoffTemplates))}
		if r.intn(4) == 0 {
			in.To = otherAgent(v.stateAgent)
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
	rec.Agent = v.owner
	if !rec.Kind.Spec().Promoted || r.intn(4) == 0 {
		rec.Agent = v.stateAgent
		branch = project.AgentBranch(v.stateAgent)
	}
	rec.Timestamp = timeAt(r, 0, corpusDays)
	rec.ID = ids.next(key)
	return finish(Entry{Key: key, Domain: v.name, Branch: branch, Record: rec})
}

func otherAgent(agent string) string {
	if agent == agentBackend {
		return agentInfra
	}
	return agentBackend
}

// slots fills one record's templates, remembering each slot's value.
type slots struct {
	r    *rng
	v    *vocab
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
		v = pick(s.r, s.v.tools)
	case "tool2":
		v = s.other("tool", s.v.tools)
	case "ident":
		v = pick(s.r, s.v.idents)
	case "ident2":
		v = s.other("ident", s.v.idents)
	case "file":
		v = pick(s.r, s.v.files)
	case "file2":
		v = s.other("file", s.v.files)
	case "cmd":
		v = pick(s.r, s.v.cmds)
	case "err":
		v = pick(s.r, s.v.errs)
	case "topic":
		v = pick(s.r, s.v.topics)
	case "domain":
		v = s.v.name
	case "env":
		v = pick(s.r, envs)
	case "quarter":
		v = pick(s.r, quarters)
	case "ticket":
		v = fmt.Sprintf("%s-%d", pick(s.r, []string{"ENG", "PLAT", "OPS"}), 100+s.r.intn(2900))
	case "n":
		v = strconv.Itoa(pick(s.r, []int{3, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 200, 500, 1000}))
	case "ms":
		v = strconv.Itoa(5 + s.r.intn(300))
	case "ver":
		v = fmt.Sprintf("%d.%d.%d", 1+s.r.intn(4), s.r.intn(30), s.r.intn(10))
	case "fix":
		v = s.fill(pick(s.r, fixes))
	case "reason":
		v = s.fill(pick(s.r, reasons))
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
