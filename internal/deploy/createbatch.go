package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Creates on the local edge go to the deployed worker's create path
// (codegen.CreatePath). Those of one deployment that arrive while one is
// being sent wait and go together in the next request, a batch
// (codegen.BatchHeader) of up to codegen.MaxBatch: a burst of triggers then
// costs the edge and the engine one request per batch instead of one per
// run (decision 306). A create that finds nothing in flight goes at once,
// alone, so a quiet trigger waits for nobody. Batches go only to a worker
// whose answer to a single create said it takes them
// (codegen.BatchesHeader): one generated before batches would take a
// batch for a single create.

// createBatcher queues the creates of one deployment.
type createBatcher struct {
	mu      sync.Mutex
	queue   []*pendingCreate
	sending bool
	batches bool // the worker said it takes batches
}

// pendingCreate is one run's create, waiting for its batch.
type pendingCreate struct {
	id     string
	params []byte
	err    error
	done   chan struct{}
}

// createBatchers maps a deployment id to its *createBatcher.
type createBatchers struct{ m sync.Map }

func (c *createBatchers) of(deploymentID string) *createBatcher {
	if b, ok := c.m.Load(deploymentID); ok {
		return b.(*createBatcher)
	}
	b, _ := c.m.LoadOrStore(deploymentID, &createBatcher{})
	return b.(*createBatcher)
}

// createLocal creates instance id of deployment d through its worker's
// create path with the deployment's token, batched with the creates of d
// that wait beside it. It waits for its batch's answer whatever ctx does
// (each request is bounded by the service's timeout), so that an instance
// is never created for a trigger that stopped waiting before recording it.
func (s *Service) createLocal(d *edgeflow.Deployment, token, id string, params []byte) error {
	b := s.batchers.of(d.ID)
	p := &pendingCreate{id: id, params: params, done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, p)
	if !b.sending {
		b.sending = true
		go s.sendCreates(b, d, token)
	}
	b.mu.Unlock()
	<-p.done
	return p.err
}

// sendCreates sends b's queue, a batch at a time, until it is empty.
func (s *Service) sendCreates(b *createBatcher, d *edgeflow.Deployment, token string) {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.sending = false
			b.mu.Unlock()
			return
		}
		n := min(len(b.queue), codegen.MaxBatch)
		batch := b.queue[:n:n]
		b.queue = append([]*pendingCreate(nil), b.queue[n:]...)
		batches := b.batches
		b.mu.Unlock()

		if len(batch) > 1 && batches {
			err := s.createBatch(d, token, batch)
			if err == nil {
				for _, p := range batch {
					close(p.done)
				}
				continue
			}
			// One by one, each with its own answer: an instance the failed
			// batch created meanwhile is found new again (NewInstanceHeader).
			s.log.Info("trigger: a batch of creates failed; creating its instances one by one", "deployment", d.ID, "size", len(batch), "err", err)
		}
		var wg sync.WaitGroup
		for _, p := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var takes bool
				takes, p.err = s.createOne(d, token, p.id, p.params)
				if takes {
					b.mu.Lock()
					b.batches = true
					b.mu.Unlock()
				}
				close(p.done)
			}()
		}
		wg.Wait()
	}
}

// createBatch sends batch in one request and reports whether the worker
// created every instance of it.
func (s *Service) createBatch(d *edgeflow.Deployment, token string, batch []*pendingCreate) error {
	type item struct {
		ID     string          `json:"id"`
		Params json.RawMessage `json:"params"`
	}
	items := make([]item, len(batch))
	for i, p := range batch {
		items[i] = item{p.id, p.params}
	}
	body, err := json.Marshal(items)
	if err != nil {
		return err
	}
	res, err := s.postCreate(d, token, body, map[string]string{codegen.BatchHeader: "1"})
	if err != nil {
		return err
	}
	if res.status != http.StatusOK {
		return fmt.Errorf("the worker answered %d: %s", res.status, workerMessage(res.body))
	}
	var got struct {
		InstanceIDs []string `json:"instanceIds"`
	}
	if json.Unmarshal(res.body, &got) != nil || len(got.InstanceIDs) != len(batch) {
		return fmt.Errorf("the worker's answer names %d instances for a batch of %d", len(got.InstanceIDs), len(batch))
	}
	for i, p := range batch {
		if got.InstanceIDs[i] != p.id {
			return fmt.Errorf("the worker created %q for %q", got.InstanceIDs[i], p.id)
		}
	}
	return nil
}

// createOne creates one instance with the id edgeflow made new, and
// reports whether the worker said it takes batches.
func (s *Service) createOne(d *edgeflow.Deployment, token, id string, params []byte) (takesBatches bool, err error) {
	const what = "create the workflow instance"
	res, err := s.postCreate(d, token, params, map[string]string{
		codegen.InstanceIDHeader:  id,
		codegen.NewInstanceHeader: "1", // a new run id: the worker need not look it up first
	})
	if e := (*edgeflow.Error)(nil); errors.As(err, &e) {
		return false, err
	}
	if err != nil {
		return false, &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: what + ": the deployed worker could not be reached", Err: err}
	}
	if res.status == http.StatusConflict && workerMessage(res.body) == "instance '"+id+"' already exists" {
		// The id is a new run id: only this request, sent once more by the
		// edge's proxy after workerd closed its connection (decision 201),
		// or a batch that failed after creating it, can have taken it.
		s.log.Info("trigger: the instance existed after a repeated create", "instance", id)
		return false, nil
	}
	if res.status >= 300 {
		return false, &edgeflow.Error{Code: edgeflow.EProviderError,
			Message: fmt.Sprintf("%s: the worker answered %d: %s", what, res.status, workerMessage(res.body))}
	}
	var got struct {
		InstanceID string `json:"instanceId"`
	}
	if json.Unmarshal(res.body, &got) != nil || got.InstanceID != id {
		// A worker generated before the create path existed, whose trigger code took the request.
		return false, &edgeflow.Error{Code: edgeflow.EProviderError,
			Message: what + ": the worker did not create the instance edgeflow asked for; deploy the workflow again"}
	}
	return res.batches, nil
}

type createAnswer struct {
	status  int
	body    []byte
	batches bool // the worker takes batches (codegen.BatchesHeader)
}

// postCreate posts body to d's create path with the token and headers.
func (s *Service) postCreate(d *edgeflow.Deployment, token string, body []byte, headers map[string]string) (createAnswer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(d.URL, "/")+codegen.CreatePath, bytes.NewReader(body))
	if err != nil {
		return createAnswer{}, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the deployment URL is invalid", Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := s.http.Do(req)
	if err != nil {
		return createAnswer{}, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	return createAnswer{res.StatusCode, b, res.Header.Get(codegen.BatchesHeader) == "1"}, nil
}
