package deploy

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// A deployed workflow reaches only what its own project holds: its npm
// dependencies are registry packages (checked here again at deploy, since a
// workflow stored before the check may hold any spec), and its sub_workflow
// nodes start workflows of its own project only (docs/security.md).

// SubWorkflowRef is a workflow an IR starts: a sub_workflow node's, or an
// agent node's workflow tool's.
type SubWorkflowRef struct {
	// Index is the node's position in the IR's nodes.
	Index      int
	NodeID     string
	WorkflowID string
	// Field is the JSON pointer of the id below the node's data:
	// "workflowId", or "tools/<k>/workflow" for an agent's tool.
	Field string
}

// SubWorkflowRefs lists the workflows a starts (sub_workflow nodes and
// agents' workflow tools), in IR order.
func SubWorkflowRefs(a *ir.ArtifactIR) []SubWorkflowRef {
	var refs []SubWorkflowRef
	for i, n := range a.Nodes {
		switch n.Type {
		case ir.TypeSubWorkflow:
			id, _ := n.Data["workflowId"].(string)
			refs = append(refs, SubWorkflowRef{Index: i, NodeID: n.ID, WorkflowID: id, Field: "workflowId"})
		case ir.TypeAgent:
			for _, t := range ir.AgentTools(n.Data) {
				if t.Kind == ir.AgentToolWorkflow {
					refs = append(refs, SubWorkflowRef{Index: i, NodeID: n.ID, WorkflowID: t.Workflow,
						Field: fmt.Sprintf("tools/%d/workflow", t.Index)})
				}
			}
		}
	}
	return refs
}

// CheckSubWorkflows checks that every ref names a workflow (not a
// function) of the project projectID. It returns a 422 validation_failed
// *edgeflow.Error with one FieldError per refused node, at
// /nodes/<index>/data/workflowId; a workflow of another project or
// organization gets the same answer as one that does not exist. Other
// errors are the store's.
func CheckSubWorkflows(ctx context.Context, store edgeflow.Store, projectID string, refs []SubWorkflowRef) error {
	var problems []edgeflow.FieldError
	for _, r := range refs {
		field := r.Field
		if field == "" {
			field = "workflowId"
		}
		path := fmt.Sprintf("/nodes/%d/data/%s", r.Index, field)
		target, err := store.FindWorkflowByID(ctx, projectID, r.WorkflowID)
		switch {
		case edgeflow.IsNotFound(err):
			problems = append(problems, edgeflow.FieldError{Path: path, Message: fmt.Sprintf(
				"node %q: %q is not a workflow of this project; a sub_workflow or an agent's tool may start only workflows of its own project", r.NodeID, r.WorkflowID)})
		case err != nil:
			return err
		case target.Kind == edgeflow.KindScript:
			problems = append(problems, edgeflow.FieldError{Path: path, Message: fmt.Sprintf(
				"node %q: %q is a function, not a workflow; a sub_workflow or an agent's workflow tool starts workflows", r.NodeID, r.WorkflowID)})
		}
	}
	if len(problems) == 0 {
		return nil
	}
	msg := problems[0].Path + ": " + problems[0].Message
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	return &edgeflow.Error{Code: edgeflow.EInvalid, Message: msg, Details: problems}
}

// DependencyProblems checks a workflow's npm dependencies with
// registry.CheckDependency and returns one FieldError per refused
// dependency, at /dependencies/<name> (a JSON pointer), in name order.
func DependencyProblems(deps map[string]string) []edgeflow.FieldError {
	names := make([]string, 0, len(deps))
	for k := range deps {
		names = append(names, k)
	}
	sort.Strings(names)
	var problems []edgeflow.FieldError
	for _, name := range names {
		if err := registry.CheckDependency(name, deps[name]); err != nil {
			problems = append(problems, edgeflow.FieldError{Path: "/dependencies/" + pointerEscaper.Replace(name), Message: err.Error()})
		}
	}
	return problems
}

// CheckDependencies is DependencyProblems as a 422 validation_failed
// *edgeflow.Error for a deploy, or nil.
func CheckDependencies(deps map[string]string) error {
	problems := DependencyProblems(deps)
	if len(problems) == 0 {
		return nil
	}
	msg := fmt.Sprintf("the workflow's dependencies cannot be installed: %s: %s (change them with PATCH /api/workflows/{id})",
		problems[0].Path, problems[0].Message)
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	return &edgeflow.Error{Code: edgeflow.EInvalid, Message: msg, Details: problems}
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")
