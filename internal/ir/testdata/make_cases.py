#!/usr/bin/env python3
"""Writes the validator's fixtures: cases/<name>.ir.json and, next to each,
<name>.want.json with the problems Validate must report ([] for valid IRs),
as [rule, path, nodeId]. The expectations are written here by hand; rerun
after editing: python3 testdata/make_cases.py (from internal/ir)."""
import copy, json, os

def node(id, typ, data, **kw):
    n = {"id": id, "type": typ, "name": "Node " + id, "position": {"x": 0, "y": 0},
         "version": "1.0.0", "provider": "cloudflare", "data": data}
    n.update(kw)
    return n

BASE = {
    "kind": "workflow",
    "metadata": {"name": "fixture", "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
    "nodes": [
        node("start", "step", {"code": "return { items: [1, 2] };"}),                                   # 0
        node("fetch", "http_request", {"method": "GET", "url": "https://api.example.com/x/{{start.items[0]}}",
                                        "headers": "{\"X-Key\": \"{{env.API_KEY}}\"}"}),            # 1
        node("check", "branch", {"branches": [{"label": "ok", "condition": "{{fetch.status}} === 200"},
                                              {"label": "else", "condition": ""}]}),                  # 2
        node("good", "step", {"code": "return {{fetch.body}};"}),                                      # 3
        node("bad", "step", {"code": "return null;"}),                                                  # 4
        node("fan", "parallel", {}),                                                                    # 5
        node("a", "step", {"code": "return {{check.label}};"}),                                        # 6
        node("b", "sleep", {"duration": "1 minute"}),                                                   # 7
        node("join", "step", {"code": "return {{fan}};"}),                                             # 8
        node("loop", "loop", {"loopType": "forEach", "collection": "{{start.items}}"}),                # 9
        node("body", "step", {"code": "return {{loop.item}} + {{loop.index}};"}),                      # 10
        node("stop", "break", {"condition": "{{body}} > 1"}),                                          # 11
        node("guard", "try_catch", {}),                                                                 # 12
        node("risky", "http_request", {"url": "https://example.com/{{event.payload.id}}"},
             config={"retries": {"limit": 2, "delay": "5 seconds", "backoff": "exponential"}, "timeout": 30}),  # 13
        node("recover", "step", {"code": "return {{guard.error.message}};"}),                          # 14
        node("done", "step", {"code": "return [{{join}}, {{loop.results}}, {{event.timestamp}}];"}),   # 15
    ],
    "edges": [],
    "entryNodeId": "start",
    "trigger": {"type": "cron", "expression": "*/5 * * * *"},
}
for i, (s, t, l) in enumerate([
    ("start", "fetch", None), ("fetch", "check", None), ("check", "good", "ok"), ("check", "bad", "else"),
    ("check", "fan", "then"), ("fan", "a", "lane a"), ("fan", "b", "lane b"), ("a", "join", None), ("b", "join", None),
    ("join", "loop", None), ("loop", "body", "body"), ("body", "stop", None), ("loop", "guard", "then"),
    ("guard", "risky", "try"), ("guard", "recover", "catch"), ("guard", "done", "then")]):
    e = {"id": "e%d" % i, "source": s, "target": t}
    if l:
        e["label"] = l
    BASE["edges"].append(e)

def N(ir, id):
    return next(n for n in ir["nodes"] if n["id"] == id)

def E(ir, id):
    return next(e for e in ir["edges"] if e["id"] == id)

def edge(ir, s, t, label=None, id="x1"):
    e = {"id": id, "source": s, "target": t}
    if label is not None:
        e["label"] = label
    ir["edges"].append(e)

CASES = {}

def case(name, want):
    def deco(fn):
        ir = copy.deepcopy(BASE)
        out = fn(ir)
        CASES[name] = (ir if out is None else out, want)
        return fn
    return deco

# ---- valid IRs
@case("valid-workflow", [])
def _(ir): pass

@case("valid-function", [])
def _(ir):
    ir["kind"] = "script"
    ir["trigger"] = {"type": "http", "path": "/hook", "method": "POST"}
    N(ir, "b").update(type="step", data={"code": "return 2;"})
    N(ir, "done")["data"]["code"] = "return {{event.payload}};"
    N(ir, "done")["name"] = "EXPORT_result"

@case("valid-legacy-no-kind-no-trigger", [])
def _(ir):
    del ir["kind"], ir["trigger"]

@case("valid-cron-names", [])
def _(ir): ir["trigger"]["expression"] = "0 9-17/2 1,15 JAN-MAR mon-fri"

@case("valid-event-trigger", [])
def _(ir): ir["trigger"] = {"type": "event", "eventType": "order_created-v2"}

@case("valid-join-after-try-catch", [])
def _(ir):
    # try and catch lanes meet at done instead of a then edge.
    ir["edges"] = [e for e in ir["edges"] if e["id"] != "e15"]
    edge(ir, "risky", "done")
    edge(ir, "recover", "done", id="x2")
    N(ir, "done")["data"]["code"] = "return {{guard}};"

@case("valid-durations", [])
def _(ir):
    N(ir, "b")["data"]["duration"] = 90
    N(ir, "risky")["config"] = {"retries": {"limit": 0, "delay": 1.5}, "timeout": "2 hours"}
    N(ir, "good")["config"] = {"timeout": "1 week"}

@case("valid-break-in-try-inside-loop", [])
def _(ir):
    # loop body: inner try_catch whose try block breaks
    ir["nodes"].append(node("inner", "try_catch", {}))
    ir["nodes"].append(node("quit", "break", {}))
    ir["nodes"].append(node("oops", "step", {"code": "return 0;"}))
    E(ir, "e11")["target"] = "inner"
    N(ir, "stop")["type"] = "step"; N(ir, "stop")["data"] = {"code": "return 1;"}
    edge(ir, "inner", "quit", "try")
    edge(ir, "inner", "oops", "catch", id="x2")
    edge(ir, "inner", "stop", "then", id="x3")

# ---- SPEC rule 1-4
@case("nodes-required", [["nodes-required", "/nodes", ""], ["entry-exists", "/entryNodeId", ""]])
def _(ir):
    ir["nodes"] = []; ir["edges"] = []

@case("entry-exists", [["entry-exists", "/entryNodeId", ""]])
def _(ir): ir["entryNodeId"] = "nope"

@case("output-node-valid", [])
def _(ir): ir["outputNodeId"] = "good"

@case("output-node-unknown", [["output-node", "/outputNodeId", ""]])
def _(ir): ir["outputNodeId"] = "nope"

@case("output-node-sleep", [["output-node", "/outputNodeId", "b"]])
def _(ir): ir["outputNodeId"] = "b"

@case("edge-ends", [["edge-ends", "/edges/16/source", ""], ["edge-ends", "/edges/17/target", ""]])
def _(ir):
    edge(ir, "ghost", "start")
    edge(ir, "done", "phantom", id="x2")

@case("no-cycle", [["no-cycle", "/edges/16", "start"]])
def _(ir): edge(ir, "done", "start")

@case("no-cycle-self-loop", [["no-cycle", "/edges/16", "good"], ["container", "/nodes/3", "good"]])
def _(ir): edge(ir, "good", "good")

# ---- SPEC rule 5
@case("upstream-parallel-sibling", [["upstream-reference", "/nodes/6/data/code", "a"]])
def _(ir): N(ir, "a")["data"]["code"] = "return {{b}};"

@case("upstream-other-arm", [["upstream-reference", "/nodes/4/data/code", "bad"]])
def _(ir): N(ir, "bad")["data"]["code"] = "return {{good}};"

@case("upstream-downstream", [["upstream-reference", "/nodes/0/data/code", "start"]])
def _(ir): N(ir, "start")["data"]["code"] = "return {{done}};"

@case("upstream-lane-after-container", [["upstream-reference", "/nodes/15/data/code", "done"]])
def _(ir): N(ir, "done")["data"]["code"] = "return {{risky.status}};"

@case("upstream-self", [["upstream-reference", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{good}};"

@case("upstream-unknown-node", [["upstream-reference", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{ghost.x}};"

@case("upstream-loop-item-outside-body", [["upstream-reference", "/nodes/15/data/code", "done"]])
def _(ir): N(ir, "done")["data"]["code"] = "return {{loop.item}};"

@case("upstream-in-json-field", [["upstream-reference", "/nodes/1/data/body", "fetch"]])
def _(ir): N(ir, "fetch")["data"]["body"] = "{\"v\": {{join}}}"

@case("upstream-in-branch-condition", [["upstream-reference", "/nodes/2/data/branches/0/condition", "check"]])
def _(ir): N(ir, "check")["data"]["branches"][0]["condition"] = "{{good}} != null"

# ---- SPEC rule 6
@case("select-option", [["select-option", "/nodes/1/data/method", "fetch"]])
def _(ir): N(ir, "fetch")["data"]["method"] = "FETCH"

@case("select-option-loop-type", [["select-option", "/nodes/9/data/loopType", "loop"]])
def _(ir): N(ir, "loop")["data"]["loopType"] = "until"

@case("select-option-legacy-backoff", [["select-option", "/nodes/3/data/backoff", "good"]])
def _(ir): N(ir, "good")["data"]["backoff"] = "random"

# ---- SPEC rule 7
@case("duration-data", [["duration", "/nodes/7/data/duration", "b"]])
def _(ir): N(ir, "b")["data"]["duration"] = "5 fortnights"

@case("duration-config", [["duration", "/nodes/13/config/retries/delay", "risky"], ["duration", "/nodes/13/config/timeout", "risky"]])
def _(ir):
    N(ir, "risky")["config"] = {"retries": {"limit": 1, "delay": "soon"}, "timeout": "10 parsecs"}

@case("duration-negative-number", [["step-config", "/nodes/13/config/timeout", "risky"]])
def _(ir): N(ir, "risky")["config"]["timeout"] = -5

# ---- SPEC rule 8
@case("script-trigger-and-nodes", [["script", "/trigger/type", ""], ["script", "/nodes/7/type", "b"], ["expression", "/nodes/15/data/code", "done"]])
def _(ir): ir["kind"] = "script"

@case("script-wait-for-event", [["script", "/nodes/7/type", "b"]])
def _(ir):
    ir["kind"] = "script"; ir["trigger"] = {"type": "http"}
    N(ir, "b").update(type="wait_for_event", data={"eventType": "approval"})
    N(ir, "done")["data"]["code"] = "return 1;"

@case("script-event-timestamp", [["expression", "/nodes/15/data/code", "done"]])
def _(ir):
    ir["kind"] = "script"; ir["trigger"] = {"type": "http"}
    N(ir, "b").update(type="step", data={"code": "return 2;"})

@case("script-missing-trigger", [["schema", "/trigger", ""], ["script", "/nodes/7/type", "b"], ["expression", "/nodes/15/data/code", "done"]])
def _(ir):
    ir["kind"] = "script"; del ir["trigger"]

# ---- ids, types, names, provider
@case("node-id-duplicate", [["node-id", "/nodes/4/id", "good"], ["edge-ends", "/edges/3/target", ""]])
def _(ir): N(ir, "bad")["id"] = "good"

@case("node-id-format", [["node-id", "/nodes/11/id", "-stop"], ["node-id", "/nodes/4/id", "env"]])
def _(ir):
    N(ir, "stop")["id"] = "-stop"; E(ir, "e11")["target"] = "-stop"
    N(ir, "bad")["id"] = "env"; E(ir, "e3")["target"] = "env"

@case("edge-id", [["edge-id", "/edges/15/id", ""], ["edge-id", "/edges/14/id", ""]])
def _(ir):
    E(ir, "e15")["id"] = "e0"
    E(ir, "e14")["id"] = ""

@case("node-type-unknown", [["node-type", "/nodes/13/type", "risky"]])
def _(ir): N(ir, "risky")["type"] = "ftp_request"

@case("node-type-version", [["node-type", "/nodes/13/version", "risky"], ["node-type", "/nodes/3/version", "good"]])
def _(ir):
    N(ir, "risky")["version"] = "2.0.0"
    N(ir, "good")["version"] = "latest"

@case("node-name", [["node-name", "/nodes/0/name", "start"], ["limits", "/nodes/3/name", "good"]])
def _(ir):
    N(ir, "start")["name"] = "  "
    N(ir, "good")["name"] = "x" * 257

@case("provider", [["provider", "/nodes/0/provider", "start"]])
def _(ir): N(ir, "start")["provider"] = "aws"

# ---- node data
@case("node-data-required", [["node-data", "/nodes/1/data/url", "fetch"], ["node-data", "/nodes/3/data/code", "good"]])
def _(ir):
    del N(ir, "fetch")["data"]["url"]
    N(ir, "good")["data"]["code"] = "   "

@case("node-data-types", [["node-data", "/nodes/3/data/code", "good"], ["node-data", "/nodes/13/data/allowErrorStatus", "risky"], ["node-data", "/nodes/9/data/maxIterations", "loop"]])
def _(ir):
    N(ir, "good")["data"]["code"] = 42
    N(ir, "risky")["data"]["allowErrorStatus"] = "yes"
    N(ir, "loop")["data"]["maxIterations"] = 2.5

@case("node-data-unknown-field", [["node-data", "/nodes/6/data/color", "a"]])
def _(ir): N(ir, "a")["data"]["color"] = "red"

@case("node-data-url", [["node-data", "/nodes/13/data/url", "risky"], ["node-data", "/nodes/1/data/url", "fetch"]])
def _(ir):
    N(ir, "risky")["data"]["url"] = "ftp://example.com"
    N(ir, "fetch")["data"]["url"] = "api/{{start.items}}"

@case("node-data-json", [["node-data", "/nodes/1/data/headers", "fetch"], ["node-data", "/nodes/13/data/headers", "risky"], ["node-data", "/nodes/13/data/body", "risky"]])
def _(ir):
    N(ir, "fetch")["data"]["headers"] = "{not json"
    N(ir, "risky")["data"]["headers"] = "[1, 2]"
    N(ir, "risky")["data"]["body"] = "{\"a\": {{start.items}} {{start}}}"

@case("node-data-timestamp", [["node-data", "/nodes/7/data/timestamp", "b"]])
def _(ir): N(ir, "b").update(type="sleep_until", data={"timestamp": "next tuesday"})

@case("node-data-identifier", [["node-data", "/nodes/9/data/itemVar", "loop"]])
def _(ir): N(ir, "loop")["data"]["itemVar"] = "my item"

# ---- reachability and containers
@case("reachable", [["reachable", "/nodes/16", "orphan"]])
def _(ir): ir["nodes"].append(node("orphan", "step", {"code": "return 1;"}))

@case("container-branch-label", [["container", "/edges/2/label", "check"]])
def _(ir): E(ir, "e2")["label"] = "yes"

@case("container-branch-else", [["container", "/nodes/2/data/branches/2/condition", "check"], ["container", "/nodes/2/data/branches/1/condition", "check"]])
def _(ir): N(ir, "check")["data"]["branches"].append({"label": "other", "condition": ""})

@case("container-branch-labels-unique", [["container", "/nodes/2/data/branches/1/label", "check"], ["container", "/nodes/2/data/branches/2/label", "check"], ["container", "/edges/3/label", "check"], ["container", "/nodes/2/data/branches/1/condition", "check"]])
def _(ir):
    N(ir, "check")["data"]["branches"][1]["label"] = "ok"
    N(ir, "check")["data"]["branches"].append({"label": "", "condition": "true"})

@case("container-try-needs-catch", [["container", "/nodes/12", "guard"], ["reachable", "/nodes/14", "recover"]])
def _(ir): ir["edges"] = [e for e in ir["edges"] if e["id"] != "e14"]

@case("container-try-labels", [["container", "/edges/14/label", "guard"], ["container", "/nodes/12", "guard"]])
def _(ir): E(ir, "e14")["label"] = "except"

@case("container-loop-needs-body", [["container", "/nodes/9", "loop"], ["reachable", "/nodes/10", "body"], ["reachable", "/nodes/11", "stop"]])
def _(ir): ir["edges"] = [e for e in ir["edges"] if e["id"] != "e10"]

@case("container-loop-collection", [["container", "/nodes/9/data/collection", "loop"]])
def _(ir): del N(ir, "loop")["data"]["collection"]

@case("container-loop-times-count", [["node-data", "/nodes/9/data/count", "loop"]])
def _(ir): N(ir, "loop")["data"] = {"loopType": "times", "count": 0}

@case("container-then-from-plain", [["container", "/edges/9/label", "join"]])
def _(ir): E(ir, "e9")["label"] = "then"

@case("container-break-outside-loop", [["container", "/nodes/16", "brk"]])
def _(ir):
    ir["nodes"].append(node("brk", "break", {}))
    edge(ir, "done", "brk")

@case("container-break-in-parallel-lane", [["container", "/nodes/16", "brk"]])
def _(ir):
    ir["nodes"].append(node("brk", "break", {}))
    ir["nodes"].append(node("inpar", "parallel", {}))
    E(ir, "e11")["target"] = "inpar"
    N(ir, "stop")["type"] = "step"; N(ir, "stop")["data"] = {"code": "return 1;"}
    edge(ir, "inpar", "brk", "lane")
    edge(ir, "inpar", "stop", "then", id="x2")

@case("container-break-has-edge", [["container", "/edges/16", "stop"]])
def _(ir):
    ir["nodes"].append(node("after", "step", {"code": "return 1;"}))
    edge(ir, "stop", "after")

@case("container-plain-two-edges", [["container", "/edges/16", "start"]])
def _(ir):
    ir["nodes"].append(node("extra", "step", {"code": "return 1;"}))
    edge(ir, "start", "extra")

@case("container-not-a-join", [["container", "/nodes/15", "done"], ["upstream-reference", "/nodes/15/data/code", "done"], ["upstream-reference", "/nodes/15/data/code", "done"]])
def _(ir): edge(ir, "good", "done")

@case("container-join-and-then", [["container", "/nodes/8", "join"]])
def _(ir):
    ir["nodes"].append(node("x", "step", {"code": "return 1;"}))
    edge(ir, "fan", "x", "then")

@case("container-parallel-no-lanes", [["container", "/nodes/16", "p2"]])
def _(ir):
    ir["nodes"].append(node("p2", "race", {}))
    ir["nodes"].append(node("after", "step", {"code": "return 1;"}))
    edge(ir, "done", "p2")
    edge(ir, "p2", "after", "then", id="x2")

# ---- config, trigger, limits
@case("step-config", [["step-config", "/nodes/3/config/retries/limit", "good"], ["step-config", "/nodes/7/config", "b"]])
def _(ir):
    N(ir, "good")["config"] = {"retries": {"limit": -1, "delay": 1}}
    N(ir, "b")["config"] = {"timeout": 5}

@case("cron", [["cron", "/trigger/expression", ""]])
def _(ir): ir["trigger"]["expression"] = "61 * * * *"

@case("cron-fields", [["cron", "/trigger/expression", ""]])
def _(ir): ir["trigger"]["expression"] = "* * * *"

@case("event-type-trigger", [["event-type", "/trigger/eventType", ""]])
def _(ir): ir["trigger"] = {"type": "event", "eventType": "bad type!"}

@case("event-type-node", [["event-type", "/nodes/7/data/eventType", "b"]])
def _(ir): N(ir, "b").update(type="wait_for_event", data={"eventType": "no spaces allowed"})

@case("event-type-reserved-trigger", [["event-type", "/trigger/eventType", ""]])
def _(ir): ir["trigger"] = {"type": "event", "eventType": "Edgeflow-Admission"}

@case("event-type-reserved-node", [["event-type", "/nodes/7/data/eventType", "b"]])
def _(ir): N(ir, "b").update(type="wait_for_event", data={"eventType": "edgeflow-admission"})

@case("trigger-fields", [["trigger", "/trigger/path", ""], ["trigger", "/trigger/eventType", ""]])
def _(ir): ir["trigger"] = {"type": "manual", "path": "/x", "eventType": "y"}

@case("limits-sleep", [["limits", "/nodes/7/data/duration", "b"]])
def _(ir): N(ir, "b")["data"]["duration"] = "400 days"

@case("limits-wait-timeout", [["limits", "/nodes/7/data/timeout", "b"]])
def _(ir): N(ir, "b").update(type="wait_for_event", data={"eventType": "approval", "timeout": "2 years"})

@case("metadata", [["metadata", "/metadata/name", ""], ["metadata", "/metadata/createdAt", ""]])
def _(ir):
    ir["metadata"]["name"] = ""
    ir["metadata"]["createdAt"] = "yesterday"

# ---- expressions
@case("expression-unterminated", [["expression", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{fetch.body;"

@case("expression-env-name", [["expression", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{env.lower_case}};"

@case("expression-event-root", [["expression", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{event.body}};"

@case("expression-malformed-path", [["expression", "/nodes/3/data/code", "good"]])
def _(ir): N(ir, "good")["data"]["code"] = "return {{fetch.body[first]}};"

# ---- shape (JSON Schema)
@case("schema-unknown-keys", [["schema", "/foo", ""], ["schema", "/nodes/0/color", "start"], ["schema", "/edges/0/weight", ""]])
def _(ir):
    ir["foo"] = 1
    ir["nodes"][0]["color"] = "red"
    ir["edges"][0]["weight"] = 2

@case("schema-unknown-key-and-semantic", [["schema", "/trigger/cron", ""], ["cron", "/trigger/expression", ""]])
def _(ir):
    ir["trigger"]["cron"] = True
    ir["trigger"]["expression"] = "every minute"

@case("schema-missing-required", [["schema", "/nodes/3/name", "good"]])
def _(ir): del N(ir, "good")["name"]

@case("schema-wrong-type", [["schema", "/nodes/0/position/x", "start"], ["schema", "/edges/1/label", ""]])
def _(ir):
    ir["nodes"][0]["position"]["x"] = "1"
    ir["edges"][1]["label"] = 7

@case("schema-enums", [["schema", "/kind", ""], ["schema", "/nodes/13/config/retries/backoff", "risky"]])
def _(ir):
    ir["kind"] = "flow"
    N(ir, "risky")["config"]["retries"]["backoff"] = "fibonacci"

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "cases")
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    os.remove(os.path.join(out, f))
for name, (ir, want) in sorted(CASES.items()):
    with open(os.path.join(out, name + ".ir.json"), "w") as f:
        json.dump(ir, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, name + ".want.json"), "w") as f:
        json.dump(want, f)
        f.write("\n")
# Not JSON at all.
with open(os.path.join(out, "json-malformed.ir.json"), "w") as f:
    f.write('{"nodes": [\n')
with open(os.path.join(out, "json-malformed.want.json"), "w") as f:
    f.write('[["json", "", ""]]\n')
print(len(CASES) + 1, "cases")
