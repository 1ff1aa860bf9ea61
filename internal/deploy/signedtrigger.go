package deploy

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// A public trigger through edgeflow (docs/deploy.md, "Public trigger";
// decision 721): a request signed with the deployment's trigger secret, as
// the worker checks it, that goes through the trigger path and so through
// the workflow's flow control. The worker of a workflow deployed with flow
// control is not given the secret, so that signed requests cannot start
// instances past the limits there.

// SignedTriggerRequest is a signed request for a new run.
type SignedTriggerRequest struct {
	// WorkflowID and ConnectionID name the workflow and the connection of
	// its active deployment.
	WorkflowID, ConnectionID string
	// Timestamp and Signature are the values of the signature headers
	// (codegen.SignatureTimestampHeader, codegen.SignatureHeader).
	Timestamp, Signature string
	// Body is the exact request body: the run's params.
	Body []byte
	// Queue holds the run when the flow control refuses it now.
	Queue bool
}

// signatureValue is "v1=" and the hex HMAC-SHA256 of a signed request.
var signatureValue = regexp.MustCompile(`^v1=([0-9a-fA-F]{64})$`)

// signedUnauthorized is the one answer to a signed request that does not
// verify, whatever the reason (unknown workflow or connection, no public
// trigger, a bad or stale signature), so that it tells a caller without
// the secret nothing about what exists.
func signedUnauthorized(why string) error {
	return edgeflow.Errorf(edgeflow.EUnauthorized, "the request is not signed with the workflow's trigger secret: %s", why)
}

// TriggerSigned starts a run of the workflow from a request signed with its
// deployment's trigger secret: verified as the worker verifies one (the
// timestamp within codegen.SignatureWindowSeconds of now, the HMAC of
// "<timestamp>.<body>"), with the instance id "sig_" and the first 40 hex
// digits of the signature, so that the same request again is 409. Then it
// is a trigger: the workflow's flow control admits, holds (queue) or
// refuses it with 429 and Retry-After.
func (s *Service) TriggerSigned(ctx context.Context, req SignedTriggerRequest) (*TriggerResult, error) {
	ts := strings.TrimSpace(req.Timestamp)
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(ts) > 12 {
		return nil, signedUnauthorized("X-Edgeflow-Timestamp must be the current time in Unix seconds")
	}
	if d := s.now().Unix() - unix; d > codegen.SignatureWindowSeconds || d < -codegen.SignatureWindowSeconds {
		return nil, signedUnauthorized("X-Edgeflow-Timestamp must be within 5 minutes of the server's clock")
	}
	m := signatureValue.FindStringSubmatch(strings.TrimSpace(req.Signature))
	if m == nil {
		return nil, signedUnauthorized("X-Edgeflow-Signature must be v1= and 64 hex digits")
	}
	got, _ := hex.DecodeString(m[1])
	d, err := s.store.FindActiveDeployment(ctx, req.WorkflowID, req.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, signedUnauthorized("the signature does not match the request")
		}
		return nil, err
	}
	ws, ok, err := s.openWorkerSecrets(d)
	if err != nil {
		return nil, err
	}
	if !ok || ws.trigger == "" {
		return nil, signedUnauthorized("the signature does not match the request")
	}
	mac := hmac.New(sha256.New, []byte(ws.trigger))
	mac.Write([]byte(ts + "."))
	mac.Write(req.Body)
	if !hmac.Equal(mac.Sum(nil), got) {
		return nil, signedUnauthorized("the signature does not match the request")
	}
	wf, err := s.store.FindWorkflowByID(ctx, d.ProjectID, d.WorkflowID)
	if err != nil {
		return nil, err
	}
	if !publicTrigger(wf) {
		return nil, signedUnauthorized("the workflow has no public trigger")
	}
	tw, err := s.ReadWorkflow(ctx, Tenant{OrganizationID: wf.OrganizationID, ProjectID: wf.ProjectID}, wf.ID)
	if err != nil {
		return nil, err
	}
	params, err := runParams(req.Body, "/params")
	if err != nil {
		return nil, err
	}
	if _, ok := eventOf(params); ok {
		return nil, signedUnauthorized("sending an event needs the deployment token")
	}
	if hasTraceKey(params) {
		return nil, edgeflow.Invalid("/params/"+codegen.TraceKey, "this key is reserved for the run's trace context")
	}
	instanceID := "sig_" + strings.ToLower(m[1][:40])
	if _, err := s.store.FindRunByInstanceID(ctx, wf.ID, instanceID); err == nil {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "this signed request was already accepted")
	} else if !edgeflow.IsNotFound(err) {
		return nil, err
	}
	return s.trigger(ctx, tw, req.ConnectionID, params, instanceID, req.Queue)
}
