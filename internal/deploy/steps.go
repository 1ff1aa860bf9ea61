package deploy

import (
	"context"
	"encoding/json"
	"regexp"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// providerStep is one entry of an instance's step list as the provider
// reports it (Cloudflare's shape, which the local edge reports too).
type providerStep struct {
	Name     string          `json:"name"`
	Type     string          `json:"type"`
	Start    flexTime        `json:"start"`
	End      flexTime        `json:"end"`
	Success  *bool           `json:"success"`
	Finished *bool           `json:"finished"`
	Output   json.RawMessage `json:"output"`
	Error    *stepErr        `json:"error"`
	Config   *struct {
		Sensitive string `json:"sensitive"`
	} `json:"config"`
	Attempts []struct {
		Start   flexTime `json:"start"`
		End     flexTime `json:"end"`
		Success *bool    `json:"success"`
		Error   *stepErr `json:"error"`
	} `json:"attempts"`
}

type stepErr struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// flexTime reads a provider timestamp: RFC 3339, or the space-separated
// form; anything else (null, a number, an unknown form) reads as no time.
type flexTime struct{ t *time.Time }

func (f *flexTime) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil || s == "" {
		return nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			f.t = &t
			return nil
		}
	}
	return nil
}

// sensitive reports whether the step's config marks its output sensitive.
func (p *providerStep) sensitive() bool { return p.Config != nil && p.Config.Sensitive == "output" }

func parseSteps(raw json.RawMessage) []providerStep {
	var list []providerStep
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	return list
}

// loopSuffix is what the generated code appends to a step name inside
// loops (codegen.StepNames).
var loopSuffix = regexp.MustCompile(` #\d+(\.\d+)*$`)

// nodeOfStep maps a step name of the generated code to its node id through
// names (step name -> node id): the name itself, or the name without its
// loop suffix. The suffix is returned too ("" outside loops).
func nodeOfStep(names map[string]string, name string) (nodeID, suffix string) {
	if id, ok := names[name]; ok {
		return id, ""
	}
	if loc := loopSuffix.FindStringIndex(name); loc != nil {
		if id, ok := names[name[:loc[0]]]; ok {
			return id, name[loc[0]:]
		}
	}
	// An agent's model calls, tool calls and approvals belong to its node
	// (codegen's runAgent names them "agent <step name> turn N", ...).
	if m := agentStepName.FindStringSubmatch(name); m != nil {
		if id, suffix := nodeOfStep(names, m[1]); id != "" {
			return id, suffix + " " + m[2]
		}
	}
	return "", ""
}

// agentStepName matches the names of the steps of an agent node.
var agentStepName = regexp.MustCompile(`^agent (.+) (turn \d+|tool [A-Za-z0-9_-]+ \d+|approval \d+|result)$`)

// isAgentStep reports whether name is a step of an agent node.
func isAgentStep(name string) bool { return agentStepName.MatchString(name) }

// renameStep is the name a step of node nodeID takes in another version
// whose step name for the node is base: base and the suffix, with the
// "agent " prefix of an agent's steps.
func renameStep(past, base, suffix string) string {
	if isAgentStep(past) {
		return "agent " + base + suffix
	}
	return base + suffix
}

// DescribeSteps turns a run's stored step list (the provider's shape) into
// the steps clients see, in execution order: the steps replayed from the
// original run first (state replayed), then the provider's entries. names
// maps the step names of the run's version to node ids
// (codegen.StepNames inverted); runStatus decides what an unfinished step
// of a finished run is (errored or terminated).
func DescribeSteps(raw json.RawMessage, names map[string]string, replayed []edgeflow.ReplayedStep, runStatus string) []edgeflow.RunStep {
	out := make([]edgeflow.RunStep, 0, len(replayed)+8)
	for _, r := range replayed {
		st := edgeflow.RunStep{NodeID: r.NodeID, Name: r.Name, Type: r.Type, State: edgeflow.StepReplayed,
			Attempts: r.Attempts, StartedAt: r.StartedAt, EndedAt: r.EndedAt}
		st.Output, st.OutputTruncated = capOutput(r.Output)
		out = append(out, st)
	}
	for _, p := range parseSteps(raw) {
		if p.Type == "termination" || p.Name == "" {
			continue
		}
		nodeID, _ := nodeOfStep(names, p.Name)
		st := edgeflow.RunStep{NodeID: nodeID, Name: p.Name, Type: p.Type, StartedAt: p.Start.t, EndedAt: p.End.t,
			Attempts: len(p.Attempts)}
		if p.Type == edgeflow.StepTypeRollback {
			out = append(out, describeRollback(st, p, runStatus))
			continue
		}
		if p.Type == "step" {
			st.Output, st.OutputTruncated = capOutput(p.Output)
			if len(p.Attempts) > 0 {
				last := p.Attempts[len(p.Attempts)-1]
				if last.Error != nil && (last.Success == nil || !*last.Success) {
					st.Error = &edgeflow.StepError{Name: last.Error.Name, Message: last.Error.Message}
				}
			}
			if st.Error == nil && p.Error != nil && p.Success != nil && !*p.Success {
				st.Error = &edgeflow.StepError{Name: p.Error.Name, Message: p.Error.Message}
			}
			switch {
			case p.Success != nil && *p.Success:
				st.State, st.Error = edgeflow.StepComplete, nil
			case p.Success != nil:
				st.State = edgeflow.StepErrored
			case len(p.Attempts) > 0 && p.Attempts[len(p.Attempts)-1].Success != nil && !*p.Attempts[len(p.Attempts)-1].Success:
				st.State = edgeflow.StepRetrying
			default:
				st.State = edgeflow.StepRunning
			}
		} else {
			if p.Type == "waitForEvent" {
				st.Output, st.OutputTruncated = capOutput(p.Output)
			}
			if p.Finished != nil && *p.Finished {
				st.State = edgeflow.StepComplete
			} else {
				st.State = edgeflow.StepWaiting
			}
		}
		if edgeflow.RunIsFinal(runStatus) && st.State != edgeflow.StepComplete && st.State != edgeflow.StepErrored {
			if runStatus == edgeflow.RunErrored {
				st.State = edgeflow.StepErrored
			} else {
				st.State = edgeflow.StepTerminated
			}
		}
		if st.Output == nil {
			st.Output = json.RawMessage("null")
		}
		if p.sensitive() {
			st.Sensitive = true
			if string(st.Output) != "null" {
				st.Output, st.OutputTruncated = redactedJSON, false
			}
		}
		out = append(out, st)
	}
	return out
}

// describeRollback is a rollback step (the undoing of the step of the same
// name): rolled_back, rollback_failed with the error of its last attempt,
// or running while the provider runs it (rollback_failed once the run has
// ended without its end).
func describeRollback(st edgeflow.RunStep, p providerStep, runStatus string) edgeflow.RunStep {
	st.Output, st.OutputTruncated = capOutput(p.Output)
	var lastErr *stepErr
	if len(p.Attempts) > 0 {
		lastErr = p.Attempts[len(p.Attempts)-1].Error
	}
	if lastErr == nil {
		lastErr = p.Error
	}
	switch {
	case p.Success != nil && *p.Success:
		st.State = edgeflow.StepRolledBack
	case p.Success != nil || edgeflow.RunIsFinal(runStatus):
		st.State = edgeflow.StepRollbackFailed
		if lastErr != nil {
			st.Error = &edgeflow.StepError{Name: lastErr.Name, Message: lastErr.Message}
		}
	default:
		st.State = edgeflow.StepRunning
	}
	return st
}

// capOutput returns out as shown in a run's detail: null when absent, the
// JSON itself up to MaxStepOutput bytes, else its first MaxStepOutput bytes
// (cut on a character boundary) as a JSON string, and true.
func capOutput(out json.RawMessage) (json.RawMessage, bool) {
	if len(out) == 0 {
		return json.RawMessage("null"), false
	}
	if len(out) <= edgeflow.MaxStepOutput {
		return out, false
	}
	cut := edgeflow.MaxStepOutput
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	b, _ := json.Marshal(string(out[:cut]))
	return b, true
}

// stepNameCache keeps the step names of versions (immutable once stored)
// so that a run's detail does not parse its version's IR each time.
type stepNameCache struct {
	mu sync.Mutex
	m  map[string]map[string]string
}

// maxCachedVersions bounds the cache; past it, the cache starts over.
const maxCachedVersions = 1024

// versionStepNames returns step name -> node id of the workflow's version
// (empty when the version is gone or its IR cannot be read).
func (s *Service) versionStepNames(ctx context.Context, workflowID, versionID string) (map[string]string, error) {
	s.stepNames.mu.Lock()
	names, ok := s.stepNames.m[versionID]
	s.stepNames.mu.Unlock()
	if ok {
		return names, nil
	}
	v, err := s.store.FindVersionByID(ctx, workflowID, versionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return map[string]string{}, nil
		}
		return nil, err
	}
	names = invertStepNames(v.IR)
	s.stepNames.mu.Lock()
	if s.stepNames.m == nil || len(s.stepNames.m) >= maxCachedVersions {
		s.stepNames.m = make(map[string]map[string]string)
	}
	s.stepNames.m[versionID] = names
	s.stepNames.mu.Unlock()
	return names, nil
}

// irStepNames is node id -> step name of a stored IR (nil when it does not
// read as an IR).
func irStepNames(raw json.RawMessage) map[string]string {
	var a ir.ArtifactIR
	if json.Unmarshal(raw, &a) != nil {
		return nil
	}
	return codegen.StepNames(&a)
}

func invertStepNames(raw json.RawMessage) map[string]string {
	byNode := irStepNames(raw)
	names := make(map[string]string, len(byNode))
	for id, name := range byNode {
		names[name] = id
	}
	return names
}

// withSteps fills r.StepDetail from its stored steps.
func (s *Service) withSteps(ctx context.Context, r *edgeflow.Run) (*edgeflow.Run, error) {
	names, err := s.versionStepNames(ctx, r.WorkflowID, r.VersionID)
	if err != nil {
		return nil, err
	}
	r.StepDetail = DescribeSteps(r.Steps, names, r.Replayed, r.Status)
	r.Usage = AgentUsage(r.Steps)
	return r, nil
}

// agentTurnStep matches the name of an agent's model call.
var agentTurnStep = regexp.MustCompile(`^agent .+ turn \d+$`)

// AgentUsage sums the token counts of the agent model calls in a run's
// stored step list (the provider's shape): the outputs of the successful
// "agent <node> turn N" steps, read in full (a run's detail caps outputs).
// Steps replayed from an original run are not in the list: their tokens
// were spent, and counted, in that run. Nil when the list has no model call.
func AgentUsage(raw json.RawMessage) *edgeflow.TokenUsage {
	var u *edgeflow.TokenUsage
	for _, p := range parseSteps(raw) {
		if p.Type != "step" || !agentTurnStep.MatchString(p.Name) || p.Success == nil || !*p.Success {
			continue
		}
		var out struct {
			Usage struct {
				InputTokens  int64 `json:"inputTokens"`
				OutputTokens int64 `json:"outputTokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(p.Output, &out) != nil {
			continue
		}
		if u == nil {
			u = &edgeflow.TokenUsage{}
		}
		u.InputTokens += max(out.Usage.InputTokens, 0)
		u.OutputTokens += max(out.Usage.OutputTokens, 0)
	}
	return u
}
