package api

import (
	"encoding/json"
	"net/http"
	"time"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

type versionTestRequest struct {
	Params json.RawMessage            `json:"params"`
	Mocks  map[string]json.RawMessage `json:"mocks"`
	// TimeoutSeconds bounds the run (default 120, at most 600).
	TimeoutSeconds *int `json:"timeoutSeconds"`
}

// handleVersionTest runs a version once on the local edge under a
// temporary name and answers how it went (200 also when the run errored);
// nothing of it is kept (internal/deploy testrun.go).
func (s *Server) handleVersionTest(w http.ResponseWriter, r *http.Request) error {
	var req versionTestRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	if req.TimeoutSeconds != nil {
		p.check(*req.TimeoutSeconds >= 1 && time.Duration(*req.TimeoutSeconds)*time.Second <= deploysvc.MaxTestTimeout,
			"/timeoutSeconds", "timeoutSeconds must be from 1 to 600")
	}
	if err := p.err(); err != nil {
		return err
	}
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	tr := deploysvc.TestRequest{VersionID: r.PathValue("versionId"), Params: req.Params, Mocks: req.Mocks}
	if req.TimeoutSeconds != nil {
		tr.Timeout = time.Duration(*req.TimeoutSeconds) * time.Second
	}
	res, err := dep.Test(r.Context(), tw, tr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

type draftTestRequest struct {
	// IR is the workflow's IR as the editor holds it, saved or not.
	IR     json.RawMessage            `json:"ir"`
	Params json.RawMessage            `json:"params"`
	Mocks  map[string]json.RawMessage `json:"mocks"`
	// UsePinned: the workflow's pinned outputs answer for their nodes
	// (default true); mocks win over them.
	UsePinned *bool `json:"usePinned"`
	// TimeoutSeconds bounds the run (default 120, at most 600).
	TimeoutSeconds *int `json:"timeoutSeconds"`
}

// maxDraftTestBody is the largest body of a draft test: an IR as large as a
// version submission may be, plus params and mocks (which the run caps at
// deploysvc.MaxRestartParamsBytes together).
const maxDraftTestBody = MaxIRBodyBytes + MaxBodyBytes

// handleDraftTest runs an IR that need not be saved once on the local edge,
// as handleVersionTest runs a version: the IR is checked as a version
// submission is (400 invalid_ir, 422 validation_failed) but not stored, and
// the workflow's pinned outputs answer for their nodes unless usePinned is
// false (docs/decisions.md 685, 687).
func (s *Server) handleDraftTest(w http.ResponseWriter, r *http.Request) error {
	body, err := readBodyLimit(r, maxDraftTestBody)
	if err != nil {
		return err
	}
	defer body.release()
	var req draftTestRequest
	if err := decodeBytes(body.Bytes(), &req); err != nil {
		return err
	}
	var p problems
	switch firstByte(req.IR) {
	case 0, 'n':
		p.add("/ir", "ir is required: the IR to run")
	case '{':
	default:
		p.add("/ir", "ir must be a JSON object")
	}
	if req.TimeoutSeconds != nil {
		p.check(*req.TimeoutSeconds >= 1 && time.Duration(*req.TimeoutSeconds)*time.Second <= deploysvc.MaxTestTimeout,
			"/timeoutSeconds", "timeoutSeconds must be from 1 to 600")
	}
	// The tenancy read comes first: another tenant's workflow is not_found
	// whatever the body says.
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	wf := tw.Workflow()
	if wf.Kind == edgeflow.KindScript {
		return edgeflow.Errorf(edgeflow.EBadRequest, "a function is not tested with a run: deploy it and call it with POST /api/workflows/%s/invoke", wf.ID)
	}
	draft, err := s.versions.Draft(r.Context(), &wf, req.IR)
	if err != nil {
		return err
	}
	tr := deploysvc.TestRequest{Draft: draft, Params: req.Params, Mocks: req.Mocks}
	if req.UsePinned == nil || *req.UsePinned {
		pins, err := s.Store.FindPinnedOutputs(r.Context(), wf.ID)
		if err != nil {
			return err
		}
		tr.Pinned = pins.Outputs
	}
	if req.TimeoutSeconds != nil {
		tr.Timeout = time.Duration(*req.TimeoutSeconds) * time.Second
	}
	res, err := dep.Test(r.Context(), tw, tr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
