package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/importer/awaitstep"
	"github.com/edgeflow/edgeflow/internal/importer/n8n"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Imports (docs/import.md): an n8n workflow or an AwaitStep IR becomes an
// edgeflow IR with a report of what was converted, approximated or not
// converted. Without ?create=true nothing is stored (200); with it the
// workflow is created with the IR as its first version (201), after the IR
// passed every check a version submit makes.

// MaxImportBytes is the largest import request: n8n workflows with
// their code and pinned data run to a few hundred kilobytes.
const MaxImportBytes = 4 << 20

// MaxImportNodes is the most nodes an n8n workflow to import may have.
const MaxImportNodes = n8n.MaxNodes

// importN8nRequest is the body of POST /api/import/n8n. The n8n workflow
// may also be sent as the whole body.
type importN8nRequest struct {
	// Workflow is the workflow as n8n exports it (nodes, connections...).
	Workflow json.RawMessage `json:"workflow"`
	// Name replaces the workflow's name.
	Name string `json:"name,omitempty"`
	// SubWorkflows maps n8n workflow ids to the ids of the edgeflow
	// workflows they were imported as: Execute Workflow nodes that call
	// them become sub_workflow nodes.
	SubWorkflows map[string]string `json:"subWorkflows,omitempty"`
}

// importAwaitStepRequest is the body of POST /api/import/awaitstep. The
// AwaitStep IR may also be sent as the whole body, as AwaitStep exports it.
type importAwaitStepRequest struct {
	IR           json.RawMessage   `json:"ir"`
	Name         string            `json:"name,omitempty"`
	SubWorkflows map[string]string `json:"subWorkflows,omitempty"`
}

// importResult is the answer of an import: the IR, the report, the trigger
// code the workflow needs (when any) and, with ?create=true, the workflow
// and version created.
type importResult struct {
	IR          json.RawMessage          `json:"ir"`
	Report      importer.Report          `json:"report"`
	TriggerCode string                   `json:"triggerCode,omitempty"`
	Workflow    *edgeflow.Workflow       `json:"workflow,omitempty"`
	Version     *edgeflow.VersionSummary `json:"version,omitempty"`
}

// handleImportN8n converts an n8n workflow.
func (s *Server) handleImportN8n(w http.ResponseWriter, r *http.Request) error {
	body, err := readBodyLimit(r, MaxImportBytes)
	if err != nil {
		return err
	}
	defer body.release()
	var req importN8nRequest
	raw, prefix, err := importBody(body.Bytes(), "workflow", &req, func(q *importN8nRequest) json.RawMessage { return q.Workflow })
	if err != nil {
		return err
	}
	if err := subWorkflowProblem(req.SubWorkflows); err != nil {
		return err
	}
	wf, err := n8n.Parse(raw, prefix)
	if err != nil {
		return err
	}
	res, err := n8n.Convert(wf, n8n.Options{Name: req.Name, SubWorkflows: req.SubWorkflows})
	if err != nil {
		return err
	}
	return s.answerImport(w, r, res)
}

// handleImportAwaitStep converts an AwaitStep IR.
func (s *Server) handleImportAwaitStep(w http.ResponseWriter, r *http.Request) error {
	body, err := readBodyLimit(r, MaxImportBytes)
	if err != nil {
		return err
	}
	defer body.release()
	var req importAwaitStepRequest
	raw, prefix, err := importBody(body.Bytes(), "ir", &req, func(q *importAwaitStepRequest) json.RawMessage { return q.IR })
	if err != nil {
		return err
	}
	if err := subWorkflowProblem(req.SubWorkflows); err != nil {
		return err
	}
	a, err := awaitstep.Parse(raw, prefix)
	if err != nil {
		return err
	}
	res, err := awaitstep.Convert(a, awaitstep.Options{Name: req.Name, SubWorkflows: req.SubWorkflows})
	if err != nil {
		return err
	}
	return s.answerImport(w, r, res)
}

// importBody reads an import request: {"<field>": document, ...} decoded
// strictly into req, or the document itself as the body (recognized by its
// "nodes"). It answers the document and the JSON pointer of its place in the
// body.
func importBody[T any](raw []byte, field string, req *T, get func(*T) json.RawMessage) (json.RawMessage, string, error) {
	if !utf8.Valid(raw) {
		return nil, "", decodeBytes(raw, req)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err == nil {
		if _, wrapped := top[field]; !wrapped {
			if _, doc := top["nodes"]; doc {
				if err := strictCheck(raw, nil); err != nil {
					return nil, "", err
				}
				return raw, "", nil
			}
		}
	}
	if err := decodeBytes(raw, req); err != nil {
		return nil, "", err
	}
	doc := get(req)
	switch firstByte(doc) {
	case 0, 'n':
		return nil, "", edgeflow.Invalid("/"+field, field+" is required: the document to import")
	case '{':
	default:
		return nil, "", edgeflow.Invalid("/"+field, field+" must be a JSON object")
	}
	return doc, "/" + field, nil
}

// subWorkflowProblem checks the subWorkflows map: at most 1000 entries of
// non-empty ids.
func subWorkflowProblem(m map[string]string) error {
	if len(m) > 1000 {
		return edgeflow.Invalid("/subWorkflows", "subWorkflows names at most 1000 workflows")
	}
	for k, v := range m {
		if k == "" || strings.TrimSpace(v) == "" || len(k) > 200 || len(v) > 200 {
			return edgeflow.Invalid("/subWorkflows/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), "subWorkflows maps a workflow id to the id of an edgeflow workflow of the project")
		}
	}
	return nil
}

// answerImport answers the result (200), or with ?create=true creates the
// workflow with the IR as its first version and answers both (201).
func (s *Server) answerImport(w http.ResponseWriter, r *http.Request, res *importer.Result) error {
	out := importResult{IR: res.IR, Report: res.Report, TriggerCode: res.TriggerCode}
	switch r.URL.Query().Get("create") {
	case "", "false":
		writeJSON(w, http.StatusOK, out)
		return nil
	case "true":
	default:
		return edgeflow.Invalid("/create", `create must be "true" or "false"`)
	}
	p := PrincipalFrom(r)
	if !p.HasScope(edgeflow.ScopeWrite) {
		return &edgeflow.Error{Code: edgeflow.EForbidden, Message: "creating the imported workflow needs an API key with the write scope"}
	}
	if !p.RoleAtLeast(edgeflow.RoleMember) {
		return &edgeflow.Error{Code: edgeflow.EForbidden, Message: "creating the imported workflow needs the member role"}
	}
	wf, v, err := s.createImported(r.Context(), p, res)
	if err != nil {
		return err
	}
	setAuditTarget(r, wf.ID)
	view := versionSummary(*v)
	out.Workflow, out.Version = wf, &view
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// createImported checks the IR as a version submit would, then creates the
// workflow (with the trigger code the import needs) and submits the IR as
// its first version; the workflow is removed again when the version fails.
func (s *Server) createImported(ctx context.Context, p *Principal, res *importer.Result) (*edgeflow.Workflow, *edgeflow.Version, error) {
	orgID, err := p.Organization()
	if err != nil {
		return nil, nil, err
	}
	projectID, err := p.Project()
	if err != nil {
		return nil, nil, err
	}
	check, err := s.checkIR(ctx, res.IR, orgID, projectID, nil)
	if err != nil {
		return nil, nil, err
	}
	if len(check.errors) > 0 {
		e := check.errors[0]
		msg := "the imported workflow cannot be created: " + e.Path + ": " + e.Message
		if len(res.Report.Marketplace) > 0 {
			msg += fmt.Sprintf(" (the import uses the marketplace nodes %s: install them in the organization first)", strings.Join(res.Report.Marketplace, ", "))
		}
		return nil, nil, &edgeflow.Error{Code: edgeflow.EInvalidIR, Message: msg, Details: check.errors}
	}
	var meta struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(res.IR, &meta); err != nil {
		return nil, nil, err
	}
	kind := edgeflow.KindWorkflow
	if meta.Kind == string(ir.KindScript) {
		kind = edgeflow.KindScript
	}
	name := importName(meta.Metadata.Name)
	wf := &edgeflow.Workflow{OrganizationID: orgID, ProjectID: projectID, Name: name, Description: meta.Metadata.Description,
		Kind: kind, EnvVars: []edgeflow.WorkflowEnvVar{}, Dependencies: map[string]string{}, TriggerCode: res.TriggerCode}
	if prob := edgeflow.DescriptionProblem(wf.Description); prob != "" {
		wf.Description = ""
	}
	if err := s.Store.CreateWorkflow(ctx, wf); err != nil {
		return nil, nil, err
	}
	v, _, err := s.versions.Submit(ctx, wf, res.IR, p.UserID)
	if err != nil {
		if derr := s.Store.DeleteWorkflow(context.WithoutCancel(ctx), projectID, wf.ID); derr != nil {
			s.Logger.Error("import: the workflow of a refused version was not removed", "workflow", wf.ID, "error", derr.Error())
		}
		return nil, nil, err
	}
	wf.CurrentVersionID = v.ID
	return wf, v, nil
}

// importName makes an imported name acceptable as a workflow name: the
// characters names may not hold (controls, separators, bidirectional
// formatting) are left out, and it is cut to MaxNameLength bytes.
func importName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if edgeflow.NameCharProblem(string(r)) != "" {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > edgeflow.MaxNameLength {
			break
		}
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if out == "" {
		return "Imported workflow"
	}
	return out
}
