package api

import (
	"time"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// fillServerMetadata gives an IR the metadata the server assigns when the
// submission omitted it (createdAt and updatedAt: the submission time) and
// reports whether the stored IR must be written from a rather than spliced
// from the document sent: the reader filled in defaults (docs/ir.md,
// "Defaults"), or this did.
func fillServerMetadata(a *ir.ArtifactIR, now time.Time) bool {
	filled := a.FilledDefaults()
	stamp := now.UTC().Format(time.RFC3339)
	if a.Metadata.CreatedAt == "" {
		a.Metadata.CreatedAt = stamp
		filled = true
	}
	if a.Metadata.UpdatedAt == "" {
		a.Metadata.UpdatedAt = stamp
		filled = true
	}
	return filled
}
