// Package codegen compiles a validated IR to TypeScript: a workflow to a
// module with a WorkflowEntrypoint class and a fetch handler, a function
// (kind script) to a fetch-only worker. It is pure: an IR and options in,
// files out; no I/O. Bundling the files is internal/bundle's job.
//
// The output is deterministic (byte-identical for the same input), names its
// variables after node ids, and type-checks with tsc --strict against
// @cloudflare/workers-types. docs/compiler.md describes the generated code.
package codegen

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// Options are the facts about the workflow that are not in its IR.
type Options struct {
	// WorkflowID names the script, the Workflow and the class (see
	// ScriptName, WorkflowName, ClassName). Required.
	WorkflowID string
	// DisplayName is the workflow's name, shown in the header comment only.
	DisplayName string
	// Version is the version number shown in the header comment.
	Version int
	// TriggerCode, when not blank, replaces the body of the fetch handler.
	TriggerCode string
	// EnvVars are the workflow's environment variables and secrets; their
	// values never enter the code, which reads env.NAME.
	EnvVars []EnvVar
	// Resources are the KV, D1, R2 and service bindings the deployment
	// declares.
	Resources []Resource
	// Templates are the marketplace node templates the IR's custom nodes
	// use, one per (type, version).
	Templates []NodeTemplate
	// Dependencies are the workflow's npm dependencies (package → version
	// range); each is imported as a namespace (see docs/compiler.md).
	Dependencies map[string]string
	// ResolveSubWorkflow maps a sub_workflow node's workflowId to the script
	// and Workflow names of the deployed child. When nil, or when it answers
	// false, the names derive from the id (ScriptName, WorkflowName).
	ResolveSubWorkflow func(ref string) (scriptName, workflowName string, ok bool)
	// JavaScript emits the main module as JavaScript (index.js) instead of
	// TypeScript: the same code without type annotations, for the deploy
	// path, where the TypeScript is not needed and bundling it would cost a
	// full esbuild pass. The user's code fields (step code, conditions,
	// collections, expression fields, trigger code) may be TypeScript; they
	// are copied as written and listed in Output.Regions for
	// bundle.Bundle to transpile. Marketplace templates stay TypeScript
	// files.
	JavaScript bool
	// Graph is the IR's graph as validation built it (ir.ValidateGraph), to
	// reuse; when nil or built over another IR, Generate builds its own.
	Graph *ir.Graph
	// AdmissionGate compiles the admission gate into the Workflow's run
	// (docs/deploy.md, "Cron starts"): an instance whose id is not one
	// edgeflow makes (a schedule's start) waits for edgeflow's
	// AdmissionEventType event before any step runs. The deploy sets it
	// for a workflow with a cron trigger and flow control; ignored for a
	// workflow without a cron trigger and for a function.
	AdmissionGate bool
}

// The admission gate (Options.AdmissionGate; decisions 770-774).
const (
	// AdmissionEventType is the event edgeflow sends a schedule's start it
	// admits. It is reserved: the send-event routes refuse it.
	AdmissionEventType = ir.AdmissionEventType
	// AdmissionStep is the name of the gate's durable wait, as the run's
	// step list shows it.
	AdmissionStep = "edgeflow admission"
	// AdmissionTimeout is how long a schedule's start waits for admission
	// before it ends, errored with AdmissionTimedOut, having run no step:
	// well beyond discovery's interval (5 s in serve) and its longest
	// back-off after provider failures (5 minutes).
	AdmissionTimeout = "10 minutes"
	// AdmissionTimedOut starts the error of a start that was not admitted
	// in time.
	AdmissionTimedOut = "edgeflow did not admit this cron start within 10 minutes"
)

// EnvVar is an environment variable of the workflow. Secret ones are bound as
// secrets at deploy time.
type EnvVar struct {
	Name   string
	Secret bool
}

// Resource kinds.
const (
	ResourceKV      = "kv"
	ResourceD1      = "d1"
	ResourceR2      = "r2"
	ResourceService = "service"
)

// Resource is a binding the deployment declares: Kind is kv, d1, r2 or
// service; Target is the namespace id, database id, bucket name or service
// name.
type Resource struct {
	Name   string
	Kind   string
	Target string
}

// NodeTemplate is a marketplace node's TypeScript template (docs/registry.md,
// "The template contract"). Definition, when set, supplies field types and
// defaults for building the template's config; without it the node's data is
// passed with expressions interpolated into strings.
type NodeTemplate struct {
	Type, Version, Source string
	Definition            *registry.Definition
}

// Binding types in Output.Bindings, named as in Cloudflare's upload metadata.
const (
	BindingWorkflow   = "workflow"
	BindingPlainText  = "plain_text"
	BindingSecretText = "secret_text"
	BindingKV         = "kv_namespace"
	BindingD1         = "d1"
	BindingR2         = "r2_bucket"
	BindingService    = "service"
	// BindingAI is Workers AI (env.AI), which the agent node's workers-ai
	// provider calls.
	BindingAI = "ai"
)

// AIBinding is the name of the Workers AI binding (env.AI).
const AIBinding = "AI"

// Binding is one binding the generated code reads from env. Values of
// variables and secrets are not part of it: the deployment supplies them.
type Binding struct {
	// Name is the property of env.
	Name string
	// Type is one of the Binding* constants.
	Type string
	// WorkflowName, ClassName and ScriptName describe workflow bindings
	// (ScriptName empty for the workflow's own class).
	WorkflowName, ClassName, ScriptName string
	// Target is a resource's id or name (Resource.Target); empty when the
	// binding was detected in a node but not declared.
	Target string
}

// Output is the compiled artifact.
type Output struct {
	// Files maps a path to TypeScript source: index.ts and
	// nodes/<type>@<version>.ts for each marketplace template.
	Files map[string]string
	// MainModule is the entry file, "index.ts".
	MainModule string
	// ScriptName, WorkflowName and ClassName are the names on the edge;
	// WorkflowName and ClassName are empty for functions.
	ScriptName, WorkflowName, ClassName string
	// Bindings lists every binding the code reads, sorted by name.
	Bindings []Binding
	// Dependencies are the npm packages to bundle: the workflow's own and
	// its templates'.
	Dependencies map[string]string
	// Crons are the cron expressions of a cron trigger.
	Crons []string
	// Regions are the spans of the main module that hold the user's code as
	// written (possibly TypeScript), set with Options.JavaScript; pass them
	// as bundle.Input.Regions. Nil for TypeScript output.
	Regions []bundle.Region
}

// Error is a compile problem of one node.
type Error struct {
	NodeID  string
	Path    string
	Message string
}

// Error writes the problem as "<path> (node <id>): <message>".
func (e *Error) Error() string {
	if e.NodeID == "" {
		return e.Path + ": " + e.Message
	}
	return fmt.Sprintf("%s (node %s): %s", e.Path, e.NodeID, e.Message)
}

// MainModule is the name of the entry file in Output.Files.
const MainModule = "index.ts"

// MainModuleJS is the name of the entry file in Output.Files with
// Options.JavaScript.
const MainModuleJS = "index.js"

// workflowBinding is the env property of the workflow's own Workflow.
const workflowBinding = "WORKFLOW"

// Generate compiles a to TypeScript. a must have passed ir.Validate; Generate
// still reports what it cannot compile (a malformed expression or JSON field,
// a marketplace node without a template) as an *Error.
func Generate(a *ir.ArtifactIR, opts Options) (*Output, error) {
	if opts.WorkflowID == "" {
		return nil, &Error{Path: "workflowId", Message: "a workflow id is required"}
	}
	g := newGen(a, opts)
	return g.generate()
}

type helper int

const (
	helperToText helper = iota
	helperErrorInfo
	helperHTTP
	helperSubWorkflow
	helperBreak
	helperWorkerAuth
	helperReadJSON
	helperReplay
	helperAgent
	helperRetryAfter
	helperTrace
	helperAdmission
	helperCount
)

type gen struct {
	a       *ir.ArtifactIR
	opts    Options
	graph   *ir.Graph
	script  bool
	js      bool // emit JavaScript (Options.JavaScript)
	names   *namer
	vars    map[string]string // node id → variable holding its value
	indeg   map[string]int    // node id → number of incoming edges
	steps   map[string]string // node id → unique durable step name
	helpers [helperCount]bool

	env       map[string]string // env property → TypeScript type
	bindings  map[string]Binding
	templates map[string]*template // "type@version" → template
	subs      map[string]string    // child workflow id → binding name
	// breakSignals are the loops whose body catches a BreakSignal
	// (findBreakSignals).
	breakSignals map[string]bool
	// stepCtx is the JavaScript name of the step context where the
	// expressions being written are evaluated ("" outside a durable step).
	stepCtx string
	err     error

	b      *bytes.Buffer // pooled; see getBuffer
	indent int

	// outVar holds the run's output where the last node of the main chain
	// cannot give it (decision 583); outLines are the byte ranges in b of the
	// lines assigning it, cut out again when it is not needed.
	outVar   string
	outLines [][2]int
}

// buffers hold the generator's output while it is written: a version
// submission generates tens of kilobytes, and reusing the buffers leaves one
// allocation, the final string.
var buffers sync.Pool

// maxPooledBuffer is the largest buffer put back in the pool; bigger ones
// (very large IRs) are left to the garbage collector.
const maxPooledBuffer = 1 << 20

func getBuffer(size int) *bytes.Buffer {
	b, _ := buffers.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	b.Grow(size)
	return b
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuffer {
		b.Reset()
		buffers.Put(b)
	}
}

type template struct {
	tpl   NodeTemplate
	ident string
	path  string
}

func newGen(a *ir.ArtifactIR, opts Options) *gen {
	graph := opts.Graph
	if graph == nil || graph.IR() != a {
		graph = ir.NewGraph(a)
	}
	g := &gen{
		a:         a,
		opts:      opts,
		graph:     graph,
		script:    a.IsScript(),
		js:        opts.JavaScript,
		names:     newNamer(len(a.Nodes) + 16),
		vars:      make(map[string]string, len(a.Nodes)),
		env:       map[string]string{},
		bindings:  map[string]Binding{},
		templates: map[string]*template{},
		subs:      map[string]string{},
	}
	for _, name := range []string{"caught", "output", "items", "results", "instance", "payload", "body", "url", "id"} {
		g.names.reserve(name)
	}
	for _, n := range a.Nodes {
		if n.Type == ir.TypeLoop {
			for _, k := range []string{"itemVar", "indexVar"} {
				if s, ok := n.Data[k].(string); ok && s != "" {
					g.names.reserve(s)
				}
			}
		}
	}
	for _, dep := range sortedKeys(opts.Dependencies) {
		g.names.reserve(depIdent(dep))
	}
	for _, t := range opts.Templates {
		g.names.reserve(camel(t.Type, t.Version))
	}
	g.indeg = make(map[string]int, len(a.Nodes))
	for _, e := range a.Edges {
		if g.graph.Node(e.Source) != nil && g.graph.Node(e.Target) != nil {
			g.indeg[e.Target]++
		}
	}
	for _, n := range a.Nodes {
		if _, dup := g.vars[n.ID]; dup {
			continue
		}
		switch n.Type {
		case ir.TypeSleep, ir.TypeSleepUntil, ir.TypeBreak:
		default:
			g.vars[n.ID] = g.names.ident(n.ID)
		}
	}
	g.steps = StepNames(a)
	g.breakSignals = map[string]bool{}
	g.findBreakSignals()
	return g
}

// StepNames maps each node id of a to the name of its durable step in the
// generated code: the node's name, or "name (id)" when an earlier node
// (in IR order) has that name already. Inside loops the generated code
// appends " #i" (" #i.j" for nested loops) to the name for each iteration.
// It depends only on the nodes' ids and names in order, so the step names
// of a stored version can be recomputed from its IR at any later time.
func StepNames(a *ir.ArtifactIR) map[string]string {
	steps := make(map[string]string, len(a.Nodes))
	seen := make(map[string]bool, len(a.Nodes))
	for _, n := range a.Nodes {
		if _, dup := steps[n.ID]; dup {
			continue
		}
		name := n.Name
		if seen[name] {
			name = n.Name + " (" + n.ID + ")"
		}
		seen[name] = true
		steps[n.ID] = name
	}
	return steps
}

func (g *gen) fail(n *ir.Node, field, format string, args ...any) {
	if g.err != nil {
		return
	}
	path := "nodes"
	if i, ok := g.graph.Index(n.ID); ok {
		path = fmt.Sprintf("nodes[%d]", i)
	}
	if field != "" {
		path += "." + field
	}
	g.err = &Error{NodeID: n.ID, Path: path, Message: fmt.Sprintf(format, args...)}
}

func (g *gen) line(format string, args ...any) {
	for i := 0; i < g.indent; i++ {
		g.b.WriteString("  ")
	}
	if len(args) == 0 {
		g.b.WriteString(format)
	} else {
		fmt.Fprintf(g.b, format, args...)
	}
	g.b.WriteByte('\n')
}

func (g *gen) useEnv(name string) {
	if _, ok := g.env[name]; !ok {
		g.env[name] = "string"
	}
}

func (g *gen) generate() (*Output, error) {
	out := &Output{
		Files:        map[string]string{},
		MainModule:   MainModule,
		ScriptName:   ScriptName(g.opts.WorkflowID),
		Dependencies: map[string]string{},
	}
	if !g.script {
		out.WorkflowName = WorkflowName(g.opts.WorkflowID)
		out.ClassName = ClassName(g.opts.WorkflowID)
		g.env[workflowBinding] = "Workflow"
		g.bindings[workflowBinding] = Binding{Name: workflowBinding, Type: BindingWorkflow, WorkflowName: out.WorkflowName, ClassName: out.ClassName}
	}
	for _, v := range g.opts.EnvVars {
		g.env[v.Name] = "string"
		t := BindingPlainText
		if v.Secret {
			t = BindingSecretText
		}
		g.bindings[v.Name] = Binding{Name: v.Name, Type: t}
	}
	if !g.script {
		g.workerAuthEnv()
	}
	for _, r := range g.opts.Resources {
		t, b := resourceType(r.Kind)
		if t == "" {
			return nil, &Error{Path: "resources", Message: fmt.Sprintf("resource %s: unknown kind %q (kv, d1, r2 or service)", r.Name, r.Kind)}
		}
		g.env[r.Name] = t
		g.bindings[r.Name] = Binding{Name: r.Name, Type: b, Target: r.Target}
	}
	for k, v := range g.opts.Dependencies {
		out.Dependencies[k] = v
	}
	if g.a.Trigger != nil && g.a.Trigger.Type == ir.TriggerCron && g.a.Trigger.Expression != "" {
		out.Crons = []string{g.a.Trigger.Expression}
	}

	// The graph body first: it decides which helpers, env members and
	// templates the module needs.
	entry := g.graph.Entry()
	if entry == nil {
		return nil, &Error{Path: "entryNodeId", Message: "names no node"}
	}
	g.b = getBuffer(bodySize(g.a))
	if g.script {
		g.indent = 1
	} else {
		g.indent = 2
	}
	bodyStart, bodyIndent := g.b.Len(), g.indent
	if !g.script {
		g.outVar = g.names.ident("runOutput")
	}
	last, _ := g.chain(entry.ID, &scope{})
	if g.err != nil {
		return nil, g.err
	}
	if g.script {
		g.line("return output;")
	} else if v, ok := g.vars[last]; ok && last != "" && g.a.OutputNodeID == "" && !ir.IsContainer(g.graph.Node(last).Type) {
		// the common case: the chain ends in a node with a value, which is the output
		g.keepOutputVar(bodyStart, bodyIndent, false)
		if g.returnsSensitive(last) {
			// The run's output is kept by the provider and by edgeflow:
			// a sensitive value stays inside the run (docs/runs.md).
			v = jsString(RedactedOutput)
		}
		g.line("return %s;", v)
	} else {
		g.keepOutputVar(bodyStart, bodyIndent, true)
		g.line("return %s;", g.outVar)
	}
	bodyBuf := g.b
	g.indent = 0

	for _, key := range sortedKeys(g.templates) {
		t := g.templates[key]
		out.Files[t.path] = t.tpl.Source
		if t.tpl.Definition != nil {
			for k, v := range t.tpl.Definition.Dependencies {
				if _, ok := out.Dependencies[k]; !ok {
					out.Dependencies[k] = v
				}
			}
		}
	}
	if len(out.Dependencies) == 0 {
		out.Dependencies = nil
	}
	g.codeBindings(g.opts.TriggerCode) // before module writes the Env interface
	// The helpers the module adds after the body are about 20 KB at most.
	g.b = getBuffer(bodyBuf.Len() + 32<<10)
	// The body is read in place: bodyBuf is not written again until it is
	// back in the pool, after module.
	g.module(out, unsafe.String(unsafe.SliceData(bodyBuf.Bytes()), bodyBuf.Len()))
	putBuffer(bodyBuf)
	if g.err != nil {
		return nil, g.err
	}
	code := g.text()
	if g.js {
		out.MainModule = MainModuleJS
		code, out.Regions = cutRegions(code)
		out.Files[MainModuleJS] = code
	} else {
		out.Files[MainModule] = code
	}
	for _, name := range sortedKeys(g.bindings) {
		out.Bindings = append(out.Bindings, g.bindings[name])
	}
	return out, nil
}

// text returns what g.b holds and lets go of g.b. A buffer too large for the
// pool becomes the string itself, without a copy of megabytes.
func (g *gen) text() string {
	b := g.b
	g.b = nil
	if b.Cap() > maxPooledBuffer {
		return unsafe.String(unsafe.SliceData(b.Bytes()), b.Len())
	}
	s := b.String()
	putBuffer(b)
	return s
}

// bodySize estimates the size of the code generated for a's graph, so that
// its buffer seldom has to grow: a few lines per node and the text of its
// data (step code above all).
func bodySize(a *ir.ArtifactIR) int {
	n := 256*len(a.Nodes) + 1024
	for i := range a.Nodes {
		for _, v := range a.Nodes[i].Data {
			if s, ok := v.(string); ok {
				n += len(s) + len(s)/4
			}
		}
	}
	return n
}

func resourceType(kind string) (tsType, binding string) {
	switch kind {
	case ResourceKV:
		return "KVNamespace", BindingKV
	case ResourceD1:
		return "D1Database", BindingD1
	case ResourceR2:
		return "R2Bucket", BindingR2
	case ResourceService:
		return "Fetcher", BindingService
	}
	return "", ""
}

// depIdent is the namespace identifier an npm dependency is imported as:
// the package name without scope, in camelCase ("@acme/date-fns" → dateFns).
func depIdent(pkg string) string {
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	s := camel(pkg, "")
	s = strings.TrimSuffix(s, "_")
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "pkg" + s
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
