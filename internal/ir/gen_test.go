package ir_test

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// irBuilder assembles valid IRs for tests and benchmarks.
type irBuilder struct {
	a     ir.ArtifactIR
	edges int
}

func newBuilder() *irBuilder {
	return &irBuilder{a: ir.ArtifactIR{
		Kind:     ir.KindWorkflow,
		Metadata: ir.Metadata{Name: "generated", Version: 1, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z"},
		Nodes:    []ir.Node{},
		Edges:    []ir.Edge{},
	}}
}

func (b *irBuilder) node(id, typ string, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	b.a.Nodes = append(b.a.Nodes, ir.Node{ID: id, Type: typ, Name: "Node " + id, Version: "1.0.0", Provider: "cloudflare", Data: data})
	if b.a.EntryNodeID == "" {
		b.a.EntryNodeID = id
	}
	return id
}

func (b *irBuilder) edge(src, dst, label string) {
	b.edges++
	b.a.Edges = append(b.a.Edges, ir.Edge{ID: "e" + strconv.Itoa(b.edges), Source: src, Target: dst, Label: label})
}

func (b *irBuilder) json() []byte {
	raw, err := json.Marshal(b.a)
	if err != nil {
		panic(err)
	}
	return raw
}

// mixedIR returns a valid workflow of about n nodes that uses all twelve
// builtin node types, expressions in every kind of field, joins and nested
// containers.
func mixedIR(n int) []byte {
	b := newBuilder()
	ref := b.node("start", ir.TypeStep, map[string]any{"code": "return { value: 1, items: [1, 2, 3], id: 'x' };"})
	from, label := ref, ""
	link := func(id string) {
		b.edge(from, id, label)
	}
	step := func(id, code string) string { return b.node(id, ir.TypeStep, map[string]any{"code": code}) }
	for u := 0; len(b.a.Nodes) < n; u++ {
		p := "u" + strconv.Itoa(u) + "_"
		switch u % 10 {
		case 0:
			id := step(p+"s", fmt.Sprintf("return { value: {{%s.value}} + 1, items: {{%s.items}}, id: 'x' };", ref, ref))
			link(id)
			from, label, ref = id, "", id
		case 1:
			id := b.node(p+"h", ir.TypeHTTPRequest, map[string]any{
				"method": "POST", "url": "https://api.example.com/items/{{" + ref + ".id}}?k={{env.API_KEY}}",
				"headers": `{"Content-Type": "application/json", "X-Run": "{{event.instanceId}}"}`,
				"body":    `{"value": {{` + ref + `.value}}, "note": "n {{event.payload.note}}"}`,
			})
			b.a.Nodes[len(b.a.Nodes)-1].Config = &ir.StepConfig{Retries: &ir.RetryConfig{Limit: 2, Delay: ir.DurationText("1 second"), Backoff: "linear"}}
			link(id)
			from, label = id, ""
		case 2:
			id := b.node(p+"b", ir.TypeBranch, map[string]any{"branches": []any{
				map[string]any{"label": "big", "condition": "{{" + ref + ".value}} > 10"},
				map[string]any{"label": "small", "condition": ""},
			}})
			link(id)
			y := step(p+"y", "return {{"+ref+".value}};")
			y2 := step(p+"y2", "return {{"+y+"}} * 2;")
			no := step(p+"n", "return 0;")
			b.edge(id, y, "big")
			b.edge(y, y2, "")
			b.edge(id, no, "small")
			from, label = id, ir.LabelThen
		case 3:
			id := b.node(p+"p", ir.TypeParallel, nil)
			link(id)
			a := step(p+"pa", "return {{"+ref+".value}};")
			c := b.node(p+"pb", ir.TypeHTTPRequest, map[string]any{"url": "https://api.example.com/b", "method": "GET"})
			j := step(p+"pj", "return {{"+id+"}};")
			b.edge(id, a, "a")
			b.edge(id, c, "b")
			b.edge(a, j, "")
			b.edge(c, j, "")
			from, label = j, ""
		case 4:
			id := b.node(p+"r", ir.TypeRace, nil)
			link(id)
			a := b.node(p+"ra", ir.TypeSleep, map[string]any{"duration": "10 minutes"})
			c := b.node(p+"rb", ir.TypeWaitForEvent, map[string]any{"eventType": "approval", "timeout": "2 days"})
			b.edge(id, a, "timer")
			b.edge(id, c, "approval")
			from, label = id, ir.LabelThen
		case 5:
			id := b.node(p+"t", ir.TypeTryCatch, nil)
			link(id)
			b.edge(id, step(p+"tt", "return {{"+ref+".value}};"), ir.LabelTry)
			b.edge(id, step(p+"tc", "return {{"+id+".error.message}};"), ir.LabelCatch)
			b.edge(id, step(p+"tf", "return null;"), ir.LabelFinally)
			from, label = id, ir.LabelThen
		case 6:
			id := b.node(p+"l", ir.TypeLoop, map[string]any{"loopType": "forEach", "collection": "{{" + ref + ".items}}", "itemVar": "item"})
			link(id)
			body := step(p+"lb", "return {{"+id+".item}} * {{"+ref+".value}};")
			brk := b.node(p+"lx", ir.TypeBreak, map[string]any{"condition": "{{" + body + "}} > 100"})
			b.edge(id, body, ir.LabelBody)
			b.edge(body, brk, "")
			from, label = id, ir.LabelThen
		case 7:
			id := b.node(p+"su", ir.TypeSleepUntil, map[string]any{"timestamp": "2026-06-01T09:00:00Z"})
			link(id)
			from, label = id, ""
		case 8:
			id := b.node(p+"w", ir.TypeSubWorkflow, map[string]any{"workflowId": "wf_child", "input": `{"v": {{` + ref + `.value}}}`, "waitForCompletion": true})
			link(id)
			from, label = id, ""
		case 9:
			id := b.node(p+"lt", ir.TypeLoop, map[string]any{"loopType": "times", "count": 3.0})
			link(id)
			b.edge(id, step(p+"ltb", "return {{"+id+".index}};"), ir.LabelBody)
			from, label = id, ir.LabelThen
		}
	}
	return b.json()
}

// deepIR nests depth containers (loop, try_catch, branch, parallel in turn),
// each holding the next in its lane.
func deepIR(depth int) []byte {
	b := newBuilder()
	ref := b.node("start", ir.TypeStep, map[string]any{"code": "return { items: [1] };"})
	from, label := ref, ""
	for d := range depth {
		id := "c" + strconv.Itoa(d)
		switch d % 4 {
		case 0:
			b.node(id, ir.TypeLoop, map[string]any{"loopType": "forEach", "collection": "{{start.items}}"})
			b.edge(from, id, label)
			from, label = id, ir.LabelBody
		case 1:
			b.node(id, ir.TypeTryCatch, nil)
			b.edge(from, id, label)
			b.edge(id, b.node(id+"_c", ir.TypeStep, map[string]any{"code": "return 1;"}), ir.LabelCatch)
			from, label = id, ir.LabelTry
		case 2:
			b.node(id, ir.TypeBranch, map[string]any{"branches": []any{map[string]any{"label": "go", "condition": "true"}}})
			b.edge(from, id, label)
			from, label = id, "go"
		case 3:
			b.node(id, ir.TypeParallel, nil)
			b.edge(from, id, label)
			from, label = id, "only"
		}
	}
	b.edge(from, b.node("leaf", ir.TypeStep, map[string]any{"code": "return {{start.items}};"}), label)
	return b.json()
}

// wideIR is one parallel with lanes lanes that join.
func wideIR(lanes int) []byte {
	b := newBuilder()
	b.node("start", ir.TypeStep, map[string]any{"code": "return 1;"})
	b.node("fan", ir.TypeParallel, nil)
	b.edge("start", "fan", "")
	join := "join"
	for i := range lanes {
		id := b.node("l"+strconv.Itoa(i), ir.TypeStep, map[string]any{"code": "return {{start}} + " + strconv.Itoa(i) + ";"})
		b.edge("fan", id, "lane"+strconv.Itoa(i))
		b.edge(id, join, "")
	}
	b.node(join, ir.TypeStep, map[string]any{"code": "return {{fan}};"})
	return b.json()
}
