package edgeflow

import (
	"encoding/json"
	"time"
)

// Bounds of a workflow's pinned outputs (PUT /api/workflows/:id/pinned-outputs).
const (
	// MaxPinnedOutputs is the most nodes of one workflow that may have a
	// pinned output.
	MaxPinnedOutputs = 200
	// MaxPinnedOutputsBytes bounds the pinned outputs of one workflow,
	// serialized: a test run carries them in its params, which take at most
	// a megabyte with the rest.
	MaxPinnedOutputsBytes = 512 << 10
)

// PinnedOutputs are the outputs pinned to nodes of a workflow: a test run
// (POST /api/workflows/:id/test) answers a pinned node's step with its
// pinned output instead of running it. They are kept per workflow beside its
// versions, never in a version's IR, so no deployment ever sees them
// (docs/decisions.md 687).
type PinnedOutputs struct {
	// Outputs are the pinned outputs by node id.
	Outputs map[string]json.RawMessage `json:"outputs"`
	// UpdatedAt is when they were last set; null when never.
	UpdatedAt *time.Time `json:"updatedAt"`
	// UpdatedBy is the user who set them last ("" when never, or by a
	// user since deleted).
	UpdatedBy string `json:"updatedBy"`
}
