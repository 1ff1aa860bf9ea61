package api

// eventRouteDocs document the events sent by type to a project's waiting
// runs (sentevents.go; docs/runs.md, "Events").
var eventRouteDocs = map[string]RouteDoc{
	"POST /api/events": {
		Summary: "Sends an event by type to every run of the project waiting for it, or to one workflow's runs.",
		Answer: "The SentEvent (201): `{id, projectId, type, workflowId?, payload, runs: [{runId, workflowId, state, error?}], " +
			"truncated?, replayOf?, createdAt}`. The event goes to every run of the project (of `workflowId` when given) " +
			"that is paused on a `wait_for_event` node whose `eventType` is `type` (a literal type: a node whose type is an " +
			"expression is not matched), through the worker serving the run's version, as POST …/trigger with `instanceId` " +
			"delivers one. `state` is `delivered` or `failed` (with why: the run's version is no longer deployed, the " +
			"worker refused it). At most 100 runs, looked for among the project's 1,000 newest paused runs: `truncated` " +
			"says more may be waiting. Runs of other projects, and of other organizations, are never looked at. The " +
			"event is stored; the project keeps its newest 1,000.",
		Errors: []ErrorCase{
			{413, "payload_too_large", "`payload` over 100 KB"},
			{422, "validation_failed", "`type` not 1 to 100 letters, digits, `_` or `-`, or the reserved `edgeflow-admission` (any case); `payload` not a JSON object; " +
				"`workflowId` not a workflow of the project"},
		},
		BadBody: `{"type": "needs approval", "payload": [1]}`,
		Example: exEventSend,
	},
	"GET /api/events": {
		Summary: "Lists the events sent by type in the project, newest first, with the runs each went to.",
		Answer:  "`{data: [SentEvent], nextCursor}`.",
		Example: exEventList,
	},
	"GET /api/events/{eventId}": {
		Summary: "One event sent by type, with the runs it went to.",
		Answer:  "The SentEvent.",
		Example: exEventGet,
	},
	"POST /api/events/{eventId}/replay": {
		Summary: "Sends a stored event again, with its type, workflow and payload, to the runs waiting for it now.",
		Answer:  "The new SentEvent (201), `replayOf` the replayed event's id.",
		Errors: []ErrorCase{
			{409, "conflict", "the event was limited to a workflow that has since been deleted"},
		},
		Example: exEventReplay,
	},
}

const exEvent = "evt_2k7m4p9q1w3e5r8t0y6u"

var (
	exEventSend = Example{Path: "/api/events", Body: `{"type": "approval", "payload": {"approved": true, "by": "ann"}}`,
		Answer: `{"id": "` + exEvent + `", "projectId": "` + exProject + `", "type": "approval", "payload": {"approved": true, "by": "ann"}, "runs": [], "createdAt": "2026-11-27T06:45:02.123456Z"}`}
	exEventList = Example{Path: "/api/events",
		Answer: `{"data": [{"id": "` + exEvent + `", "projectId": "` + exProject + `", "type": "approval", "payload": {"approved": true}, "runs": [{"runId": "` + exRun + `", "workflowId": "` + exWorkflow + `", "state": "delivered"}], "createdAt": "2026-11-27T06:45:02.123456Z"}], "nextCursor": null}`, Partial: true}
	exEventGet = Example{Path: "/api/events/" + exEvent,
		Answer: `{"id": "` + exEvent + `", "projectId": "` + exProject + `", "type": "approval", "payload": {"approved": true}, "runs": [{"runId": "` + exRun + `", "workflowId": "` + exWorkflow + `", "state": "delivered"}], "createdAt": "2026-11-27T06:45:02.123456Z"}`}
	exEventReplay = Example{Path: "/api/events/" + exEvent + "/replay",
		Answer: `{"id": "evt_5h1j8k3l6z9x2c4v7b0n", "projectId": "` + exProject + `", "type": "approval", "payload": {"approved": true}, "runs": [], "replayOf": "` + exEvent + `", "createdAt": "2026-11-27T06:46:10.5Z"}`}
)
