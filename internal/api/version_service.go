package api

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// versionService submits versions: it validates an IR against the
// organization's node catalog, compiles it, and stores it as the workflow's
// next version through Store.SubmitVersion, which takes the number inside
// the write transaction under the workflow row's lock. The stored IR's
// metadata.version and the code's header show the number, so the version is
// built for the number the store hands out; submissions to one workflow,
// through this process or any other replica, wait for each other instead
// of failing, and the numbers have no gaps but those deletes leave
// (docs/decisions.md).
//
// Building under the lock would serialize code generation of one workflow,
// so the service builds the version before the transaction for the number
// it expects (guesses) and, inside, keeps that build when the store's number
// matches, or renumbers it when it does not (the number is in the IR's
// metadata.version and in the code's header line only). The guess is only a
// hint: a wrong one costs two copies, never a wrong number.
type versionService struct {
	store edgeflow.Store
	// catalog loads the organization's node catalog and the templates of
	// its installed nodes.
	catalog func(ctx context.Context, orgID string) (*nodes.Catalog, []codegen.NodeTemplate, error)
	now     func() time.Time
	guesses numberGuesses
}

func newVersionService(store edgeflow.Store, now func() time.Time,
	catalog func(ctx context.Context, orgID string) (*nodes.Catalog, []codegen.NodeTemplate, error)) *versionService {
	return &versionService{store: store, catalog: catalog, now: now, guesses: numberGuesses{seed: maphash.MakeSeed()}}
}

// Submit validates raw against the organization's node catalog, compiles it
// and stores it as the workflow's next version, its metadata.version set to
// the version's number: 400 invalid_ir with every problem, 422
// validation_failed for a sub_workflow outside the project or a syntax error
// in user code; no version is created then. raw may be a pooled buffer:
// nothing kept after the call points into it (the stored IR is a copy).
// The warnings are what does not refuse the version (deploysvc.StepWarnings).
func (vs *versionService) Submit(ctx context.Context, wf *edgeflow.Workflow, raw []byte, userID string) (*edgeflow.Version, []edgeflow.Warning, error) {
	v, a, err := vs.submit(ctx, wf, raw, userID)
	if err != nil {
		return nil, nil, err
	}
	return v, deploysvc.StepWarnings(a), nil
}

// Draft checks raw as Submit does and returns it as a version that is not
// stored: Number 0, its IR with the server's metadata filled in, no code
// (the test compiles it). The errors are Submit's.
func (vs *versionService) Draft(ctx context.Context, wf *edgeflow.Workflow, raw []byte) (*edgeflow.Version, error) {
	a, _, _, err := vs.check(ctx, wf, raw)
	if err != nil {
		return nil, err
	}
	fillServerMetadata(a, vs.now().UTC())
	a.Metadata.Version = 0
	stored, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encode IR: %w", err)
	}
	return &edgeflow.Version{WorkflowID: wf.ID, IR: stored, NodeTypes: marketplace.NodeRefs(a)}, nil
}

// check validates raw against the organization's node catalog and the
// workflow (its kind, its project's sub-workflows, the syntax of user code).
func (vs *versionService) check(ctx context.Context, wf *edgeflow.Workflow, raw []byte) (*ir.ArtifactIR, *ir.Graph, *orgCatalog, error) {
	// The organization's installed nodes are read only when the IR has a
	// node type that is not builtin: most IRs have none, and the read is a
	// query per submission.
	catalog := &orgCatalog{load: func() (*nodes.Catalog, []codegen.NodeTemplate, error) {
		return vs.catalog(ctx, wf.OrganizationID)
	}}
	a, graph, problems := ir.ValidateGraph(raw, ir.Options{Nodes: catalog})
	if catalog.err != nil {
		return nil, nil, nil, catalog.err
	}
	if a != nil {
		problems = append(problems, kindProblems(wf, a)...)
	}
	if len(problems) > 0 {
		return nil, nil, nil, invalidIR(problems)
	}
	if err := deploysvc.CheckSubWorkflows(ctx, vs.store, wf.ProjectID, deploysvc.SubWorkflowRefs(a)); err != nil {
		return nil, nil, nil, err
	}
	if err := codeSyntaxError(wf.OrganizationID, a, wf.TriggerCode); err != nil {
		return nil, nil, nil, err
	}
	return a, graph, catalog, nil
}

func (vs *versionService) submit(ctx context.Context, wf *edgeflow.Workflow, raw []byte, userID string) (*edgeflow.Version, *ir.ArtifactIR, error) {
	a, graph, catalog, err := vs.check(ctx, wf, raw)
	if err != nil {
		return nil, nil, err
	}
	b := &versionBuild{
		raw: raw, a: a, refs: marketplace.NodeRefs(a), userID: userID,
		filled: fillServerMetadata(a, vs.now().UTC()),
		opts: codegen.Options{
			WorkflowID: wf.ID, DisplayName: wf.Name, TriggerCode: wf.TriggerCode,
			EnvVars: codegenEnvVars(wf.EnvVars), Templates: catalog.templates, Dependencies: wf.Dependencies, Graph: graph,
		},
	}

	guess := vs.guesses.take(wf)
	var built *edgeflow.Version
	if guess > 0 {
		v, err := b.build(guess)
		if err != nil {
			vs.guesses.done(wf.ID, true, 0)
			return nil, nil, err
		}
		built = v
	}
	v, err := vs.store.SubmitVersion(ctx, wf.ID, func(n int) (*edgeflow.Version, error) {
		if built != nil {
			if n == guess {
				out := *built // a copy: the store may call again after a retry
				return &out, nil
			}
			if out, ok := b.renumber(built, guess, n); ok {
				return out, nil
			}
		}
		return b.build(n)
	})
	if err != nil {
		vs.guesses.done(wf.ID, guess > 0, 0)
		return nil, nil, err
	}
	vs.guesses.done(wf.ID, guess > 0, v.Number)
	return v, a, nil
}

// versionBuild is what a submission builds a version from; build makes
// the version for one number.
type versionBuild struct {
	raw    []byte
	a      *ir.ArtifactIR
	opts   codegen.Options
	refs   []string
	userID string
	// filled: the reader or fillServerMetadata filled in defaults, so the
	// stored IR is written from a rather than spliced from raw.
	filled bool
}

// build returns the version numbered n: the IR with metadata.version n and
// the code generated for it. Code generation does not depend on the number
// but for the header comment, so an IR the compiler refuses is refused
// whatever n is.
func (b *versionBuild) build(n int) (*edgeflow.Version, error) {
	b.a.Metadata.Version = n
	opts := b.opts
	opts.Version = n
	out, err := codegen.Generate(b.a, opts)
	if err != nil {
		return nil, compileError(b.a, err)
	}
	var stored []byte
	ok := false
	if !b.filled {
		stored, ok = withVersion(b.raw, n)
	}
	if !ok {
		if stored, err = json.Marshal(b.a); err != nil {
			return nil, fmt.Errorf("encode IR: %w", err)
		}
	}
	return &edgeflow.Version{IR: stored, Code: joinFiles(out), NodeTypes: b.refs, CreatedBy: b.userID}, nil
}

// renumber returns v, built for number from, as build(to) would return it:
// the stored IR with metadata.version to (spliced, everything else byte for
// byte) and the code with its header line for to, which is the only part of
// the code that depends on the number. It copies the IR and the code once
// each, far less than generating again; ok is false when either is not
// found where expected, and the caller builds instead.
func (b *versionBuild) renumber(v *edgeflow.Version, from, to int) (*edgeflow.Version, bool) {
	opts := b.opts
	opts.Version = from
	code, ok := codegen.Renumber(v.Code, b.a, opts, to)
	if !ok {
		return nil, false
	}
	stored, ok := withVersion(v.IR, to)
	if !ok {
		return nil, false
	}
	b.a.Metadata.Version = to
	out := *v
	out.IR, out.Code = stored, code
	return &out, true
}

// numberGuesses remembers, per workflow, the last number this service
// stored and how many submissions are under way, so that a submission can
// expect the number after those: the first of ten concurrent submissions
// expects last+1, the tenth last+10. It is a small direct-mapped table
// (a workflow's slot is a hash of its id; a workflow taking another's slot
// forgets that one), so it stays bounded however many workflows there are.
// An unknown workflow is guessed 1 when it has no version, else not at all.
type numberGuesses struct {
	seed  maphash.Seed
	slots [256]guessSlot
}

type guessSlot struct {
	sync.Mutex
	workflowID string
	last       int // the highest number stored through this service
	inFlight   int // submissions that took a guess and are not done
}

// take returns the number a new submission to wf should expect, or 0 for
// no guess. A guess counts the submission as under way until done.
func (g *numberGuesses) take(wf *edgeflow.Workflow) int {
	sl := g.slot(wf.ID)
	sl.Lock()
	defer sl.Unlock()
	if sl.workflowID != wf.ID {
		if sl.inFlight > 0 || wf.CurrentVersionID != "" {
			// The slot is busy with another workflow, or the workflow has
			// versions this service does not know of.
			return 0
		}
		sl.workflowID, sl.last = wf.ID, 0
	}
	sl.inFlight++
	return sl.last + sl.inFlight
}

// done records the end of a submission to the workflow: guessed says
// whether take gave it a guess, stored is the number it got (0 when it
// failed). A submission without a guess teaches a free slot the workflow.
func (g *numberGuesses) done(workflowID string, guessed bool, stored int) {
	sl := g.slot(workflowID)
	sl.Lock()
	defer sl.Unlock()
	if sl.workflowID != workflowID {
		if sl.inFlight == 0 && stored > 0 {
			sl.workflowID, sl.last = workflowID, stored
		}
		return
	}
	if guessed && sl.inFlight > 0 {
		sl.inFlight--
	}
	sl.last = max(sl.last, stored)
}

func (g *numberGuesses) slot(workflowID string) *guessSlot {
	return &g.slots[maphash.String(g.seed, workflowID)%uint64(len(g.slots))]
}
