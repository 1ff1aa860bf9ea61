package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Deploy progress stages (docs/deploy.md), in order.
const (
	StageInitializing      = "INITIALIZING"
	StageGeneratingCode    = "GENERATING_CODE"
	StageCodeReady         = "CODE_READY"
	StageDetectingBindings = "DETECTING_BINDINGS"
	StageBindingsReady     = "BINDINGS_READY"
	StageCreatingWorker    = "CREATING_WORKER"
	StageDeploying         = "DEPLOYING"
	StageWorkerDeployed    = "WORKER_DEPLOYED"
	StageUpdatingWorkflow  = "UPDATING_WORKFLOW"
	StageCompleted         = "COMPLETED"
)

// Stages lists the stages in the order a deploy emits them.
var Stages = []string{
	StageInitializing, StageGeneratingCode, StageCodeReady, StageDetectingBindings, StageBindingsReady,
	StageCreatingWorker, StageDeploying, StageWorkerDeployed, StageUpdatingWorkflow, StageCompleted,
}

var stagePercent = map[string]int{
	StageInitializing: 5, StageGeneratingCode: 15, StageCodeReady: 25, StageDetectingBindings: 35,
	StageBindingsReady: 45, StageCreatingWorker: 55, StageDeploying: 65, StageWorkerDeployed: 80,
	StageUpdatingWorkflow: 90, StageCompleted: 100,
}

// Progress is one deploy-stream progress frame; the CLI reads it as
// edgeflow.DeployProgress.
type Progress = edgeflow.DeployProgress

// ProgressFunc receives each stage when its work starts. It must not block
// for long; it is called from the deploy's goroutine.
type ProgressFunc func(Progress)

// DeployRequest names what to deploy where.
type DeployRequest struct {
	OrganizationID string
	ProjectID      string
	WorkflowID     string
	ConnectionID   string
	// Environment names the project environment to deploy to, in place of
	// ConnectionID (or beside it, naming the same connection).
	Environment string
	// VersionID is "" for the workflow's current version.
	VersionID string
	UserID    string
	// RotateTriggerSecret generates a new signing secret for the public
	// trigger instead of keeping the active deployment's.
	RotateTriggerSecret bool
	// InFlight is what happens to the runs in flight of earlier versions:
	// InFlightPin ("" too), InFlightMigrate or InFlightDrain
	// (docs/releases.md).
	InFlight string
	// Force migrates runs in flight even when the deploy plan says the new
	// version is not compatible with them.
	Force bool
}

// Plan is a checked deploy request, ready to run.
type Plan struct {
	req        DeployRequest
	workflow   *edgeflow.Workflow
	version    *edgeflow.Version
	connection *edgeflow.Connection
	env        []EnvValue
	plan       *DeployPlan
	// environment is the project environment bound to the connection (nil
	// when none is).
	environment *edgeflow.Environment
	// subWorkflows are the workflows the version starts (sub_workflow
	// nodes and agents' workflow tools).
	subWorkflows []SubWorkflowRef
}

// Environment is the project environment the plan deploys to (nil when
// the connection is bound to none).
func (p *Plan) Environment() *edgeflow.Environment { return p.environment }

// Connection is the connection the plan deploys to.
func (p *Plan) Connection() *edgeflow.Connection { return p.connection }

// Version is the version the plan deploys.
func (p *Plan) Version() *edgeflow.Version { return p.version }

// Workflow is the workflow the plan deploys.
func (p *Plan) Workflow() *edgeflow.Workflow { return p.workflow }

// DeployPlan is the deploy plan computed when the request was checked (nil
// for a function).
func (p *Plan) DeployPlan() *DeployPlan { return p.plan }

// PrepareDeploy checks a deploy request without touching the provider: the
// workflow (not_found), the connection (not_found), the version (not_found;
// conflict when locked or when the workflow has none), rotateTriggerSecret
// without a public trigger (validation_failed), the IR's requirements
// and every environment variable and required secret (deploy_failed, 400,
// naming each one), the workflow's npm dependencies and the targets of its
// sub_workflow nodes (validation_failed, 422, naming each one: confine.go).
func (s *Service) PrepareDeploy(ctx context.Context, req DeployRequest) (*Plan, error) {
	if s.compiler == nil {
		return nil, edgeflow.Errorf(edgeflow.EInternal, "no compiler is configured")
	}
	w, err := s.store.FindWorkflowByID(ctx, req.ProjectID, req.WorkflowID)
	if err != nil {
		return nil, err
	}
	connID, envr, err := s.ResolveEnvironment(ctx, Tenant{OrganizationID: req.OrganizationID, ProjectID: req.ProjectID},
		req.ConnectionID, req.Environment)
	if err != nil {
		return nil, err
	}
	c, err := s.connection(ctx, req.OrganizationID, req.ProjectID, connID)
	if err != nil {
		return nil, err
	}
	vid := req.VersionID
	if vid == "" {
		vid = w.CurrentVersionID
	}
	if vid == "" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow has no version to deploy; submit one first")
	}
	v, err := s.store.FindVersionByID(ctx, w.ID, vid)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "version not found",
				Details: []edgeflow.FieldError{{Path: "/versionId", Message: "no such version of this workflow"}}}
		}
		return nil, err
	}
	if v.Locked {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "version %d is locked; unlock it before deploying", v.Number)
	}
	if req.RotateTriggerSecret && !publicTrigger(w) {
		return nil, edgeflow.Invalid("/rotateTriggerSecret", "the workflow has no public trigger to rotate: set deployConfig.publicTrigger first")
	}
	switch req.InFlight {
	case "", InFlightPin, InFlightMigrate, InFlightDrain:
	default:
		return nil, edgeflow.Invalid("/inFlight", `inFlight must be "pin", "migrate" or "drain"`)
	}
	var dp *DeployPlan
	if w.Kind != edgeflow.KindScript {
		if dp, err = s.planFor(ctx, w, c, v); err != nil {
			return nil, err
		}
		if req.InFlight == InFlightMigrate && !dp.Compatible && !req.Force {
			return nil, &edgeflow.Error{Code: edgeflow.EConflict, Details: dp,
				Message: "runs in flight cannot move onto this version (see the plan's reasons): deploy with inFlight \"pin\" or \"drain\", or with \"force\": true"}
		}
	}
	reqs, err := s.compiler.Analyze(ctx, w, v)
	if err != nil {
		return nil, err
	}
	if err := CheckSubWorkflows(ctx, s.store, w.ProjectID, reqs.SubWorkflows); err != nil {
		return nil, err
	}
	if err := checkPlanSteps(reqs, c); err != nil {
		return nil, err
	}
	env, err := s.resolveEnv(ctx, w, environmentName(envr), reqs.EnvNames, reqs.Secrets)
	if err != nil {
		return nil, err
	}
	return &Plan{req: req, workflow: w, version: v, connection: c, env: env, plan: dp, environment: envr,
		subWorkflows: reqs.SubWorkflows}, nil
}

// Deploy runs a prepared plan: verify the credentials, compile and bundle,
// find or create the bound KV/D1/R2 resources, upload the worker with its
// bindings (vars as plain_text, secrets as secret_text), create or update the
// Workflow, expose the URL (workers.dev, or deployConfig.route on
// Cloudflare), and record the deployment as active. progress (may be nil)
// receives each stage when its work starts.
//
// The work is done under a context detached from ctx's cancellation, so a
// client that goes away leaves either the whole deployment recorded or none
// of it. A failure leaves the previous deployment recorded as active; the
// error names the stage. Deploying the version that is already active on the
// connection re-uploads it and returns the existing deployment.
func (s *Service) Deploy(ctx context.Context, p *Plan, progress ProgressFunc) (*edgeflow.Deployment, error) {
	if p.req.InFlight == InFlightDrain && p.workflow.Kind != edgeflow.KindScript {
		release, err := s.drain(ctx, p, progress)
		defer release()
		if err != nil {
			s.recordDeployEvent(ctx, p, nil, err)
			return nil, err
		}
	}
	d, err := s.traceDeploy(ctx, p, progress, func(ctx context.Context, progress ProgressFunc) (*edgeflow.Deployment, error) {
		return s.deploy(ctx, p, progress)
	})
	s.recordDeployEvent(ctx, p, d, err)
	return d, err
}

// recordDeployEvent publishes the result of a deploy (deploy.completed or
// deploy.failed) for the project's webhooks. A failure to record it is
// logged: the deploy's own outcome stands.
func (s *Service) recordDeployEvent(ctx context.Context, p *Plan, d *edgeflow.Deployment, deployErr error) {
	ev := edgeflow.DeployEvent{WorkflowID: p.workflow.ID, ProjectID: p.workflow.ProjectID, VersionID: p.version.ID,
		ConnectionID: p.connection.ID}
	typ := edgeflow.EventDeployComplete
	if deployErr != nil {
		typ = edgeflow.EventDeployFailed
		ev.Error = "the deploy failed"
		var e *edgeflow.Error
		if errors.As(deployErr, &e) && e.Code != edgeflow.EInternal {
			ev.Error = e.Message
		}
	} else if d != nil {
		ev.DeploymentID, ev.VersionID, ev.URL = d.ID, d.VersionID, d.URL
	}
	data, err := json.Marshal(ev)
	if err == nil {
		err = s.store.RecordEvent(context.WithoutCancel(ctx), &edgeflow.Event{ProjectID: ev.ProjectID, Type: typ, Data: data})
	}
	if err != nil {
		s.log.Error("deploy event not recorded", "workflow", ev.WorkflowID, "error", err.Error())
	}
}

func (s *Service) deploy(ctx context.Context, p *Plan, progress ProgressFunc) (*edgeflow.Deployment, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	unlock := s.lockWorkflow(p.workflow.ID)
	defer unlock()

	stage := ""
	emit := func(st, msg string) {
		stage = st
		progress(Progress{Stage: st, Message: msg, Progress: stagePercent[st]})
	}
	fail := func(err error) (*edgeflow.Deployment, error) {
		return nil, stageError(stage, err)
	}
	w, v := p.workflow, p.version

	emit(StageInitializing, "Checking the connection's credentials")
	prov, err := s.providerFor(ctx, p.connection)
	if err != nil {
		return fail(err)
	}
	if err := prov.VerifyToken(ctx); err != nil {
		return fail(credentialError(err))
	}

	emit(StageGeneratingCode, fmt.Sprintf("Generating and bundling the code of version %d", v.Number))
	compiled, err := s.compiler.Compile(ctx, w, v, p.env)
	if err != nil {
		return fail(err)
	}
	// Where the version goes (releases.go): over the active deployment, or
	// beside it while its runs are in flight. The compiler may cache its
	// artifacts: change a copy.
	pl, err := s.place(ctx, p, compiled)
	if err != nil {
		return fail(err)
	}
	if pl.pinned || pl.prev == nil && pl.script != compiled.ScriptName {
		if err := s.checkScriptLimit(ctx, prov); err != nil {
			return fail(err)
		}
	}
	artCopy := *compiled
	art := &artCopy
	art.ScriptName, art.WorkflowName = pl.script, pl.workflow
	art.Bindings = environmentChildren(environmentName(p.environment), art.Bindings, p.subWorkflows)
	size := 0
	for _, m := range art.Modules {
		size += len(m)
	}
	emit(StageCodeReady, fmt.Sprintf("Bundled %s (%d bytes)", art.MainModule, size))

	emit(StageDetectingBindings, "Resolving variables, secrets and resource bindings")
	var secrets workerSecrets
	if art.WorkflowName != "" {
		if secrets, err = s.deploySecrets(ctx, w, p.connection.ID, p.req.RotateTriggerSecret); err != nil {
			return fail(err)
		}
		art.Bindings = append(art.Bindings, secrets.bindingsFor(w)...)
	}
	bindings, err := s.bindings(ctx, prov, w, art, p.env)
	if err != nil {
		return fail(err)
	}
	emit(StageBindingsReady, fmt.Sprintf("%d bindings ready", len(bindings)))

	emit(StageCreatingWorker, "Preparing worker "+art.ScriptName)
	upload := WorkerUpload{
		ScriptName:         art.ScriptName,
		MainModule:         art.MainModule,
		Modules:            art.Modules,
		CompatibilityDate:  art.CompatibilityDate,
		CompatibilityFlags: art.CompatibilityFlags,
		Bindings:           bindings,
	}
	if upload.CompatibilityDate == "" {
		upload.CompatibilityDate = DefaultCompatibilityDate
	}
	upload.CompatibilityFlags = flagsOrDefault(upload.CompatibilityFlags)

	emit(StageDeploying, "Uploading worker "+art.ScriptName)
	if err := prov.UploadWorker(ctx, upload); err != nil {
		return fail(providerError("upload the worker", err))
	}
	emit(StageWorkerDeployed, "Worker "+art.ScriptName+" uploaded")

	emit(StageUpdatingWorkflow, workflowMessage(art))
	if art.WorkflowName != "" {
		if err := prov.PutWorkflow(ctx, art.WorkflowName, art.ScriptName, art.ClassName, workflowConfig(w, p.connection, art.Crons)); err != nil {
			return fail(s.restore(ctx, prov, p, pl, providerError("create or update the Workflow", err)))
		}
	}
	workerURL, err := prov.ExposeWorkersDev(ctx, art.ScriptName)
	if err != nil {
		return fail(s.restore(ctx, prov, p, pl, providerError("enable the workers.dev URL", err)))
	}
	if r := w.DeployConfig; r != nil && r.Route != nil && r.Route.Pattern != "" && p.connection.Provider == edgeflow.ProviderCloudflare {
		u, err := prov.PutRoute(ctx, art.ScriptName, *r.Route)
		if err != nil {
			return fail(s.restore(ctx, prov, p, pl, providerError("set the route "+r.Route.Pattern, err)))
		}
		workerURL = u
	}
	if pl.pinned {
		s.releasePinned(ctx, prov, pl.prev, art.ClassName, workflowConfig(p.workflow, p.connection, nil))
	}

	prev, err := s.store.FindActiveDeployment(ctx, w.ID, p.connection.ID)
	if err == nil && prev.VersionID == v.ID && prev.URL == workerURL && prev.ScriptName == art.ScriptName {
		if art.WorkflowName != "" {
			// The upload rotated the token: keep the new one.
			s.seal(prev, secrets)
			if err := s.store.SetDeploymentSecrets(ctx, prev.ID, prev.SealedWorkerToken, prev.SealedTriggerSecret); err != nil {
				return fail(err)
			}
		}
		if len(art.Crons) > 0 || secrets.trigger != "" {
			s.watchCron(prev)
		}
		emit(StageCompleted, "Deployment complete (version unchanged)")
		return prev, nil
	}
	if err != nil && !edgeflow.IsNotFound(err) {
		return fail(err)
	}
	d := &edgeflow.Deployment{
		ID:           edgeflow.NewID(edgeflow.PrefixDeployment),
		WorkflowID:   w.ID,
		ProjectID:    w.ProjectID,
		VersionID:    v.ID,
		ConnectionID: p.connection.ID,
		Status:       edgeflow.DeploymentActive,
		URL:          workerURL,
		ScriptName:   art.ScriptName,
		WorkflowName: art.WorkflowName,
		CreatedBy:    p.req.UserID,
		Environment:  environmentName(p.environment),
	}
	if art.WorkflowName != "" {
		s.seal(d, secrets)
	}
	if err := s.store.RecordDeployment(ctx, d); err != nil {
		return fail(err)
	}
	if len(art.Crons) > 0 || secrets.trigger != "" {
		s.watchCron(d)
	}
	emit(StageCompleted, "Deployment complete")
	return d, nil
}

// DefaultCompatibilityDate is the compatibility date workers are deployed
// with (an export's wrangler.jsonc names the same): the release date of the
// workerd the local edge pins (edge/package.json; docs/edge.md says how to
// move both). From 2026-08-04 on, nodejs_compat is on by default, and
// Cloudflare refuses the flag named beside such a date, so the default flags
// are none (DefaultCompatibilityFlags, flagsOrDefault).
const DefaultCompatibilityDate = "2026-11-17"

// DefaultCompatibilityFlags are the compatibility flags of a worker whose
// artifact names none: see DefaultCompatibilityDate.
var DefaultCompatibilityFlags = []string{}

func workflowMessage(a *Artifact) string {
	if a.WorkflowName == "" {
		return "Exposing the function's URL"
	}
	return "Creating or updating Workflow " + a.WorkflowName
}

// stageError adds the stage to the message of err.
func stageError(stage string, err error) error {
	var e *edgeflow.Error
	if !errors.As(err, &e) {
		return &edgeflow.Error{Code: edgeflow.EInternal, Message: "deploy failed at " + stage, Err: err}
	}
	cp := *e
	cp.Message = "deploy failed at " + stage + ": " + e.Message
	if cp.Err == nil {
		cp.Err = err
	}
	return &cp
}

// credentialError turns a refused token verification into a 400 with the
// provider's reason; an unreachable provider stays a 502.
func credentialError(err error) error {
	if cloudflare.IsUnauthorized(err) {
		return &edgeflow.Error{Code: edgeflow.EDeployFailed,
			Message: "the connection's credentials were refused: " + providerReason(err), Err: err}
	}
	return providerError("verify the connection's credentials", err)
}

// bindings builds the bindings of the upload: variables, secrets, the
// worker's own Workflow, the artifact's extra bindings, and its KV/D1/R2
// resources (found or created first).
func (s *Service) bindings(ctx context.Context, prov Provider, w *edgeflow.Workflow, a *Artifact, env []EnvValue) ([]Binding, error) {
	var out []Binding
	taken := map[string]bool{}
	add := func(b Binding) {
		if !taken[b.Name] {
			taken[b.Name] = true
			out = append(out, b)
		}
	}
	if a.WorkflowName != "" && a.WorkflowBinding != "" {
		add(Binding{Type: BindingWorkflow, Name: a.WorkflowBinding, WorkflowName: a.WorkflowName, ClassName: a.ClassName})
	}
	for _, b := range a.Bindings {
		add(b)
	}
	for _, r := range a.Resources {
		name := resourceName(w.ProjectID, r)
		switch r.Kind {
		case ResourceKV:
			id, err := prov.EnsureKVNamespace(ctx, name)
			if err != nil {
				return nil, providerError("find or create KV namespace "+name, err)
			}
			add(Binding{Type: BindingKV, Name: r.Binding, ID: id})
		case ResourceD1:
			id, err := prov.EnsureD1Database(ctx, name)
			if err != nil {
				return nil, providerError("find or create D1 database "+name, err)
			}
			add(Binding{Type: BindingD1, Name: r.Binding, ID: id})
		case ResourceR2:
			if err := prov.EnsureR2Bucket(ctx, name); err != nil {
				return nil, providerError("find or create R2 bucket "+name, err)
			}
			add(Binding{Type: BindingR2, Name: r.Binding, Bucket: name})
		default:
			return nil, edgeflow.Errorf(edgeflow.EDeployFailed, "binding %s has an unknown resource kind %q", r.Binding, r.Kind)
		}
	}
	for _, e := range env {
		if taken[e.Name] {
			return nil, edgeflow.Errorf(edgeflow.EDeployFailed, "environment variable %s has the name of a binding", e.Name)
		}
		t := BindingPlainText
		if e.Secret {
			t = BindingSecret
		}
		add(Binding{Type: t, Name: e.Name, Text: e.Value})
	}
	return out, nil
}

// resourceName is the provider-side name of a project's resource: one
// namespace, database or bucket per (project, binding name), shared by the
// project's workflows, e.g. "ef-prj-abc123-kv". It is a valid R2 bucket name
// (lowercase letters, digits and hyphens, at most 63 characters).
func resourceName(projectID string, r Resource) string {
	var b strings.Builder
	b.WriteString("ef-")
	for _, c := range strings.ToLower(projectID + "-" + r.Binding) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	n := strings.Trim(b.String(), "-")
	if len(n) > 63 {
		n = strings.TrimRight(n[:63], "-")
	}
	return n
}

// restore is called when a deploy fails after the new worker was uploaded:
// it uploads the previously deployed version again so that the previous
// deployment keeps serving, and returns cause. A failure to restore is logged.
// A workflow's same version is uploaded again too: the failed upload
// carried a new worker token, and the recorded deployment keeps the old one.
func (s *Service) restore(ctx context.Context, prov Provider, p *Plan, pl placement, cause error) error {
	prev, err := s.store.FindActiveDeployment(ctx, p.workflow.ID, p.connection.ID)
	if err != nil || prev.VersionID == p.version.ID && p.workflow.Kind == edgeflow.KindScript {
		return cause
	}
	if prev.ScriptName != pl.script {
		// The new version went beside the active one (pinning), which
		// serves on unchanged: remove what was put up for the new one.
		if pl.workflow != "" {
			if err := prov.DeleteWorkflow(ctx, pl.workflow); err != nil {
				s.log.Error("deploy: the failed version's Workflow was not deleted", "workflow", p.workflow.ID, "name", pl.workflow, "err", err)
			}
		}
		if err := prov.DeleteWorker(ctx, pl.script); err != nil {
			s.log.Error("deploy: the failed version's worker was not deleted", "workflow", p.workflow.ID, "script", pl.script, "err", err)
		}
		return cause
	}
	v, err := s.store.FindVersionByID(ctx, p.workflow.ID, prev.VersionID)
	if err == nil {
		var art *Artifact
		if art, err = s.compiler.Compile(ctx, p.workflow, v, p.env); err == nil {
			cp := *art
			art = &cp
			art.ScriptName, art.WorkflowName = prev.ScriptName, prev.WorkflowName
		}
		if err == nil && art.WorkflowName != "" {
			var ws workerSecrets
			if ws, err = s.restoreSecrets(ctx, prev); err == nil {
				art.Bindings = append(art.Bindings, ws.bindingsFor(p.workflow)...)
			}
		}
		if err == nil {
			var bs []Binding
			if bs, err = s.bindings(ctx, prov, p.workflow, art, p.env); err == nil {
				err = prov.UploadWorker(ctx, WorkerUpload{ScriptName: art.ScriptName, MainModule: art.MainModule,
					Modules: art.Modules, CompatibilityDate: orDefault(art.CompatibilityDate, DefaultCompatibilityDate),
					CompatibilityFlags: flagsOrDefault(art.CompatibilityFlags), Bindings: bs})
			}
		}
	}
	if err != nil {
		s.log.Error("deploy: could not restore the previous deployment", "workflow", p.workflow.ID,
			"deployment", prev.ID, "err", err)
	}
	return cause
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Takedown deletes the worker (and its Workflow) of the workflow's active
// deployment on the connection, and those of its draining versions there,
// marks the deployment removed (the draining ones retired) and clears the
// workflow's active version when no deployment is left. Nothing deployed
// there is conflict (409). A provider failure leaves the deployment recorded.
func (s *Service) Takedown(ctx context.Context, tw *TenantWorkflow, connectionID string) (*edgeflow.Deployment, error) {
	wf := tw.Workflow()
	w := &wf
	// Any connection of the organization: a workflow moved from another
	// project can still be taken down from that project's connection.
	c, err := s.connection(ctx, tw.Tenant().OrganizationID, "", connectionID)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	unlock := s.lockWorkflow(w.ID)
	defer unlock()
	d, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed on this connection")
		}
		return nil, err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	if d.WorkflowName != "" {
		if err := prov.DeleteWorkflow(ctx, d.WorkflowName); err != nil {
			return nil, providerError("delete the Workflow", err)
		}
	}
	if err := prov.DeleteWorker(ctx, d.ScriptName); err != nil {
		return nil, providerError("delete the worker", err)
	}
	removed, err := s.store.RemoveDeployment(ctx, w.ID, c.ID, s.now().UTC())
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed on this connection")
		}
		return nil, err
	}
	if err := s.takedownDraining(ctx, prov, w, c.ID, d.ScriptName); err != nil {
		return nil, err
	}
	return removed, nil
}

// takedownDraining deletes the workers and Workflows of the workflow's
// draining versions on the connection (pinning, releases.go) and retires
// them: after a takedown nothing of the workflow runs there. Names that
// the taken-down deployment or another connection's deployment hold are
// not deleted again.
func (s *Service) takedownDraining(ctx context.Context, prov Provider, w *edgeflow.Workflow, connectionID, takenDown string) error {
	page, err := s.store.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: w.ProjectID, WorkflowID: w.ID}, edgeflow.ListOptions{Limit: 100})
	if err != nil {
		return err
	}
	for i := range page.Items {
		d := &page.Items[i]
		if d.ConnectionID != connectionID || d.Status != edgeflow.DeploymentReplaced {
			continue
		}
		shared, err := s.namesUsedElsewhere(ctx, d)
		if err != nil {
			return err
		}
		if !shared && d.ScriptName != takenDown {
			if d.WorkflowName != "" {
				if err := prov.DeleteWorkflow(ctx, d.WorkflowName); err != nil {
					return providerError("delete the Workflow "+d.WorkflowName, err)
				}
			}
			if err := prov.DeleteWorker(ctx, d.ScriptName); err != nil {
				return providerError("delete the worker "+d.ScriptName, err)
			}
		}
		if err := s.store.RetireDeployment(ctx, d.ID, s.now().UTC()); err != nil && !edgeflow.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// routeURL is the URL a route pattern serves, e.g. "example.com/api/*" →
// "https://example.com/api/".
func routeURL(pattern string) string {
	p := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(pattern, "https://"), "http://"), "*")
	p = strings.TrimPrefix(p, "*.")
	if !strings.Contains(p, "/") {
		p += "/"
	}
	u := url.URL{Scheme: "https", Host: p[:strings.Index(p, "/")], Path: p[strings.Index(p, "/"):]}
	return u.String()
}
