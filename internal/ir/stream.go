package ir

import (
	"bytes"
	"math"
)

// Streaming reads of the structural parts of an IR: objects whose keys are
// known are read straight into the Go types without building maps. Only
// node data is decoded into generic values.

// peek returns the next non-blank byte, or 0 at the end.
func (p *jsonParser) peek() byte {
	p.space()
	if p.pos >= len(p.data) {
		return 0
	}
	return p.data[p.pos]
}

// estimate is a capacity hint for a list: how often key occurs in the rest
// of the document (it may also occur elsewhere, in node data for one).
func (p *jsonParser) estimate(key string) int {
	return min(bytes.Count(p.data[p.pos:], []byte(key)), len(p.data)/64)
}

// fields iterates over an object's keys; fn must consume the value. It
// reports whether the value was an object (otherwise it is skipped).
func (p *jsonParser) fields(fn func(key string) error) (bool, error) {
	if p.peek() != '{' {
		_, err := p.value()
		return false, err
	}
	if err := p.enter(); err != nil {
		return true, err
	}
	p.pos++
	if p.peek() == '}' {
		p.pos++
		p.depth--
		return true, nil
	}
	for {
		if p.peek() != '"' {
			return true, p.fail("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return true, err
		}
		if p.peek() != ':' {
			return true, p.fail("expected ':' after a key")
		}
		p.pos++
		if err := fn(k); err != nil {
			return true, err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return true, nil
		default:
			return true, p.fail("expected ',' or '}' in an object")
		}
	}
}

// items iterates over an array; fn must consume each value. It reports
// whether the value was an array (otherwise it is skipped).
func (p *jsonParser) items(fn func(i int) error) (bool, error) {
	if p.peek() != '[' {
		_, err := p.value()
		return false, err
	}
	if err := p.enter(); err != nil {
		return true, err
	}
	p.pos++
	if p.peek() == ']' {
		p.pos++
		p.depth--
		return true, nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return true, err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return true, nil
		default:
			return true, p.fail("expected ',' or ']' in an array")
		}
	}
}

// streamReader reads an IR with a jsonParser, checking the shape of
// schema.json as it goes (see shapeReader for the meaning of bad and
// typeErr).
type streamReader struct {
	p *jsonParser
	shapeReader

	// filled records that a defaulted key was omitted (defaults.go);
	// versionOmitted lists the marketplace nodes whose version was, for the
	// validator to fill in from the catalog. nodeIndex is the node being read.
	filled         bool
	versionOmitted []int
	nodeIndex      int
}

// keySet tracks which known keys of an object were seen.
type keySet uint16

func (r *streamReader) known(keys []string, k string, seen *keySet) (int, error) {
	for i, x := range keys {
		if x == k {
			if *seen&(1<<i) != 0 {
				return -1, r.p.fail("duplicate key %q", k)
			}
			*seen |= 1 << i
			return i, nil
		}
	}
	r.fail(false) // unknown key
	return -1, r.blankValue()
}

// blankValue reads a value whose content the JSON Schema does not look at
// and notes it as a blank (schemaText).
func (r *streamReader) blankValue() error {
	r.p.peek()
	start := r.p.pos
	_, err := r.p.value()
	if err == nil && start < r.p.pos {
		r.notes.blanks = append(r.notes.blanks, blank{start: start, end: r.p.pos})
	}
	return err
}

// list reads the nodes or edges array with item, noting the items that had a
// shape problem (schemaText).
func (r *streamReader) list(item func(i int) error) (*listSpan, bool, error) {
	r.p.peek()
	l := &listSpan{start: r.p.pos}
	ok, err := r.p.items(func(i int) error {
		r.p.peek()
		start, fails := r.p.pos, r.notes.fails
		err := item(i)
		if r.notes.fails > fails && len(l.bad) < r.notes.maxBad {
			l.bad = append(l.bad, itemSpan{index: i, start: start, end: r.p.pos})
		}
		return err
	})
	l.end = r.p.pos
	if !ok {
		return nil, false, err
	}
	return l, true, err
}

func (r *streamReader) requireAll(required, seen keySet) {
	if seen&required != required {
		r.fail(true)
	}
}

// keyMask is the set of keys, of the known keys, that subset names.
func keyMask(keys, subset []string) keySet {
	var m keySet
	for i, k := range keys {
		if contains(subset, k) {
			m |= 1 << i
		}
	}
	return m
}

var (
	topRequiredMask      = keyMask(topKeys, topRequired)
	metaRequiredMask     = keyMask(metaKeys, metaRequired)
	posRequiredMask      = keyMask(posKeys, posKeys)
	noteRequiredMask     = keyMask(noteKeys, noteRequired)
	nodeRequiredMask     = keyMask(nodeKeys, nodeRequired)
	retryRequiredMask    = keyMask(retryKeys, retryReq)
	rollbackRequiredMask = keyMask(rollbackKeys, rollbackReq)
	edgeRequiredMask     = keyMask(edgeKeys, edgeRequired)
	triggerRequiredMask  = keyMask(triggerKeys, []string{"type"})
)

func (r *streamReader) object(fn func(key string) error) error {
	ok, err := r.p.fields(fn)
	if !ok {
		r.fail(true)
	}
	return err
}

func (r *streamReader) str() (string, error) {
	if r.p.peek() != '"' {
		r.fail(true)
		_, err := r.p.value()
		return "", err
	}
	return r.p.str()
}

func (r *streamReader) num() (float64, error) {
	v, err := r.p.value()
	f, ok := v.(float64)
	if !ok && err == nil {
		r.fail(true)
	}
	return f, err
}

// integer reads a whole number, clamped to ±limit.
func (r *streamReader) integer(limit float64) (int, error) {
	f, err := r.num()
	if f != math.Trunc(f) {
		r.fail(true)
		return 0, err
	}
	return int(max(-limit, min(limit, f))), err
}

func (r *streamReader) enum(values ...string) (string, error) {
	s, err := r.str()
	if err == nil && !contains(values, s) {
		r.fail(false)
	}
	return s, err
}

func (r *streamReader) duration() (Duration, error) {
	v, err := r.p.value()
	switch x := v.(type) {
	case float64:
		return DurationSeconds(x), err
	case string:
		return DurationText(x), err
	}
	if err == nil {
		r.fail(true)
	}
	return Duration{}, err
}

// readIR reads a whole document.
func (r *streamReader) readIR() (*ArtifactIR, error) {
	a := &ArtifactIR{}
	var seen keySet
	var hasTrigger bool
	isObj, err := r.p.fields(func(k string) error {
		i, err := r.known(topKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "kind":
			s, err := r.enum(string(KindWorkflow), string(KindScript))
			a.Kind = Kind(s)
			return err
		case "metadata":
			return r.metadata(&a.Metadata)
		case "nodes":
			a.Nodes = make([]Node, 0, r.p.estimate(`"data"`)) // every node has one
			l, ok, err := r.list(func(i int) error {
				a.Nodes = append(a.Nodes, Node{})
				r.nodeIndex = len(a.Nodes) - 1
				return r.node(&a.Nodes[r.nodeIndex])
			})
			r.notes.nodes = l
			if !ok {
				r.fail(true)
			} else if a.Nodes == nil {
				a.Nodes = []Node{}
			}
			return err
		case "edges":
			a.Edges = make([]Edge, 0, r.p.estimate(`"source"`)) // every edge has one
			l, ok, err := r.list(func(i int) error {
				a.Edges = append(a.Edges, Edge{})
				return r.edge(&a.Edges[len(a.Edges)-1])
			})
			r.notes.edges = l
			if !ok {
				r.fail(true)
			} else if a.Edges == nil {
				a.Edges = []Edge{}
			}
			return err
		case "entryNodeId":
			a.EntryNodeID, err = r.str()
			return err
		case "outputNodeId":
			a.OutputNodeID, err = r.str()
			return err
		case "notes":
			ok, err := r.p.items(func(i int) error {
				a.Notes = append(a.Notes, Note{})
				return r.note(&a.Notes[len(a.Notes)-1])
			})
			if !ok {
				r.fail(true)
			}
			return err
		case "trigger":
			hasTrigger = true
			a.Trigger = &TriggerConfig{}
			return r.trigger(a.Trigger)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.p.space()
	if r.p.pos < len(r.p.data) {
		return nil, r.p.fail("unexpected data after the JSON value")
	}
	if !isObj {
		r.fail(true)
		return nil, nil
	}
	r.requireAll(topRequiredMask, seen)
	if a.Kind == KindScript && !hasTrigger {
		r.fail(false)
	}
	a.filled = r.filled
	a.versionOmitted = r.versionOmitted
	return a, nil
}

func (r *streamReader) metadata(md *Metadata) error {
	var seen keySet
	err := r.object(func(k string) error {
		i, err := r.known(metaKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "name":
			md.Name, err = r.str()
		case "description":
			md.Description, err = r.str()
		case "version":
			md.Version, err = r.integer(1 << 53)
		case "createdAt":
			md.CreatedAt, err = r.str()
		case "updatedAt":
			md.UpdatedAt, err = r.str()
		}
		return err
	})
	r.requireAll(metaRequiredMask, seen)
	if seen&metaDefaultedMask != metaDefaultedMask {
		r.filled = true // version, createdAt, updatedAt: assigned by the server
	}
	return err
}

func (r *streamReader) node(n *Node) error {
	var seen keySet
	isObj, err := r.p.fields(func(k string) error {
		i, err := r.known(nodeKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "id":
			n.ID, err = r.str()
		case "type":
			n.Type, err = r.str()
		case "name":
			n.Name, err = r.str()
		case "version":
			n.Version, err = r.str()
		case "provider":
			n.Provider, err = r.str()
		case "position":
			err = r.position(&n.Position)
		case "data":
			r.p.peek()
			start := r.p.pos
			var v any
			v, err = r.p.value()
			if m, ok := v.(map[string]any); ok {
				n.Data = m
			} else if err == nil {
				r.fail(true)
			}
			if err == nil {
				// The schema checks only that data is an object.
				r.notes.blanks = append(r.notes.blanks, blank{start: start, end: r.p.pos})
			}
		case "config":
			n.Config = &StepConfig{}
			err = r.config(n.Config)
		}
		return err
	})
	if !isObj {
		r.fail(true)
	}
	if err == nil && isObj {
		r.requireAll(nodeRequiredMask, seen)
		r.nodeDefaults(n, seen)
	}
	return err
}

func (r *streamReader) config(c *StepConfig) error {
	var seen keySet
	return r.object(func(k string) error {
		i, err := r.known(configKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "timeout":
			d, err := r.duration()
			c.Timeout = &d
			return err
		case "rollback":
			c.Rollback = &RollbackConfig{}
			return r.rollback(c.Rollback)
		case "sensitive":
			v, err := r.p.value()
			b, ok := v.(bool)
			if !ok && err == nil {
				r.fail(true)
			}
			c.Sensitive = b
			return err
		}
		c.Retries = &RetryConfig{}
		return r.retries(c.Retries)
	})
}

func (r *streamReader) retries(c *RetryConfig) error {
	var rs keySet
	err := r.object(func(k string) error {
		i, err := r.known(retryKeys, k, &rs)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "limit":
			c.Limit, err = r.integer(1 << 31)
		case "delay":
			c.Delay, err = r.duration()
		case "backoff":
			c.Backoff, err = r.enum(BackoffConstant, BackoffLinear, BackoffExponential)
		case "maxDelay":
			var d Duration
			d, err = r.duration()
			c.MaxDelay = &d
		}
		return err
	})
	r.requireAll(retryRequiredMask, rs)
	return err
}

func (r *streamReader) rollback(c *RollbackConfig) error {
	var seen keySet
	err := r.object(func(k string) error {
		i, err := r.known(rollbackKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "code":
			c.Code, err = r.str()
		case "timeout":
			var d Duration
			d, err = r.duration()
			c.Timeout = &d
		case "retries":
			c.Retries = &RetryConfig{}
			err = r.retries(c.Retries)
		}
		return err
	})
	r.requireAll(rollbackRequiredMask, seen)
	return err
}

// position reads a node's or a note's {x, y}, both required.
func (r *streamReader) position(p *Position) error {
	var ps keySet
	err := r.object(func(k string) error {
		i, err := r.known(posKeys, k, &ps)
		if i < 0 || err != nil {
			return err
		}
		if k == "x" {
			p.X, err = r.num()
		} else {
			p.Y, err = r.num()
		}
		return err
	})
	r.requireAll(posRequiredMask, ps)
	return err
}

// note reads one sticky note.
func (r *streamReader) note(n *Note) error {
	var seen keySet
	isObj, err := r.p.fields(func(k string) error {
		i, err := r.known(noteKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "id":
			n.ID, err = r.str()
		case "text":
			n.Text, err = r.str()
		case "width":
			n.Width, err = r.num()
		case "height":
			n.Height, err = r.num()
		case "position":
			err = r.position(&n.Position)
		}
		return err
	})
	if !isObj {
		r.fail(true)
	} else {
		r.requireAll(noteRequiredMask, seen)
	}
	return err
}

func (r *streamReader) edge(e *Edge) error {
	var seen keySet
	isObj, err := r.p.fields(func(k string) error {
		i, err := r.known(edgeKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "id":
			e.ID, err = r.str()
		case "source":
			e.Source, err = r.str()
		case "target":
			e.Target, err = r.str()
		case "label":
			e.Label, err = r.str()
		}
		return err
	})
	if !isObj {
		r.fail(true)
	} else {
		r.requireAll(edgeRequiredMask, seen)
	}
	return err
}

func (r *streamReader) trigger(t *TriggerConfig) error {
	var seen keySet
	err := r.object(func(k string) error {
		i, err := r.known(triggerKeys, k, &seen)
		if i < 0 || err != nil {
			return err
		}
		switch k {
		case "type":
			t.Type, err = r.enum(TriggerManual, TriggerHTTP, TriggerCron, TriggerEvent)
		case "path":
			t.Path, err = r.str()
		case "method":
			t.Method, err = r.enum("GET", "POST", "PUT", "DELETE")
		case "expression":
			t.Expression, err = r.str()
		case "eventType":
			t.EventType, err = r.str()
		}
		return err
	})
	r.requireAll(triggerRequiredMask, seen)
	if t.Type == TriggerCron && seen&(1<<3) == 0 || t.Type == TriggerEvent && seen&(1<<4) == 0 {
		r.fail(false)
	}
	return err
}
