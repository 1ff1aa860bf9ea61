package deploy

import (
	"context"
	"github.com/edgeflow/edgeflow/internal/ir"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Compiler turns a stored version into what a deploy uploads.
type Compiler interface {
	// Analyze reads the version's IR and reports what the deploy must
	// resolve before compiling: the env vars the IR references and the
	// secrets its nodes require.
	Analyze(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version) (*Requirements, error)
	// Compile generates and bundles the worker. env lists the resolved
	// variables; implementations use their names and secrecy only (values
	// must never reach code).
	Compile(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version, env []EnvValue) (*Artifact, error)
}

// Requirements are what a version needs from its environment.
type Requirements struct {
	// EnvNames are the names referenced as {{env.NAME}}.
	EnvNames []string
	// Secrets are the env var names of required secret fields of the nodes
	// (marketplace nodes' secrets).
	Secrets []string
	// SubWorkflows are the sub_workflow nodes and the workflows they start
	// (checked against the workflow's project by PrepareDeploy).
	SubWorkflows []SubWorkflowRef
	// Steps are the steps a run can take (checked against the connection's
	// plan by PrepareDeploy); HeaviestPath is the pointer of the node that
	// weighs most.
	Steps        ir.StepBounds
	HeaviestPath string
}

// Resource kinds an artifact can bind.
const (
	ResourceKV = "kv"
	ResourceD1 = "d1"
	ResourceR2 = "r2"
)

// Resource is a KV namespace, D1 database or R2 bucket the worker binds.
type Resource struct {
	// Kind is ResourceKV, ResourceD1 or ResourceR2.
	Kind string
	// Binding is the binding's name in the worker's env (KV, DB, BUCKET, ...).
	Binding string
}

// Artifact is a compiled, bundled worker.
type Artifact struct {
	ScriptName   string
	WorkflowName string // "" for a function
	ClassName    string // "" for a function
	// WorkflowBinding is the env name of the worker's own Workflow binding.
	WorkflowBinding string
	MainModule      string
	Modules         map[string][]byte
	Resources       []Resource
	// Bindings are extra bindings the code needs (sub-workflows' Workflow
	// bindings, services).
	Bindings           []Binding
	Crons              []string
	CompatibilityDate  string
	CompatibilityFlags []string
}
