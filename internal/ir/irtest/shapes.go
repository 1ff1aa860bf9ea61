// Package irtest builds IRs for tests and benchmarks: the worst shapes a
// request body can hold, generated to a size rather than committed as files
// of megabytes. Each shape aims at one place where the cost of validation or
// compilation could grow faster than the IR: nesting, width, length,
// expressions reaching far upstream, many arms, identifiers that collide,
// cycles, schema errors (docs/decisions.md, decision 330).
package irtest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// MaxBody is the largest IR request body the API reads (the API's
// MaxIRBodyBytes; a test there keeps the two equal). Shapes built to this size
// leave room for the request's {"ir": ...} around them.
const MaxBody = 8 << 20

// FullSize is the size the benchmarks build their shapes to: the body limit
// less room for the request around the IR.
const FullSize = MaxBody - 4096

// maxSteps is Cloudflare's steps per workflow, which the validator enforces
// (ir.DefaultMaxSteps); functions have no such limit.
const maxSteps = ir.DefaultMaxSteps

// Shape is one generated IR shape.
type Shape struct {
	Name string
	// Valid says whether the IR passes validation (and so compiles); an
	// invalid shape is for the validator alone.
	Valid bool
	// Build returns the IR, at most size bytes long and close to it.
	Build func(size int) []byte
}

// Shapes lists every shape.
func Shapes() []Shape {
	return []Shape{
		{"deepest", true, Deepest},
		{"widest", true, Widest},
		{"longest-chain", true, LongestChain},
		{"far-references", true, FarReferences},
		{"branch-arms", true, BranchArms},
		{"code-expressions", true, CodeExpressions},
		{"json-expressions", true, JSONExpressions},
		{"name-collisions", true, NameCollisions},
		{"too-deep", false, TooDeep},
		{"cycles", false, Cycles},
		{"schema-error", false, SchemaError},
		{"many-problems", false, ManyProblems},
	}
}

// builder writes an IR's JSON directly (json.Marshal of megabytes of nodes
// would make the tests slow for no reason).
type builder struct {
	script bool
	nodes  bytes.Buffer
	edges  bytes.Buffer
	count  int // nodes
	nedges int
	entry  string
}

func (b *builder) node(id, typ, data string) string {
	if b.count > 0 {
		b.nodes.WriteByte(',')
	}
	fmt.Fprintf(&b.nodes, `{"id":%q,"type":%q,"name":%q,"data":%s}`, id, typ, "Node "+id, data)
	if b.entry == "" {
		b.entry = id
	}
	b.count++
	return id
}

func (b *builder) edge(source, target, label string) {
	if b.nedges > 0 {
		b.edges.WriteByte(',')
	}
	b.nedges++
	if label == "" {
		fmt.Fprintf(&b.edges, `{"id":"e%d","source":%q,"target":%q}`, b.nedges, source, target)
		return
	}
	fmt.Fprintf(&b.edges, `{"id":"e%d","source":%q,"target":%q,"label":%q}`, b.nedges, source, target, label)
}

// size is the length of the document so far, plus the part still to come.
func (b *builder) size() int { return b.nodes.Len() + b.edges.Len() + 256 }

func (b *builder) json() []byte {
	var out bytes.Buffer
	out.Grow(b.size())
	out.WriteString(`{`)
	if b.script {
		out.WriteString(`"kind":"script","trigger":{"type":"http"},`)
	}
	out.WriteString(`"metadata":{"name":"generated"},"nodes":[`)
	out.Write(b.nodes.Bytes())
	out.WriteString(`],"edges":[`)
	out.Write(b.edges.Bytes())
	out.WriteString(`],"entryNodeId":`)
	out.WriteString(strconv.Quote(b.entry))
	out.WriteString(`}`)
	return out.Bytes()
}

// code is the data of a step running src.
func code(src string) string { return `{"code":` + strconv.Quote(src) + `}` }

// NestedLoops is a workflow of depth loops, each in the body of the one
// before, with a step in the innermost body: the shape of the attack that
// cost minutes of CPU and gigabytes before containers had a depth limit.
// With depth 3,000 it is about 480 KB.
func NestedLoops(depth int) []byte {
	b := &builder{}
	from, label := b.node("start", ir.TypeStep, code("return { items: [1, 2] };")), ""
	for d := range depth {
		id := "loop_" + strconv.Itoa(d)
		b.node(id, ir.TypeLoop, `{"loopType":"forEach","collection":"{{start.items}}","itemVar":"item_`+strconv.Itoa(d)+`","indexVar":"index_`+strconv.Itoa(d)+`"}`)
		b.edge(from, id, label)
		from, label = id, ir.LabelBody
	}
	b.edge(from, b.node("leaf", ir.TypeStep, code("return {{loop_0.item}};")), label)
	return b.json()
}

// Deepest is a workflow of towers of containers nested as deep as allowed
// (ir.DefaultMaxNesting loops), one after the other, with a step at every
// level reading the outermost loop's item and the start, and a break at the
// bottom, as many towers as the steps limit allows, their code padded to
// reach size.
func Deepest(size int) []byte {
	depth := ir.DefaultMaxNesting
	// A level is a loop and a step, about 390 bytes with the edges.
	const level = 390
	towers := max(1, min(maxSteps/(depth+1)-1, size/(depth*level)))
	pad := max(0, size/towers/depth-level)
	b := &builder{}
	prev := b.node("start", ir.TypeStep, code("return { items: [1, 2] };"))
	prevLabel := ""
	for t := range towers {
		p := "t" + strconv.Itoa(t) + "_"
		outer := ""
		from, label := prev, prevLabel
		for d := range depth {
			id := p + "l" + strconv.Itoa(d)
			if d == 0 {
				outer = id
			}
			b.node(id, ir.TypeLoop, `{"loopType":"forEach","collection":"{{start.items}}"}`)
			b.edge(from, id, label)
			s := b.node(p+"s"+strconv.Itoa(d), ir.TypeStep, code("// "+strings.Repeat("x", pad)+"\nreturn [{{"+outer+".item}}, {{"+id+".index}}, {{start.items}}];"))
			b.edge(id, s, ir.LabelBody)
			from, label = s, ""
		}
		b.edge(from, b.node(p+"stop", ir.TypeBreak, `{"condition":"{{`+outer+`.index}} > 0"}`), "")
		prev, prevLabel = outer, ir.LabelThen
	}
	return b.json()
}

// Widest is a function with one parallel of as many lanes as fit, joined in
// a step that reads the parallel's value.
func Widest(size int) []byte {
	b := &builder{script: true}
	b.node("start", ir.TypeStep, code("return 1;"))
	b.node("fan", ir.TypeParallel, `{}`)
	b.edge("start", "fan", "")
	for i := 0; b.size() < size-400; i++ {
		id := b.node("lane"+strconv.Itoa(i), ir.TypeStep, code("return {{start}} + "+strconv.Itoa(i)+";"))
		b.edge("fan", id, "l"+strconv.Itoa(i))
		b.edge(id, "join", "")
	}
	b.node("join", ir.TypeStep, code("return {{fan}};"))
	return b.json()
}

// LongestChain is a function of one chain of steps as long as fits, each
// reading the one before it and the first.
func LongestChain(size int) []byte {
	b := &builder{script: true}
	prev := b.node("s0", ir.TypeStep, code("return 1;"))
	for i := 1; b.size() < size-200; i++ {
		id := b.node("s"+strconv.Itoa(i), ir.TypeStep, code("return {{"+prev+"}} + {{s0}};"))
		b.edge(prev, id, "")
		prev = id
	}
	return b.json()
}

// FarReferences is a workflow chain of as many steps as allowed through
// branches, parallels and joins, each step reading many nodes far upstream,
// so that every reference is checked across the whole graph.
func FarReferences(size int) []byte {
	b := &builder{}
	prev := b.node("s0", ir.TypeStep, code("return { v: 1 };"))
	units := maxSteps / 3
	refs := max(1, (size/units-600)/14)
	for u := 1; u < units; u++ {
		p := strconv.Itoa(u)
		var src strings.Builder
		src.WriteString("return [")
		for k := range refs {
			// Nodes of units spread over all before this one.
			src.WriteString("{{s" + strconv.Itoa(k*u/refs) + ".v}},")
		}
		src.WriteString("];")
		fan := b.node("p"+p, ir.TypeParallel, `{}`)
		b.edge(prev, fan, "")
		a := b.node("a"+p, ir.TypeStep, code("return {{"+prev+"}};"))
		c := b.node("c"+p, ir.TypeStep, code("return {{"+prev+"}};"))
		b.edge(fan, a, "a")
		b.edge(fan, c, "c")
		s := b.node("s"+p, ir.TypeStep, code(src.String()))
		b.edge(a, s, "")
		b.edge(c, s, "")
		prev = s
		if b.size() > size-2*(size/units) {
			break
		}
	}
	return b.json()
}

// BranchArms is a function with one branch of as many arms as fit, each
// arm a step, the arms joined.
func BranchArms(size int) []byte {
	b := &builder{script: true}
	b.node("start", ir.TypeStep, code("return { n: 1 };"))
	n := size / 270
	var arms strings.Builder
	arms.WriteString(`{"branches":[`)
	for i := range n {
		if i > 0 {
			arms.WriteByte(',')
		}
		fmt.Fprintf(&arms, `{"label":"a%d","condition":"{{start.n}} === %d"}`, i, i)
	}
	arms.WriteString(`]}`)
	b.node("pick", ir.TypeBranch, arms.String())
	b.edge("start", "pick", "")
	for i := range n {
		id := b.node("arm"+strconv.Itoa(i), ir.TypeStep, code("return "+strconv.Itoa(i)+";"))
		b.edge("pick", id, "a"+strconv.Itoa(i))
		b.edge(id, "done", "")
	}
	b.node("done", ir.TypeStep, code("return {{pick}};"))
	return b.json()
}

// CodeExpressions is a function of a few steps whose code holds as many
// expressions as fit.
func CodeExpressions(size int) []byte {
	b := &builder{script: true}
	prev := b.node("s0", ir.TypeStep, code("return { a: 1 };"))
	const steps = 16
	n := (size - 4096) / steps / 9
	for i := 1; i <= steps; i++ {
		id := b.node("s"+strconv.Itoa(i), ir.TypeStep, code("return "+strings.Repeat("{{s0.a}}+", n)+"0;"))
		b.edge(prev, id, "")
		prev = id
	}
	return b.json()
}

// JSONExpressions is a function of a few http_request nodes whose JSON body
// holds as many expressions as fit, inside strings and as values.
func JSONExpressions(size int) []byte {
	b := &builder{script: true}
	prev := b.node("s0", ir.TypeStep, code("return { a: 1 };"))
	const steps = 16
	n := size / steps / 20
	for i := 1; i <= steps; i++ {
		body := `{"text":"` + strings.Repeat(`{{s0.a}}`, n) + `","values":[` + strings.Repeat(`{{s0}},`, n) + `1]}`
		id := b.node("h"+strconv.Itoa(i), ir.TypeHTTPRequest, `{"method":"POST","url":"https://api.example.com/items","body":`+strconv.Quote(body)+`}`)
		b.edge(prev, id, "")
		prev = id
	}
	return b.json()
}

// NameCollisions is a function chain whose node ids all become the same
// JavaScript identifier but for suffixes ("a-_-" and "a_-_" are both a___),
// so that the compiler's names collide as often as they can.
func NameCollisions(size int) []byte {
	b := &builder{script: true}
	prev := b.node("a", ir.TypeStep, code("return 1;"))
	repl := strings.NewReplacer("0", "_", "1", "-")
	for i := 1; b.size() < size-200; i++ {
		id := b.node("a"+repl.Replace(strconv.FormatInt(int64(i), 2)), ir.TypeStep, code("return 1;"))
		b.edge(prev, id, "")
		prev = id
	}
	return b.json()
}

// TooDeep is NestedLoops as deep as fits in size: the validator must refuse
// it at the depth limit, at once.
func TooDeep(size int) []byte {
	depth := max(ir.DefaultMaxNesting+1, (size-200)/240)
	raw := NestedLoops(depth)
	for len(raw) > size && depth > ir.DefaultMaxNesting+1 {
		depth = max(ir.DefaultMaxNesting+1, depth*size/len(raw)-10)
		raw = NestedLoops(depth)
	}
	return raw
}

// Cycles is a function of as many two-node cycles as fit (every one a
// problem, the list capped).
func Cycles(size int) []byte {
	b := &builder{script: true}
	b.node("start", ir.TypeStep, code("return 1;"))
	for i := 0; b.size() < size-400; i++ {
		x := b.node("x"+strconv.Itoa(i), ir.TypeStep, code("return 1;"))
		y := b.node("y"+strconv.Itoa(i), ir.TypeStep, code("return 1;"))
		b.edge(x, y, "")
		b.edge(y, x, "")
	}
	return b.json()
}

// SchemaError is LongestChain with one unknown key in a node in the middle:
// the JSON Schema is evaluated to report it.
func SchemaError(size int) []byte {
	raw := LongestChain(size - 16)
	i := bytes.Index(raw[len(raw)/2:], []byte(`{"id":`))
	if i < 0 {
		return raw
	}
	at := len(raw)/2 + i + 1
	return append(raw[:at:at], append([]byte(`"color":[1,2],`), raw[at:]...)...)
}

// ManyProblems is a function of as many unreachable nodes, each of an
// unknown type and with an expression naming no node, as fit: far more
// problems than are reported.
func ManyProblems(size int) []byte {
	b := &builder{script: true}
	b.node("start", ir.TypeStep, code("return 1;"))
	for i := 0; b.size() < size-200; i++ {
		b.node("n"+strconv.Itoa(i), "no_such_type", `{"code":"return {{nobody.x}};"}`)
	}
	return b.json()
}
