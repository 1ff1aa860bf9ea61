package edgeflow

// DeployPlan is the answer of GET /api/workflows/:id/deploy-plan and the
// "plan" frame of deploy-stream.
type DeployPlan struct {
	WorkflowID   string `json:"workflowId"`
	ConnectionID string `json:"connectionId"`
	// VersionID and Number are the version the deploy would make active;
	// ActiveVersionID is the version active now ("" when none).
	VersionID       string       `json:"versionId"`
	Number          int          `json:"number"`
	ActiveVersionID string       `json:"activeVersionId"`
	InFlight        PlanInFlight `json:"inFlight"`
	// Changes go from the active version to the deployed one.
	Changes []PlanChange `json:"changes"`
	// Compatible is false when a run in flight of the active version
	// would, moved onto the new code (inFlight "migrate"), replay a step
	// it has passed whose identity or order changed; Reasons say which.
	Compatible bool     `json:"compatible"`
	Reasons    []string `json:"reasons"`
}

// PlanInFlight counts the runs not final on the connection.
type PlanInFlight struct {
	Total     int                `json:"total"`
	ByVersion []PlanVersionCount `json:"byVersion"`
}

// PlanVersionCount is the runs in flight of one version.
type PlanVersionCount struct {
	VersionID string `json:"versionId"`
	Number    int    `json:"number"`
	Count     int    `json:"count"`
}

// PlanChange is one change of a durable step between two versions. Step is
// the step's name in the generated code (the new name for renamed and
// added steps, the old one for removed steps).
type PlanChange struct {
	Kind   string `json:"kind"`
	NodeID string `json:"nodeId"`
	Step   string `json:"step"`
	Detail string `json:"detail"`
}
