package session

import (
	"context"
	"errors"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Project is planq's project service: the one door every front end (the
// command line, the MCP server, the review page, the hooks) goes through.
// It has one method per capability; a front end turns its input into the
// method's input type and presents what comes back, and never opens a
// store, resolves an agent or walks git itself.
//
// A Project finds its planq project and opens its store on first use, so a
// command that never touches the project (the user layer, the model) pays
// nothing for it, and one outside any project fails only when it needs
// one. It is not safe for concurrent use: the MCP server serialises its
// calls.
type Project struct {
	dir string

	located bool
	found   *project.Project
	findErr error

	store *agent.Store

	// updating: the knowledge base's own writer is at work (the hook of
	// the writer, a kb command), and a move of global it makes calls for no
	// update of the hook's.
	updating bool
	// stepped is what the last update the writer's hook ran did, until a
	// method reports it (takeStep).
	stepped *knowledge.Summary
}

// Open returns the service for the planq project dir is in. Nothing is
// read until a method needs it.
func Open(dir string) *Project { return &Project{dir: dir} }

// OpenStore returns the service with its project found and its store open
// now: a long-lived front end (the MCP server) learns at start whether
// there is a project to serve. ctx's readmodel.Progress hears of the read
// model's builds.
func OpenStore(ctx context.Context, dir string) (*Project, error) {
	s := Open(dir)
	if _, err := s.openStore(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Wrap is the service over a store already open; closing the service
// closes it. Front ends open the service (Open, OpenStore); a test holding
// a store in a state no file on disk expresses uses this.
func Wrap(store *agent.Store) *Project {
	s := &Project{located: true, found: store.Project}
	s.attach(store)
	if store.Project != nil {
		s.dir = store.Project.Workspace
	} else {
		s.findErr = errors.New("failed to find the project: its store was opened without one")
	}
	return s
}

// Close saves what the record cache learned; a failure there costs only
// speed, and is returned for the caller to log.
func (s *Project) Close() error {
	if s == nil || s.store == nil {
		return nil
	}
	err := s.store.Close()
	s.store = nil
	return err
}

// Dir is the directory the service was opened in.
func (s *Project) Dir() string { return s.dir }

// Workspace is the code checkout the project was found in.
func (s *Project) Workspace() (string, error) {
	p, err := s.project()
	if err != nil {
		return "", err
	}
	return p.Workspace, nil
}

// Home is planq's home ($PLANQ_HOME, default ~/.planq), which a project
// and the user layer live under.
func (s *Project) Home() (string, error) {
	if p, err := s.project(); err == nil {
		return p.Home, nil
	}
	return project.Home()
}

// project finds the planq project the service was opened in, once.
func (s *Project) project() (*project.Project, error) {
	if !s.located {
		s.found, s.findErr = project.Find(s.dir)
		s.located = true
	}
	return s.found, s.findErr
}

// InProject reports whether the service was opened inside a planq
// project, and if not, why.
func (s *Project) InProject() error {
	_, err := s.project()
	return err
}

// openStore opens the project's store and record cache, once.
func (s *Project) openStore(ctx context.Context) (*agent.Store, error) {
	if s.store != nil {
		return s.store, nil
	}
	p, err := s.project()
	if err != nil {
		return nil, err
	}
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return nil, err
	}
	s.attach(store)
	return store, nil
}

// attach makes store the service's, with the knowledge base kept in step
// as a hook of its writer: whichever write moves global (a promote, a
// pull's merge or fast-forward, a push's pulls, a prune, a restore, a
// bootstrap's records), the articles follow the learnings and decisions it
// brought, and no method has a step of its own to remember.
func (s *Project) attach(store *agent.Store) {
	s.store = store
	store.GlobalMoved = s.globalMoved
}

// globalMoved brings the knowledge base in step after global moved from
// one commit to another, when the learnings, decisions or articles changed
// (knowledge.SourcesChanged). The
// move has landed: a failed update is kept in the summary, never returned,
// and 'planq kb update' does it again.
func (s *Project) globalMoved(ctx context.Context, from, to staterepo.Hash) {
	if s.updating || !knowledge.SourcesChanged(s.store.Repo, from, to) {
		return
	}
	s.stepKnowledge(ctx)
}

// stepKnowledge brings the knowledge base in step, as its own writer, and
// keeps what that did for the method that reports it (takeStep).
func (s *Project) stepKnowledge(ctx context.Context) {
	defer s.writingKnowledge()()
	s.stepped = knowledge.UpdateAfter(ctx, s.store, knowledge.Options{Topics: s.store.Project.Config.Knowledge.Topics})
}

// takeStep is what the updates the writer's hook ran since the last call
// did (the last one's summary), nil when none ran.
func (s *Project) takeStep() *knowledge.Summary {
	step := s.stepped
	s.stepped = nil
	return step
}

// agent resolves the agent a write acts for: the one named, or the one
// mounted where the service was opened (or $PLANQ_AGENT_DIR).
func (s *Project) agent(ctx context.Context, name string) (*agent.Agent, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	return store.Resolve(name)
}

// reader resolves whose view a read takes: the named or mounted agent's,
// or the team's (global) where none is named or mounted.
func (s *Project) reader(ctx context.Context, name string) (readmodel.Ref, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return readmodel.Ref{}, err
	}
	return store.Reader(name)
}

// handle is the project's read handle.
func (s *Project) handle(ctx context.Context) (*readmodel.Handle, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	return store.Handle, nil
}

// Progress hears of the read model's builds from git (a new machine, a
// cache dropped): a front end shows them to a person who waits.
type Progress = readmodel.Progress

// WithProgress is ctx carrying p, which every method given ctx reports
// its read model's builds to.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return readmodel.WithProgress(ctx, p)
}
