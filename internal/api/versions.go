package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// Versions: a submitted IR is validated against the organization's node
// catalog (builtins plus installed marketplace nodes), compiled to
// TypeScript and stored with its generated code. It is not bundled here:
// bundling needs the deploy-time environment (dependencies, bindings) and
// happens at deploy (docs/decisions.md).

func versionSummary(v edgeflow.Version) edgeflow.VersionSummary {
	types := v.NodeTypes
	if types == nil {
		types = []string{}
	}
	return edgeflow.VersionSummary{ID: v.ID, WorkflowID: v.WorkflowID, Version: v.Number, Locked: v.Locked, NodeTypes: types,
		CreatedBy: v.CreatedBy, CreatedAt: v.CreatedAt}
}

func versionFull(v edgeflow.Version) edgeflow.VersionDetail {
	return edgeflow.VersionDetail{VersionSummary: versionSummary(v), IR: v.IR, Code: v.Code}
}

// handleVersionList lists summaries of a workflow's versions, highest number
// first.
func (s *Server) handleVersionList(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListVersions(r.Context(), wf.ID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, versionSummary))
	return nil
}

// handleVersionGet returns one version with its IR and generated code.
func (s *Server) handleVersionGet(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	v, err := s.Store.FindVersionByID(r.Context(), wf.ID, r.PathValue("versionId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, versionFull(*v))
	return nil
}

type versionSubmitRequest struct {
	IR json.RawMessage `json:"ir"`
}

// handleVersionSubmit validates, compiles and stores an IR as the
// workflow's next version: 201 with the version summary, or 400 invalid_ir
// with every problem and no version created, or 422 validation_failed when
// a sub_workflow node names a workflow outside the workflow's project.
func (s *Server) handleVersionSubmit(w http.ResponseWriter, r *http.Request) error {
	// The body is read once into a pooled buffer and the IR is validated
	// where it lies; the version service copies what it stores.
	body, err := readBodyLimit(r, MaxIRBodyBytes)
	if err != nil {
		return err
	}
	defer body.release()
	var req versionSubmitRequest
	// The usual body, {"ir": {...}}, is not checked as JSON here: the IR
	// reader checks the IR strictly, and a malformed one is answered below
	// as decode answers it.
	raw, enveloped := objectEnvelope(body.Bytes(), "ir")
	if !enveloped {
		raw, err = decodeSingleField(body.Bytes(), "ir", &req, func(q *versionSubmitRequest) json.RawMessage { return q.IR })
		if err != nil {
			return err
		}
	}
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	switch first := firstByte(raw); first {
	case 0, 'n':
		return edgeflow.Invalid("/ir", "ir is required: the IR object of the version")
	case '{':
	default:
		return edgeflow.Invalid("/ir", "ir must be a JSON object")
	}
	v, warnings, err := s.versions.Submit(r.Context(), wf, raw, PrincipalFrom(r).UserID)
	if err != nil {
		if enveloped && notJSON(err) {
			if derr := decodeBytes(body.Bytes(), &req); derr != nil {
				return derr // malformed JSON: 400 bad_request, as for any body
			}
		}
		return err
	}
	sum := versionSummary(*v)
	sum.Warnings = warnings
	writeJSON(w, http.StatusCreated, sum)
	return nil
}

// notJSON reports whether err is the invalid_ir error of an IR that could
// not be read as JSON.
func notJSON(err error) bool {
	var e *edgeflow.Error
	if !errors.As(err, &e) || e.Code != edgeflow.EInvalidIR {
		return false
	}
	ps, ok := e.Details.([]ir.Problem)
	return ok && len(ps) > 0 && ps[0].Rule == ir.RuleJSON
}

// handleVersionRevert creates a new version holding the IR of the target
// version (validated and compiled again, against the node versions installed
// now); the target is unchanged.
func (s *Server) handleVersionRevert(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	target, err := s.Store.FindVersionByID(r.Context(), wf.ID, r.PathValue("versionId"))
	if err != nil {
		return err
	}
	v, warnings, err := s.versions.Submit(r.Context(), wf, target.IR, PrincipalFrom(r).UserID)
	if err != nil {
		return err
	}
	sum := versionSummary(*v)
	sum.Warnings = warnings
	writeJSON(w, http.StatusCreated, sum)
	return nil
}

type versionUpdateRequest struct {
	Locked *bool `json:"locked"`
}

// handleVersionUpdate locks or unlocks a version.
func (s *Server) handleVersionUpdate(w http.ResponseWriter, r *http.Request) error {
	var req versionUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	id := r.PathValue("versionId")
	if _, err := s.Store.FindVersionByID(r.Context(), wf.ID, id); err != nil {
		return err
	}
	if req.Locked == nil {
		return edgeflow.Invalid("/locked", "locked is required: true or false")
	}
	if err := s.Store.SetVersionLocked(r.Context(), wf.ID, id, *req.Locked); err != nil {
		return err
	}
	v, err := s.Store.FindVersionByID(r.Context(), wf.ID, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, versionSummary(*v))
	return nil
}

// handleVersionDelete deletes a version; the current version (docs/api.md's
// active version: deployed or not), the deployed one, a version of any
// active deployment and a locked version are refused with 409.
func (s *Server) handleVersionDelete(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	v, err := s.Store.FindVersionByID(r.Context(), wf.ID, r.PathValue("versionId"))
	if err != nil {
		return err
	}
	switch {
	case v.Locked:
		return edgeflow.Errorf(edgeflow.EConflict, "version %d is locked; unlock it (PATCH {\"locked\": false}) before deleting it", v.Number)
	case wf.ActiveVersionID == v.ID:
		return edgeflow.Errorf(edgeflow.EConflict, "version %d is the active version (deployed); deploy another version or take the workflow down first", v.Number)
	case wf.CurrentVersionID == v.ID:
		return edgeflow.Errorf(edgeflow.EConflict, "version %d is the workflow's current version (currentVersionId), deployed or not; submit a new version or revert to an older one first, or delete the workflow", v.Number)
	}
	if err := s.Store.DeleteVersion(r.Context(), wf.ID, v.ID); err != nil {
		if edgeflow.IsConflict(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "version %d cannot be deleted: %s", v.Number, conflictReason(err))
		}
		return err
	}
	writeNoContent(w)
	return nil
}

func conflictReason(err error) string {
	var e *edgeflow.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "it is in use"
}

// orgCatalog is the node catalog of a submission: builtin types are
// answered from the builtin catalog, and the first other type loads the
// organization's catalog (and the templates of its installed nodes). A
// builtin type means the same in both (an installed node cannot take a
// builtin's id), so the validator sees what the organization's catalog
// would say. A load error makes every marketplace type unknown and is kept
// in err, which the caller must check after validating.
type orgCatalog struct {
	load func() (*nodes.Catalog, []codegen.NodeTemplate, error)

	once      sync.Once
	org       *nodes.Catalog
	templates []codegen.NodeTemplate
	err       error
}

func (c *orgCatalog) of(nodeType string) ir.NodeCatalog {
	if ir.IsBuiltinType(nodeType) {
		return nodes.BuiltinCatalog()
	}
	c.once.Do(func() { c.org, c.templates, c.err = c.load() })
	if c.err != nil {
		return nodes.BuiltinCatalog()
	}
	return c.org
}

// Lookup implements ir.NodeCatalog.
func (c *orgCatalog) Lookup(nodeType, version string) (*ir.NodeDefinition, bool) {
	return c.of(nodeType).Lookup(nodeType, version)
}

// Versions implements ir.NodeCatalog.
func (c *orgCatalog) Versions(nodeType string) []string { return c.of(nodeType).Versions(nodeType) }

// kindProblems refuses an IR whose kind differs from the artifact's: a
// function's versions are script IRs, a workflow's are not.
func kindProblems(wf *edgeflow.Workflow, a *ir.ArtifactIR) []ir.Problem {
	script := a.IsScript()
	switch {
	case wf.Kind == edgeflow.KindScript && !script:
		return []ir.Problem{{Path: "/kind", Rule: "kind",
			Message: `this artifact is a function: its IR needs "kind": "script" (and an http trigger)`}}
	case wf.Kind != edgeflow.KindScript && script:
		return []ir.Problem{{Path: "/kind", Rule: "kind",
			Message: `this artifact is a workflow: its IR must not have "kind": "script" (create a function for that)`}}
	}
	return nil
}

// invalidIR is the 400 invalid_ir error carrying every problem.
func invalidIR(problems []ir.Problem) error {
	msg := "the IR is invalid: " + problems[0].Message
	if problems[0].Path != "" {
		msg = "the IR is invalid: " + problems[0].Path + ": " + problems[0].Message
	}
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more problems)", len(problems)-1)
	}
	return &edgeflow.Error{Code: edgeflow.EInvalidIR, Message: msg, Details: problems}
}

// compileError reports what the compiler refused as an IR problem.
func compileError(a *ir.ArtifactIR, err error) error {
	var ce *codegen.Error
	if !errors.As(err, &ce) {
		return fmt.Errorf("generate code: %w", err)
	}
	p := ir.Problem{Path: ce.Path, Message: ce.Message, NodeID: ce.NodeID, Rule: "compile"}
	if ptr := ce.NodePointer(); ptr != "" {
		p.Path = ptr
	} else if ce.NodeID != "" && !strings.HasPrefix(ce.Path, "/") {
		for i, n := range a.Nodes {
			if n.ID == ce.NodeID {
				p.Path = fmt.Sprintf("/nodes/%d", i)
				if ce.Path != "" {
					p.Path += "/" + strings.ReplaceAll(ce.Path, ".", "/")
				}
				break
			}
		}
	}
	return invalidIR([]ir.Problem{p})
}

func codegenEnvVars(vars []edgeflow.WorkflowEnvVar) []codegen.EnvVar {
	out := make([]codegen.EnvVar, len(vars))
	for i, v := range vars {
		out[i] = codegen.EnvVar{Name: v.Name, Secret: v.IsSecret}
	}
	return out
}

// joinFiles returns the generated main module followed by the other files
// (marketplace templates), each under a comment naming it.
func joinFiles(out *codegen.Output) string {
	main := out.Files[out.MainModule]
	if len(out.Files) == 1 {
		return main
	}
	names := make([]string, 0, len(out.Files)-1)
	for name := range out.Files {
		if name != out.MainModule {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(main)
	for _, name := range names {
		b.WriteString("\n// ---- " + name + " ----\n\n")
		b.WriteString(out.Files[name])
	}
	return b.String()
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// withVersion returns raw with metadata.version set to n, everything else
// byte for byte. raw must be an IR the validator accepted (a JSON object
// with a metadata object holding version, and no repeated key: the
// validator refuses those, so the first "metadata" is the only one and the
// rest of the IR is not scanned); ok is false when the field is not found.
func withVersion(raw []byte, n int) (out []byte, ok bool) {
	meta, ok := firstObjectField(raw, skipSpace(raw, 0), "metadata")
	if !ok {
		return nil, false
	}
	start, ok := firstObjectField(raw, meta, "version")
	if !ok {
		return nil, false
	}
	end := skipValue(raw, start)
	if end < 0 {
		return nil, false
	}
	out = make([]byte, 0, len(raw)+8)
	out = append(out, raw[:start]...)
	out = strconv.AppendInt(out, int64(n), 10)
	return append(out, raw[end:]...), true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// firstObjectField returns the offset of the value of the first key in the
// JSON object starting at b[at], without looking at the members after it
// (for objects without repeated keys).
func firstObjectField(b []byte, at int, key string) (int, bool) {
	if at >= len(b) || b[at] != '{' {
		return 0, false
	}
	i := skipSpace(b, at+1)
	for i < len(b) && b[i] == '"' {
		kEnd := skipValue(b, i)
		if kEnd < 0 {
			return 0, false
		}
		k := b[i+1 : kEnd-1]
		if bytes.IndexByte(k, '\\') >= 0 {
			var s string
			if json.Unmarshal(b[i:kEnd], &s) != nil {
				return 0, false
			}
			k = []byte(s)
		}
		colon := skipSpace(b, kEnd)
		if colon >= len(b) || b[colon] != ':' {
			return 0, false
		}
		v := skipSpace(b, colon+1)
		if string(k) == key {
			return v, true
		}
		i = skipSpace(b, skipValue(b, v))
		if i <= 0 || i >= len(b) {
			return 0, false
		}
		if b[i] != ',' {
			return 0, false
		}
		i = skipSpace(b, i+1)
	}
	return 0, false
}

// skipValue returns the offset just after the JSON value at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
			j++
		}
		return j
	}
}

// skipString returns the offset just after the JSON string at b[i] (which
// is '"'), or -1. It looks for the closing quote with bytes.IndexByte and
// skips quotes escaped by an odd number of backslashes.
func skipString(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}
