package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

type pinnedOutputsRequest struct {
	// Outputs are the pinned outputs by node id; they replace the
	// workflow's (an empty object unpins every node).
	Outputs map[string]json.RawMessage `json:"outputs"`
}

// handlePinnedOutputsGet answers the workflow's pinned outputs (none when
// never set).
func (s *Server) handlePinnedOutputsGet(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	pins, err := s.Store.FindPinnedOutputs(r.Context(), wf.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, pins)
	return nil
}

// handlePinnedOutputsPut replaces the workflow's pinned outputs: 422 for a
// node id that is not one, more than edgeflow.MaxPinnedOutputs nodes, or
// over edgeflow.MaxPinnedOutputsBytes serialized. They are not checked
// against a version: a pin of a node the tested IR lacks is left out of the
// test (deploysvc.TestRequest.Pinned).
func (s *Server) handlePinnedOutputsPut(w http.ResponseWriter, r *http.Request) error {
	var req pinnedOutputsRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	if err := checkPinnedOutputs(req.Outputs); err != nil {
		return err
	}
	pins, err := s.Store.PutPinnedOutputs(r.Context(), wf.ID, req.Outputs, PrincipalFrom(r).UserID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, pins)
	return nil
}

// checkPinnedOutputs applies the bounds of pinned outputs.
func checkPinnedOutputs(outputs map[string]json.RawMessage) error {
	var p problems
	if outputs == nil {
		p.add("/outputs", "outputs is required: an object of node id -> output ({} unpins every node)")
		return p.err()
	}
	if len(outputs) > edgeflow.MaxPinnedOutputs {
		p.add("/outputs", fmt.Sprintf("at most %d nodes may have a pinned output (got %d)", edgeflow.MaxPinnedOutputs, len(outputs)))
		return p.err()
	}
	size := 2
	for id, out := range outputs {
		path := "/outputs/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(id)
		if !ir.ValidNodeID(id) {
			p.add(path, "not a node id: letters, digits, _ and - (not first), at most 100")
		}
		size += len(id) + len(out) + 4
	}
	if size > edgeflow.MaxPinnedOutputsBytes {
		p.add("/outputs", fmt.Sprintf("the pinned outputs are %d bytes serialized, over the %d a workflow may keep", size, edgeflow.MaxPinnedOutputsBytes))
	}
	return p.err()
}
