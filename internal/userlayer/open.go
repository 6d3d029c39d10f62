package userlayer

import (
	"context"
	"fmt"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

// Layer is the user layer opened for reading and writing.
type Layer struct {
	*agent.Store
	// Created is true when this Open made the layer: the front end tells
	// the person where it is.
	Created bool
}

// Exists reports whether the user layer under home has been made.
func Exists(home string) bool {
	return staterepo.Exists(project.StateRepoPath(home, project.UserLayerName))
}

// Open opens the user layer under home, making it first when it does not
// exist yet (Layer.Created says so).
func Open(ctx context.Context, home string) (*Layer, error) {
	p, err := project.UserLayer(home)
	if err != nil {
		return nil, err
	}
	created, err := team.InitGlobal(ctx, p.StateRepo(), project.UserLayerName)
	if err != nil {
		return nil, fmt.Errorf("failed to create the user layer: %w", err)
	}
	s, err := agent.OpenStore(ctx, p)
	if err != nil {
		return nil, err
	}
	return &Layer{Store: s, Created: created}, nil
}

// Read opens the user layer under home to read, or reports ok=false when
// it was never made: a reader never makes it, and holds no writer.
func Read(ctx context.Context, home string) (h *readmodel.Handle, ok bool, err error) {
	if !Exists(home) {
		return nil, false, nil
	}
	p, err := project.UserLayer(home)
	if err != nil {
		return nil, false, err
	}
	if h, err = readmodel.OpenHandle(ctx, p); err != nil {
		return nil, false, err
	}
	return h, true, nil
}

// OpenExisting opens the user layer under home to change what it holds
// (edit, retract, push), or reports ok=false when it was never made: such
// a change never makes it.
func OpenExisting(ctx context.Context, home string) (l *Layer, ok bool, err error) {
	if !Exists(home) {
		return nil, false, nil
	}
	p, err := project.UserLayer(home)
	if err != nil {
		return nil, false, err
	}
	s, err := agent.OpenStore(ctx, p)
	if err != nil {
		return nil, false, err
	}
	return &Layer{Store: s}, true, nil
}
