package deploy

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Who may call a deployed workflow's worker (docs/deploy.md): every deploy
// of a workflow generates a new worker token, bound to the worker as the
// secret codegen.WorkerTokenBinding and kept sealed with the deployment;
// edgeflow sends it as "Authorization: Bearer <token>" when it talks to the
// worker (event delivery). With deployConfig.publicTrigger the deployment
// also has a signing secret (codegen.TriggerSecretBinding) with which
// outside callers sign the requests that create an instance.

// Kinds of deployment secrets (the associated data of their seal).
const (
	secretKindWorkerToken   = "worker-token"
	secretKindTriggerSecret = "trigger-secret"
)

// signedInstancePrefix starts the instance ids of the public trigger
// (codegen's verifyTriggerSignature); discovery records those instances as
// runs.
const signedInstancePrefix = "sig_"

// secretBytes is the entropy of a worker token and a trigger secret.
const secretBytes = 32

// newSecret returns prefix and 32 random bytes in unpadded base64url.
func newSecret(prefix string) string {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		panic("deploy: crypto/rand failed: " + err.Error())
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// workerSecrets are the plain secrets of one workflow deployment.
type workerSecrets struct {
	token   string
	trigger string // "" when the public trigger is off
}

// bindings are the secret_text bindings that carry the secrets.
func (ws workerSecrets) bindings() []Binding {
	out := []Binding{{Type: BindingSecret, Name: codegen.WorkerTokenBinding, Text: ws.token}}
	if ws.trigger != "" {
		out = append(out, Binding{Type: BindingSecret, Name: codegen.TriggerSecretBinding, Text: ws.trigger})
	}
	return out
}

// bindingsFor are the bindings of the secrets on w's worker. The worker of
// a workflow with flow control is not given the trigger secret (it stays
// sealed with the deployment): signed requests then go through edgeflow's
// signed trigger (TriggerSigned), which applies the limits, while the
// worker refuses them (decision 721).
func (ws workerSecrets) bindingsFor(w *edgeflow.Workflow) []Binding {
	if _, limited := flowOf(w); limited {
		ws.trigger = ""
	}
	return ws.bindings()
}

// publicTrigger reports whether the workflow opted into the signed public
// trigger.
func publicTrigger(w *edgeflow.Workflow) bool {
	return w.Kind != edgeflow.KindScript && w.DeployConfig != nil && w.DeployConfig.PublicTrigger
}

// newWorkerSecrets picks the secrets of a new deploy of w: always a new
// token (every redeploy rotates it); the trigger secret of prev, the active
// deployment on the same connection, when the public trigger stays on (its
// callers keep working), a new one when it is turned on, none when off.
func (s *Service) newWorkerSecrets(w *edgeflow.Workflow, prev *edgeflow.Deployment) (workerSecrets, error) {
	ws := workerSecrets{token: newSecret("efw_")}
	if !publicTrigger(w) {
		return ws, nil
	}
	if prev != nil && prev.SealedTriggerSecret != "" {
		old, err := s.secrets.OpenDeploymentSecret(prev.ID, secretKindTriggerSecret, prev.SealedTriggerSecret)
		if err != nil {
			return ws, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the public trigger's secret cannot be opened", Err: err}
		}
		ws.trigger = old
		return ws, nil
	}
	ws.trigger = newSecret("efs_")
	return ws, nil
}

// deploySecrets are the secrets of a new deploy of w on the connection;
// rotate replaces the public trigger's secret instead of keeping it.
func (s *Service) deploySecrets(ctx context.Context, w *edgeflow.Workflow, connectionID string, rotate bool) (workerSecrets, error) {
	prev, err := s.store.FindActiveDeployment(ctx, w.ID, connectionID)
	if err != nil {
		if !edgeflow.IsNotFound(err) {
			return workerSecrets{}, err
		}
		prev = nil
	}
	if rotate {
		prev = nil
	}
	return s.newWorkerSecrets(w, prev)
}

// restoreSecrets are the secrets to upload the previous deployment prev
// again with (Deploy's restore): its own, or, for a deployment recorded
// before workers had tokens, a new token stored with it first.
func (s *Service) restoreSecrets(ctx context.Context, prev *edgeflow.Deployment) (workerSecrets, error) {
	ws, ok, err := s.openWorkerSecrets(prev)
	if err != nil || ok {
		return ws, err
	}
	ws = workerSecrets{token: newSecret("efw_")}
	cp := *prev
	s.seal(&cp, ws)
	return ws, s.store.SetDeploymentSecrets(ctx, prev.ID, cp.SealedWorkerToken, cp.SealedTriggerSecret)
}

// seal stores the sealed secrets in d (whose ID must be final).
func (s *Service) seal(d *edgeflow.Deployment, ws workerSecrets) {
	d.SealedWorkerToken = s.secrets.SealDeploymentSecret(d.ID, secretKindWorkerToken, ws.token)
	d.SealedTriggerSecret = ""
	if ws.trigger != "" {
		d.SealedTriggerSecret = s.secrets.SealDeploymentSecret(d.ID, secretKindTriggerSecret, ws.trigger)
	}
}

// openWorkerSecrets opens the secrets of a recorded deployment. A
// deployment recorded before workers had tokens has none: ok is false.
func (s *Service) openWorkerSecrets(d *edgeflow.Deployment) (ws workerSecrets, ok bool, err error) {
	if d.SealedWorkerToken == "" {
		return ws, false, nil
	}
	if ws.token, err = s.secrets.OpenDeploymentSecret(d.ID, secretKindWorkerToken, d.SealedWorkerToken); err != nil {
		return ws, false, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the deployment's worker token cannot be opened", Err: err}
	}
	if d.SealedTriggerSecret != "" {
		if ws.trigger, err = s.secrets.OpenDeploymentSecret(d.ID, secretKindTriggerSecret, d.SealedTriggerSecret); err != nil {
			return ws, false, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the public trigger's secret cannot be opened", Err: err}
		}
	}
	return ws, true, nil
}

// authorizeWorkerRequest adds the deployment's token to a request for its
// worker. A deployment without a token (recorded before tokens existed)
// runs code that checks none, and the request goes without.
func (s *Service) authorizeWorkerRequest(req *http.Request, d *edgeflow.Deployment) error {
	ws, ok, err := s.openWorkerSecrets(d)
	if err != nil || !ok {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+ws.token)
	return nil
}

// TriggerSecret is what a caller of a workflow's public trigger needs: the
// worker URL, the signing secret and how to sign (docs/deploy.md, "Public
// trigger").
type TriggerSecret struct {
	URL             string `json:"url"`
	Secret          string `json:"secret"`
	TimestampHeader string `json:"timestampHeader"`
	SignatureHeader string `json:"signatureHeader"`
	// Signature describes the signature's value.
	Signature string `json:"signature"`
	// WindowSeconds is how far the timestamp may be from the worker's clock.
	WindowSeconds int `json:"windowSeconds"`
	// ViaEdgeflow: the workflow has flow control, so URL is edgeflow's
	// signed trigger (TriggerSigned), which applies it, not the worker's
	// (the API fills URL then).
	ViaEdgeflow bool `json:"viaEdgeflow"`
}

// FindTriggerSecret returns the public trigger's signing secret of the
// workflow's active deployment on the connection. Errors: unknown workflow
// or connection → not_found; a function → bad_request; not deployed there,
// or deployed without deployConfig.publicTrigger → conflict.
func (s *Service) FindTriggerSecret(ctx context.Context, tw *TenantWorkflow, connectionID string) (*TriggerSecret, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	w := &wf
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest, "a function has no trigger secret: its url is public (POST to it)")
	}
	c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, connectionID)
	if err != nil {
		return nil, err
	}
	d, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed on this connection")
		}
		return nil, err
	}
	if d.SealedTriggerSecret == "" {
		return nil, edgeflow.Errorf(edgeflow.EConflict,
			"the deployment has no public trigger: set deployConfig.publicTrigger to true and deploy again")
	}
	ws, _, err := s.openWorkerSecrets(d)
	if err != nil {
		return nil, err
	}
	_, limited := flowOf(w)
	return &TriggerSecret{
		ViaEdgeflow:     limited,
		URL:             d.URL,
		Secret:          ws.trigger,
		TimestampHeader: codegen.SignatureTimestampHeader,
		SignatureHeader: codegen.SignatureHeader,
		Signature:       `"v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body))`,
		WindowSeconds:   codegen.SignatureWindowSeconds,
	}, nil
}
