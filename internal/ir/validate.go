package ir

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Problem is one finding of Validate: where (a JSON pointer into the IR, ""
// for the document itself), what, the node it concerns if any, and the rule
// broken (one of the Rule* constants).
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	NodeID  string `json:"nodeId,omitempty"`
	Rule    string `json:"rule"`
}

// Rules a Problem may name. docs/ir.md lists them with what they check.
const (
	RuleJSON          = "json"               // the document is not JSON
	RuleSchema        = "schema"             // shape: keys, types, enums (schema.json)
	RuleNodesRequired = "nodes-required"     // SPEC 1: at least one node
	RuleEntryExists   = "entry-exists"       // SPEC 2
	RuleOutputNode    = "output-node"        // outputNodeId names a workflow node with a value
	RuleNote          = "note"               // sticky notes: unique ids, bounded text and count
	RuleEdgeEnds      = "edge-ends"          // SPEC 3
	RuleNoCycle       = "no-cycle"           // SPEC 4
	RuleUpstream      = "upstream-reference" // SPEC 5
	RuleSelectOption  = "select-option"      // SPEC 6
	RuleDuration      = "duration"           // SPEC 7
	RuleScript        = "script"             // SPEC 8
	RuleNodeID        = "node-id"            // unique, slug format
	RuleEdgeID        = "edge-id"            // unique, non-empty
	RuleNodeType      = "node-type"          // known type and version
	RuleNodeName      = "node-name"          // non-empty display name
	RuleProvider      = "provider"           // cloudflare
	RuleNodeData      = "node-data"          // data against the config schema
	RuleExpression    = "expression"         // expression syntax and roots
	RuleReachable     = "reachable"          // reachable from the entry node
	RuleContainer     = "container"          // edges, labels, lanes, joins, loop and branch structure
	RuleStepConfig    = "step-config"        // config.retries and config.timeout
	RuleTrigger       = "trigger"            // trigger fields
	RuleCron          = "cron"               // cron expression
	RuleEventType     = "event-type"         // ^[a-zA-Z0-9_-]{1,100}$
	RuleMetadata      = "metadata"           // metadata fields
	RuleLimits        = "limits"             // Cloudflare limits
	RuleNesting       = "nesting"            // containers nested too deep
	RuleTooMany       = "too-many-problems"  // Options.MaxProblems reached
)

// Defaults of Options.
const (
	DefaultMaxSteps    = 10000
	DefaultMaxProblems = 1000
	// DefaultMaxNesting is how deep containers may nest: a container inside
	// 31 others is the deepest allowed (decision 330).
	DefaultMaxNesting = 32
	// MaxStepNameLength is Cloudflare's limit on step names, which are node
	// names.
	MaxStepNameLength = 256
	// ProviderCloudflare is the only execution provider.
	ProviderCloudflare = "cloudflare"
)

// Options configure Validate.
type Options struct {
	// Nodes resolves node types. With nil, node types, versions and data
	// are not checked (only the structure of builtin containers is).
	Nodes NodeCatalog
	// MaxSteps is the most durable steps a workflow may have (Cloudflare's
	// steps per workflow); 0 means DefaultMaxSteps.
	MaxSteps int
	// MaxProblems caps the problems reported; 0 means DefaultMaxProblems.
	MaxProblems int
	// MaxNesting is how many containers may nest inside each other; 0
	// means DefaultMaxNesting.
	MaxNesting int
}

var (
	nodeIDPattern    = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$`)
	envNamePattern   = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	eventTypePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,100}$`)
	semverPattern    = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`)
)

// ValidEventType reports whether t is an event type a wait_for_event node
// or an event trigger may name: 1 to 100 letters, digits, _ or -.
func ValidEventType(t string) bool { return eventTypePattern.MatchString(t) }

// AdmissionEventType is the event type edgeflow sends a cron start of a
// workflow with flow control when it admits it (docs/deploy.md, "Cron
// starts"). It is reserved: no wait_for_event node, event trigger or sent
// event may name it, in any letter case.
const AdmissionEventType = "edgeflow-admission"

// ReservedEventType reports whether t is AdmissionEventType in any letter
// case.
func ReservedEventType(t string) bool { return strings.EqualFold(t, AdmissionEventType) }

// reservedEventTypeMessage is the problem of a reserved event type.
const reservedEventTypeMessage = "event type %q is reserved for edgeflow's admission of cron starts"

// Validate parses raw as an artifact IR and checks all of it: the shape
// (schema.json), the validation rules of docs/ir.md.
// It returns every problem found, in a deterministic order, capped at
// Options.MaxProblems. The IR is nil when raw is not a JSON object of the
// right shape to be read; it is returned even when there are problems, but
// only an IR without problems may be compiled. Validate never panics.
func Validate(raw []byte, opts Options) (*ArtifactIR, []Problem) {
	a, _, problems := ValidateGraph(raw, opts)
	return a, problems
}

// ValidateGraph is Validate that also returns the Graph the checks built
// over the IR (nil when the IR could not be read far enough to check it),
// for a compiler to reuse rather than build again. Like any Graph it must
// not be used after the IR is modified.
func ValidateGraph(raw []byte, opts Options) (*ArtifactIR, *Graph, []Problem) {
	v := newValidator(nil, opts)
	r := streamReader{p: newJSONParser(raw)}
	r.notes.maxBad = v.opts.MaxProblems + 1
	a, err := r.readIR()
	if err != nil {
		return nil, nil, []Problem{{Path: "", Message: "not valid JSON: " + err.Error(), Rule: RuleJSON}}
	}
	v.a = a
	if r.bad {
		// The schema sees only what it needs to (schematext.go).
		text, nodeIndex, edgeIndex := r.notes.schemaText(raw)
		doc, err := parseJSON(text)
		var ps []Problem
		if err == nil {
			ps = schemaProblems(doc)
		}
		for i := range ps {
			ps[i].Path = schemaIndex(ps[i].Path, nodeIndex, edgeIndex)
		}
		if len(ps) == 0 { // the fast reader and the schema disagree: never stay silent
			ps = []Problem{{Path: "", Message: "the IR does not have the expected shape", Rule: RuleSchema}}
		}
		for _, p := range ps {
			if a != nil {
				p.NodeID = nodeIDAt(a, p.Path)
			}
			v.add(p)
		}
		if r.typeErr || a == nil {
			return a, nil, v.problems
		}
	}
	v.run()
	return a, v.g, v.problems
}

// ValidateIR checks an IR that is already decoded (for example built by a
// program). It marshals a and validates the result, so it reports exactly
// what Validate would.
func ValidateIR(a *ArtifactIR, opts Options) []Problem {
	raw, err := json.Marshal(a)
	if err != nil {
		return []Problem{{Path: "", Message: "cannot encode the IR: " + err.Error(), Rule: RuleJSON}}
	}
	_, ps := Validate(raw, opts)
	return ps
}

// nodeIDAt returns the id of the node a /nodes/<i>/... path points into.
func nodeIDAt(a *ArtifactIR, path string) string {
	rest, ok := strings.CutPrefix(path, "/nodes/")
	if !ok {
		return ""
	}
	idx, _, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= len(a.Nodes) {
		return ""
	}
	return a.Nodes[i].ID
}

type validator struct {
	a        *ArtifactIR
	opts     Options
	g        *Graph
	problems []Problem
	full     bool
	defs     []*NodeDefinition // per node, nil when unknown

	fieldCache map[*NodeDefinition][]schemaField
}

func newValidator(a *ArtifactIR, opts Options) *validator {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxProblems <= 0 {
		opts.MaxProblems = DefaultMaxProblems
	}
	if opts.MaxNesting <= 0 {
		opts.MaxNesting = DefaultMaxNesting
	}
	return &validator{a: a, opts: opts}
}

func (v *validator) add(p Problem) {
	if v.full {
		return
	}
	if len(v.problems) >= v.opts.MaxProblems {
		v.full = true
		v.problems = append(v.problems, Problem{Path: "", Message: fmt.Sprintf("more than %d problems; the rest are not shown", v.opts.MaxProblems), Rule: RuleTooMany})
		return
	}
	v.problems = append(v.problems, p)
}

func (v *validator) addf(path, nodeID, rule, format string, args ...any) {
	if v.full {
		return
	}
	v.add(Problem{Path: path, Message: fmt.Sprintf(format, args...), NodeID: nodeID, Rule: rule})
}

func nodePath(i int, rest ...string) string {
	p := "/nodes/" + strconv.Itoa(i)
	for _, r := range rest {
		p += "/" + escapePointer(r)
	}
	return p
}

func edgePath(i int, field string) string {
	p := "/edges/" + strconv.Itoa(i)
	if field != "" {
		p += "/" + field
	}
	return p
}

func (v *validator) run() {
	a := v.a
	v.g = NewGraph(a)
	v.nesting()
	v.metadata()
	if len(a.Nodes) == 0 {
		v.addf("/nodes", "", RuleNodesRequired, "an IR needs at least one node")
	}
	if v.g.Entry() == nil {
		v.addf("/entryNodeId", "", RuleEntryExists, "entryNodeId %q is not the id of a node", a.EntryNodeID)
	}
	v.outputNode()
	v.notes()
	v.trigger()
	v.nodes()
	v.edges()
	v.cycles()
	v.structure()
	v.expressions()
	v.limits()
}

func (v *validator) metadata() {
	md := v.a.Metadata
	if strings.TrimSpace(md.Name) == "" {
		v.addf("/metadata/name", "", RuleMetadata, "the name must not be empty")
	}
	for _, f := range []struct{ name, val string }{{"createdAt", md.CreatedAt}, {"updatedAt", md.UpdatedAt}} {
		if f.val == "" {
			continue // assigned by the server
		}
		if _, err := time.Parse(time.RFC3339Nano, f.val); err != nil {
			v.addf("/metadata/"+f.name, "", RuleMetadata, "%q is not an ISO 8601 date-time such as 2026-01-31T12:00:00Z", f.val)
		}
	}
	if md.Version < 0 {
		v.addf("/metadata/version", "", RuleMetadata, "the version must not be negative")
	}
}

func (v *validator) trigger() {
	t := v.a.Trigger
	if v.a.IsScript() && t != nil && t.Type != TriggerHTTP {
		v.addf("/trigger/type", "", RuleScript, "a function's trigger must be http, not %s", t.Type)
	}
	if t == nil {
		return
	}
	notFor := func(field, val string) {
		if val != "" {
			v.addf("/trigger/"+field, "", RuleTrigger, "%s does not apply to a %s trigger", field, t.Type)
		}
	}
	switch t.Type {
	case TriggerManual:
		notFor("path", t.Path)
		notFor("method", t.Method)
		notFor("expression", t.Expression)
		notFor("eventType", t.EventType)
	case TriggerHTTP:
		notFor("expression", t.Expression)
		notFor("eventType", t.EventType)
		if t.Path != "" && (!strings.HasPrefix(t.Path, "/") || strings.ContainsAny(t.Path, " \t\r\n?#")) {
			v.addf("/trigger/path", "", RuleTrigger, "path %q must start with / and contain no blanks, ? or #", t.Path)
		}
	case TriggerCron:
		notFor("path", t.Path)
		notFor("method", t.Method)
		notFor("eventType", t.EventType)
		if _, err := ParseCron(t.Expression); err != nil {
			v.addf("/trigger/expression", "", RuleCron, "%v", err)
		}
	case TriggerEvent:
		notFor("path", t.Path)
		notFor("method", t.Method)
		notFor("expression", t.Expression)
		if !eventTypePattern.MatchString(t.EventType) {
			v.addf("/trigger/eventType", "", RuleEventType, "event type %q must be 1 to 100 letters, digits, _ or -", t.EventType)
		} else if ReservedEventType(t.EventType) {
			v.addf("/trigger/eventType", "", RuleEventType, reservedEventTypeMessage, t.EventType)
		}
	}
}

// durableTypes run as durable steps and honour config.
var durableTypes = map[string]bool{TypeStep: true, TypeHTTPRequest: true, TypeSubWorkflow: true, TypeAgent: true}

// workflowOnly are rejected in functions (SPEC rule 8).
var workflowOnly = map[string]bool{TypeSleep: true, TypeSleepUntil: true, TypeWaitForEvent: true}

var builtinTypes = map[string]bool{
	TypeStep: true, TypeSleep: true, TypeSleepUntil: true, TypeBranch: true, TypeParallel: true, TypeRace: true,
	TypeHTTPRequest: true, TypeWaitForEvent: true, TypeTryCatch: true, TypeLoop: true, TypeBreak: true, TypeSubWorkflow: true,
	TypeAgent: true,
}

// ValidNodeID reports whether s is a node id the IR accepts (letters,
// digits, _ and -, not starting with -, at most 100 characters).
func ValidNodeID(s string) bool { return validNodeID(s) }

// validNodeID is nodeIDPattern without the regexp engine (hot path).
func validNodeID(s string) bool {
	if len(s) == 0 || len(s) > 100 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isSlugByte(s[i]) {
			return false
		}
	}
	return true
}

// validSemver matches semverPattern, answering the common MAJOR.MINOR.PATCH
// form without the regexp engine.
func validSemver(s string) bool {
	parts := 0
	for i := 0; i <= len(s); {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || (s[i] == '0' && j-i > 1) {
			return semverPattern.MatchString(s)
		}
		parts++
		if j == len(s) {
			return parts == 3
		}
		if s[j] != '.' || parts == 3 {
			return semverPattern.MatchString(s)
		}
		i = j + 1
	}
	return false
}

// validEnvName is envNamePattern without the regexp engine.
func validEnvName(s string) bool {
	if len(s) == 0 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// IsBuiltinType reports whether typ is one of the thirteen builtin node types.
func IsBuiltinType(typ string) bool { return builtinTypes[typ] }

func (v *validator) nodes() {
	a := v.a
	v.defs = make([]*NodeDefinition, len(a.Nodes))
	for i := range a.Nodes {
		n := &a.Nodes[i]
		id := n.ID
		if v.g.dup[i] {
			j := v.g.index[id]
			v.addf(nodePath(i, "id"), id, RuleNodeID, "node id %q is already used by node %d", id, j)
		} else {
			if !validNodeID(id) {
				v.addf(nodePath(i, "id"), id, RuleNodeID, "node id %q must be 1 to 100 letters, digits, _ or -, not starting with -", id)
			} else if id == RootEnv || id == RootEvent {
				v.addf(nodePath(i, "id"), id, RuleNodeID, "%q is reserved for expressions ({{%s...}}) and cannot be a node id", id, id)
			}
		}
		switch l := utf8.RuneCountInString(n.Name); {
		case strings.TrimSpace(n.Name) == "":
			v.addf(nodePath(i, "name"), id, RuleNodeName, "the node name must not be empty (it names the step)")
		case l > MaxStepNameLength:
			v.addf(nodePath(i, "name"), id, RuleLimits, "the node name has %d characters; step names are limited to %d", l, MaxStepNameLength)
		case strings.IndexFunc(n.Name, unicode.IsControl) >= 0:
			v.addf(nodePath(i, "name"), id, RuleNodeName, "the node name must not contain control characters")
		}
		if n.Provider != ProviderCloudflare {
			v.addf(nodePath(i, "provider"), id, RuleProvider, "provider %q is not supported; use %q", n.Provider, ProviderCloudflare)
		}
		if v.a.omittedVersion(i) {
			v.defaultVersion(i) // a type without versions is reported as unknown below
		} else if !validSemver(n.Version) {
			v.addf(nodePath(i, "version"), id, RuleNodeType, "version %q is not a semver version such as 1.0.0", n.Version)
		}
		if a.IsScript() && workflowOnly[n.Type] {
			v.addf(nodePath(i, "type"), id, RuleScript, "%s nodes are not allowed in functions (they need a durable workflow)", n.Type)
		}
		if n.Config != nil {
			v.stepConfig(i, n)
		}
		if v.opts.Nodes == nil {
			if builtinTypes[n.Type] {
				v.builtinData(i, n)
			}
			continue
		}
		def, ok := v.opts.Nodes.Lookup(n.Type, n.Version)
		if !ok {
			if versions := v.opts.Nodes.Versions(n.Type); len(versions) > 0 {
				if validSemver(n.Version) {
					v.addf(nodePath(i, "version"), id, RuleNodeType, "%s has no version %s; known versions: %s", n.Type, n.Version, strings.Join(versions, ", "))
				}
			} else {
				v.addf(nodePath(i, "type"), id, RuleNodeType, "unknown node type %q: not a builtin type nor an installed marketplace node", n.Type)
			}
			continue
		}
		v.defs[i] = def
		if a.IsScript() && !def.AllowedInFunctions && !workflowOnly[n.Type] {
			v.addf(nodePath(i, "type"), id, RuleScript, "%s nodes are not allowed in functions", n.Type)
		}
		v.data(i, n, def)
		if builtinTypes[n.Type] {
			v.builtinData(i, n)
		}
	}
}

func (v *validator) stepConfig(i int, n *Node) {
	c := n.Config
	if builtinTypes[n.Type] && !durableTypes[n.Type] {
		if c.Rollback != nil {
			v.addf(nodePath(i, "config", "rollback"), n.ID, RuleStepConfig, "a rollback undoes a durable step; %s nodes do not run as one (durable: step, http_request, sub_workflow, agent and marketplace nodes)", n.Type)
		}
		if c.Rollback == nil || c.Retries != nil || c.Timeout != nil || c.Sensitive {
			v.addf(nodePath(i, "config"), n.ID, RuleStepConfig, "config (retries, timeout, sensitive) applies to nodes that run as durable steps, not to %s", n.Type)
		}
	}
	if r := c.Retries; r != nil {
		v.retries(i, n, r, "config", "retries")
	}
	if c.Timeout != nil {
		v.durationValue(nodePath(i, "config", "timeout"), n.ID, *c.Timeout, 0)
	}
	if rb := c.Rollback; rb != nil {
		if v.a.IsScript() {
			v.addf(nodePath(i, "config", "rollback"), n.ID, RuleStepConfig, "functions run no durable steps, so a rollback would never run")
		}
		if strings.TrimSpace(rb.Code) == "" {
			v.addf(nodePath(i, "config", "rollback", "code"), n.ID, RuleStepConfig, "rollback.code is required and must not be empty")
		}
		if rb.Retries != nil {
			v.retries(i, n, rb.Retries, "config", "rollback", "retries")
		}
		if rb.Timeout != nil {
			v.durationValue(nodePath(i, "config", "rollback", "timeout"), n.ID, *rb.Timeout, 0)
		}
	}
}

// retries checks a retry policy at /nodes/i/<at>: its limit, its delay
// (a duration, or "retry-after" on the steps of http_request and
// marketplace nodes) and maxDelay (only with "retry-after").
func (v *validator) retries(i int, n *Node, r *RetryConfig, at ...string) {
	path := func(field string) string { return nodePath(i, append(at[:len(at):len(at)], field)...) }
	if r.Limit < 0 {
		v.addf(path("limit"), n.ID, RuleStepConfig, "retries.limit must be 0 or more")
	}
	rollback := len(at) > 1 && at[1] == "rollback"
	switch {
	case r.IsRetryAfter() && rollback:
		v.addf(path("delay"), n.ID, RuleStepConfig, "a rollback's retries wait a fixed delay; \"retry-after\" is for the steps of http_request and marketplace nodes")
	case r.IsRetryAfter() && builtinTypes[n.Type] && n.Type != TypeHTTPRequest:
		v.addf(path("delay"), n.ID, RuleStepConfig, "\"retry-after\" waits for the failed response's Retry-After header: only http_request and marketplace nodes have one, not %s nodes", n.Type)
	case !r.IsRetryAfter():
		v.durationValue(path("delay"), n.ID, r.Delay, 0)
	}
	if r.MaxDelay != nil {
		if !r.IsRetryAfter() {
			v.addf(path("maxDelay"), n.ID, RuleStepConfig, "maxDelay bounds the wait of delay \"retry-after\"; with a fixed delay it has no use")
		} else if d, err := r.MaxDelay.Value(); err == nil && d <= 0 {
			v.addf(path("maxDelay"), n.ID, RuleStepConfig, "maxDelay must be longer than 0")
		} else {
			v.durationValue(path("maxDelay"), n.ID, *r.MaxDelay, 0)
		}
	}
}

// durationValue checks a Duration of config; max 0 means no upper bound.
func (v *validator) durationValue(path, nodeID string, d Duration, max time.Duration) {
	if d.IsText && strings.Contains(d.Text, "{{") {
		v.addf(path, nodeID, RuleDuration, "durations in config cannot hold expressions")
		return
	}
	dur, err := d.Value()
	if err != nil {
		rule := RuleDuration
		if !d.IsText {
			rule = RuleStepConfig
		}
		v.addf(path, nodeID, rule, "%v", err)
		return
	}
	if max > 0 && dur > max {
		v.addf(path, nodeID, RuleLimits, "%s is longer than the limit of 365 days", d)
	}
}

func (v *validator) edges() {
	a := v.a
	seen := make(map[string]int, len(a.Edges))
	for i, e := range a.Edges {
		if e.ID == "" {
			v.addf(edgePath(i, "id"), "", RuleEdgeID, "the edge id must not be empty")
		} else if j, dup := seen[e.ID]; dup {
			v.addf(edgePath(i, "id"), "", RuleEdgeID, "edge id %q is already used by edge %d", e.ID, j)
		} else {
			seen[e.ID] = i
		}
		if v.g.Node(e.Source) == nil {
			v.addf(edgePath(i, "source"), "", RuleEdgeEnds, "source %q is not the id of a node", e.Source)
		}
		if v.g.Node(e.Target) == nil {
			v.addf(edgePath(i, "target"), "", RuleEdgeEnds, "target %q is not the id of a node", e.Target)
		}
	}
}

func (v *validator) cycles() {
	for _, c := range v.g.Cycles() {
		// Name the edge closing the cycle.
		last, first := c[len(c)-1], c[0]
		path := "/edges"
		for _, e := range v.g.out[v.g.index[last]] {
			if v.a.Edges[e].Target == first {
				path = edgePath(int(e), "")
				break
			}
		}
		v.addf(path, first, RuleNoCycle, "the edges form a cycle: %s → %s", strings.Join(c, " → "), first)
	}
}

// nesting reports each container nested deeper than MaxNesting: the first
// one past the limit on its path (the containers inside it are not named
// again). It costs one look at each node, before the other checks.
func (v *validator) nesting() {
	limit := int32(v.opts.MaxNesting)
	g := v.g
	for i := range v.a.Nodes {
		if g.depth[i] != limit || !IsContainer(v.a.Nodes[i].Type) {
			continue
		}
		n := &v.a.Nodes[i]
		outer := v.a.Nodes[g.parent(int32(i))].ID
		v.addf(nodePath(i), n.ID, RuleNesting, "container %q is nested %d levels deep (inside %q); containers nest at most %d levels", n.ID, limit+1, outer, limit)
	}
}

// limits checks Cloudflare's steps-per-workflow limit.
func (v *validator) limits() {
	if v.a.IsScript() {
		return
	}
	steps := 0
	for i := range v.a.Nodes {
		t := v.a.Nodes[i].Type
		if durableTypes[t] || workflowOnly[t] || !builtinTypes[t] {
			steps++
		}
	}
	if steps > v.opts.MaxSteps {
		v.addf("/nodes", "", RuleLimits, "the workflow has %d steps; a workflow may have at most %d", steps, v.opts.MaxSteps)
	}
	for _, p := range LiteralTooLarge(v.a) {
		v.add(p)
	}
}

// hasExpr reports whether s holds an expression; such values are checked at
// run time, not here.
func hasExpr(s string) bool { return strings.Contains(s, "{{") }

// validJSONWithExpressions checks that s is valid JSON once every
// expression is replaced by 0, and reports whether the value is an object.
func validJSONWithExpressions(s string) (isObject bool, err error) {
	t, ok := withoutExpressions(s)
	if !ok {
		return true, nil
	}
	b := []byte(t)
	if !json.Valid(b) {
		_, err := parseJSON(b)
		if err == nil {
			err = fmt.Errorf("not valid JSON")
		}
		return false, err
	}
	return strings.HasPrefix(strings.TrimLeft(t, " \t\r\n"), "{"), nil
}

// withoutExpressions replaces every expression of s by 0; false when s has
// a malformed expression.
func withoutExpressions(s string) (string, bool) {
	if !hasExpr(s) {
		return s, true
	}
	var b strings.Builder
	prev := 0
	err := scanExpressions(s, nil, func(e Expression) {
		b.WriteString(s[prev:e.Start])
		b.WriteString("0")
		prev = e.End
	})
	if err != nil {
		return "", false
	}
	b.WriteString(s[prev:])
	return b.String(), true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// outputNode checks outputNodeId: absent, or a node of a workflow whose value
// can be the run's output (decision 583).
func (v *validator) outputNode() {
	id := v.a.OutputNodeID
	if id == "" {
		return
	}
	n := v.g.Node(id)
	switch {
	case v.a.IsScript():
		v.addf("/outputNodeId", "", RuleOutputNode, "a function answers with its EXPORT_ nodes; outputNodeId is for workflows")
	case n == nil:
		v.addf("/outputNodeId", "", RuleOutputNode, "outputNodeId %q is not the id of a node", id)
	case n.Type == TypeSleep || n.Type == TypeSleepUntil || n.Type == TypeBreak:
		v.addf("/outputNodeId", id, RuleOutputNode, "node %q is a %s, which has no output", id, n.Type)
	}
}
