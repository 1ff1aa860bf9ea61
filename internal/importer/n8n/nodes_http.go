package n8n

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// httpRequestNode converts HTTP Request: one request per input item, with
// the method, URL, query, headers and a JSON, form or raw body; credentials
// become {{env.NAME}} references the report lists. The response's JSON body
// is the item (a list becomes one item per element), a text body {data}.
func (c *converter) httpRequestNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{text: true}
	t := c.translate(u)
	v3 := n.TypeVersion >= 3
	var b strings.Builder
	method := "GET"
	if m := str(p["method"]); m != "" {
		method = m
	} else if m := str(p["requestMethod"]); m != "" {
		method = m
	}
	methodCode := jsString(strings.ToUpper(method))
	if isExpression(method) {
		methodCode = "String(" + t.param(method) + ").toUpperCase()"
	}
	opts, _ := p["options"].(map[string]any)
	format, full, neverError := "autodetect", false, false
	if v3 {
		if r, ok := opts["response"].(map[string]any); ok {
			if rr, ok := r["response"].(map[string]any); ok {
				if f := str(rr["responseFormat"]); f != "" {
					format = f
				}
				full, _ = rr["fullResponse"].(bool)
				neverError, _ = rr["neverError"].(bool)
			}
		}
	} else {
		if f := str(p["responseFormat"]); f != "" {
			format = f
		} else {
			format = "json"
		}
		full, _ = opts["fullResponse"].(bool)
		neverError, _ = opts["neverError"].(bool)
	}
	if format == "file" {
		return c.throwing(ctx, "HTTP Request that downloads a file (binary data) is not converted")
	}
	if opts["batching"] != nil {
		c.approximate(n.Name, "batching is not converted: the requests are sent one after another")
	}
	if p["pagination"] != nil || opts["pagination"] != nil {
		c.approximate(n.Name, "pagination is not converted: one request per item")
	}
	timeout := 0.0
	if v, ok := opts["timeout"].(float64); ok {
		timeout = v
	}

	b.WriteString("const out = [];\n")
	b.WriteString("for (let $itemIndex = 0; $itemIndex < items.length; $itemIndex++) {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = items[$itemIndex].json;\n")
	fmt.Fprintf(&b, "  const url = new URL(%s);\n", t.param(p["url"]))
	b.WriteString("  const headers = new Headers();\n")
	fmt.Fprintf(&b, "  const method = %s;\n", methodCode)
	// Query.
	for _, kv := range c.pairs(p, v3, "query", t) {
		fmt.Fprintf(&b, "  url.searchParams.append(%s, $text(%s));\n", kv[0], kv[1])
	}
	if js := c.jsonParam(p, v3, "query", t); js != "" {
		fmt.Fprintf(&b, "  for (const [k, v] of Object.entries(%s)) url.searchParams.append(k, $text(v));\n", js)
	}
	// Headers.
	for _, kv := range c.pairs(p, v3, "header", t) {
		fmt.Fprintf(&b, "  headers.set(%s, $text(%s));\n", kv[0], kv[1])
	}
	if js := c.jsonParam(p, v3, "header", t); js != "" {
		fmt.Fprintf(&b, "  for (const [k, v] of Object.entries(%s)) headers.set(k, $text(v));\n", js)
	}
	c.httpAuth(ctx, &b)
	// Body.
	b.WriteString("  let body;\n")
	c.httpBody(ctx, &b, t, v3, method)
	b.WriteString("  const response = await fetch(url, { method, headers, body")
	if timeout > 0 {
		fmt.Fprintf(&b, ", signal: AbortSignal.timeout(%s)", jsNumber(timeout))
	}
	b.WriteString(" });\n")
	b.WriteString("  const text = await response.text();\n")
	if !neverError {
		b.WriteString("  if (response.status >= 400) throw new Error(`${response.status} - ${text.slice(0, 500)}`);\n")
	}
	switch format {
	case "text", "string":
		prop := "data"
		if r, ok := opts["response"].(map[string]any); ok {
			if rr, ok := r["response"].(map[string]any); ok && str(rr["outputPropertyName"]) != "" {
				prop = str(rr["outputPropertyName"])
			}
		}
		fmt.Fprintf(&b, "  let data = { %s: text };\n", jsKey(prop))
	case "json":
		b.WriteString("  let data = text === \"\" ? {} : JSON.parse(text);\n")
	default:
		b.WriteString("  const type = response.headers.get(\"content-type\") ?? \"\";\n")
		b.WriteString("  let data = /json/i.test(type) ? (text === \"\" ? {} : JSON.parse(text)) : text === \"\" ? {} : { data: text };\n")
	}
	if full {
		b.WriteString("  data = { body: data, headers: Object.fromEntries(response.headers), statusCode: response.status, statusMessage: response.statusText };\n")
	}
	// Versions 1 and 2 split an array answer into items only with the
	// option "Split Into Items"; otherwise the array is the item's json.
	split := "Array.isArray(data) ? data : [data]"
	if split2, _ := opts["splitIntoItems"].(bool); !v3 && !split2 {
		split = "[data]"
	}
	fmt.Fprintf(&b, "  for (const json of %s) out.push({ json: json !== null && typeof json === \"object\" ? json : { data: json }, pairedItem: { item: $itemIndex } });\n", split)
	b.WriteString("}\nreturn out;\n")
	return c.simple(ctx, b.String(), u, 0)
}

// pairs answers the name/value pairs of the query or header parameters.
func (c *converter) pairs(p map[string]any, v3 bool, kind string, t *translator) [][2]string {
	var list []any
	if v3 {
		if send, _ := p["send"+capitalize(kind)].(bool); !send {
			return nil
		}
		if spec := str(p["specify"+capitalize(kind)]); spec == "json" {
			return nil
		}
		box, _ := p[kind+"Parameters"].(map[string]any)
		list, _ = box["parameters"].([]any)
	} else {
		if j, _ := p["jsonParameters"].(bool); j {
			return nil
		}
		box, _ := p[kind+"ParametersUi"].(map[string]any)
		list, _ = box["parameter"].([]any)
	}
	var out [][2]string
	for _, e := range list {
		m, _ := e.(map[string]any)
		if m == nil || m["name"] == nil {
			continue
		}
		out = append(out, [2]string{t.param(m["name"]), t.param(m["value"])})
	}
	return out
}

// jsonParam answers the code of query or headers given as JSON.
func (c *converter) jsonParam(p map[string]any, v3 bool, kind string, t *translator) string {
	var v any
	if v3 {
		if send, _ := p["send"+capitalize(kind)].(bool); !send || str(p["specify"+capitalize(kind)]) != "json" {
			return ""
		}
		v = p["json"+capitalize(kind)]
		if kind == "header" {
			v = p["jsonHeaders"]
		}
	} else {
		if j, _ := p["jsonParameters"].(bool); !j {
			return ""
		}
		v = p[kind+"ParametersJson"]
	}
	if v == nil {
		return ""
	}
	return "((v) => (typeof v === \"string\" ? (v.trim() === \"\" ? {} : JSON.parse(v)) : v ?? {}))(" + t.param(v) + ")"
}

// httpBody writes the code that sets body (and the content type).
func (c *converter) httpBody(ctx *nodeCtx, b *strings.Builder, t *translator, v3 bool, method string) {
	n := ctx.node
	p := n.Parameters
	contentType := "json"
	var pairs []any
	var raw any
	specify := "keypair"
	if v3 {
		if send, _ := p["sendBody"].(bool); !send {
			return
		}
		if ct := str(p["contentType"]); ct != "" {
			contentType = ct
		}
		if s := str(p["specifyBody"]); s != "" {
			specify = s
		}
		box, _ := p["bodyParameters"].(map[string]any)
		pairs, _ = box["parameters"].([]any)
		switch {
		case contentType == "raw":
			raw = p["body"]
		case specify == "json":
			raw = p["jsonBody"]
		case specify == "string":
			raw = p["body"]
		}
	} else {
		if method == "GET" || method == "HEAD" {
			return
		}
		opts, _ := p["options"].(map[string]any)
		if ct := str(opts["bodyContentType"]); ct != "" {
			contentType = ct
		}
		if j, _ := p["jsonParameters"].(bool); j {
			specify = "json"
			raw = p["bodyParametersJson"]
		} else {
			box, _ := p["bodyParametersUi"].(map[string]any)
			pairs, _ = box["parameter"].([]any)
		}
		if contentType == "raw" {
			raw = p["body"]
		}
	}
	switch contentType {
	case "json":
		if specify == "keypair" {
			b.WriteString("  body = {};\n")
			for _, e := range pairs {
				m, _ := e.(map[string]any)
				fmt.Fprintf(b, "  body[%s] = %s;\n", t.param(m["name"]), t.param(m["value"]))
			}
			b.WriteString("  body = JSON.stringify(body);\n")
		} else {
			fmt.Fprintf(b, "  body = ((v) => (typeof v === \"string\" ? v : JSON.stringify(v)))(%s);\n", t.param(raw))
		}
		b.WriteString("  if (!headers.has(\"content-type\")) headers.set(\"content-type\", \"application/json\");\n")
	case "form-urlencoded", "multipart-form-data":
		if contentType == "multipart-form-data" {
			for _, e := range pairs {
				if m, _ := e.(map[string]any); str(m["parameterType"]) == "formBinaryData" {
					c.approximate(n.Name, "binary form fields are not converted: they are left out")
				}
			}
			b.WriteString("  body = new FormData();\n")
		} else {
			b.WriteString("  body = new URLSearchParams();\n")
		}
		if specify == "string" && contentType == "form-urlencoded" {
			fmt.Fprintf(b, "  body = new URLSearchParams(%s);\n", t.param(raw))
		}
		for _, e := range pairs {
			m, _ := e.(map[string]any)
			if str(m["parameterType"]) == "formBinaryData" {
				continue
			}
			fmt.Fprintf(b, "  body.append(%s, $text(%s));\n", t.param(m["name"]), t.param(m["value"]))
		}
	case "raw":
		rawType := "text/plain"
		if s := str(p["rawContentType"]); s != "" {
			rawType = s
		}
		fmt.Fprintf(b, "  body = $text(%s);\n  if (!headers.has(\"content-type\")) headers.set(\"content-type\", %s);\n", t.param(raw), t.param(rawType))
	default:
		c.approximate(n.Name, fmt.Sprintf("a %s body is not converted: the request is sent without a body", contentType))
	}
}

// httpAuth writes the code that authenticates the request with the node's
// credential, read from env vars named after it.
func (c *converter) httpAuth(ctx *nodeCtx, b *strings.Builder) {
	n := ctx.node
	p := n.Parameters
	auth := str(p["authentication"])
	if auth == "" || auth == "none" {
		return
	}
	credType := ""
	switch auth {
	case "predefinedCredentialType":
		credType = str(p["nodeCredentialType"])
	case "genericCredentialType":
		credType = str(p["genericAuthType"])
	default:
		// HTTP Request before version 3 names the type itself.
		credType = map[string]string{"basicAuth": "httpBasicAuth", "headerAuth": "httpHeaderAuth", "queryAuth": "httpQueryAuth",
			"digestAuth": "httpDigestAuth", "oAuth1": "oAuth1Api", "oAuth2": "oAuth2Api"}[auth]
	}
	prefix := c.credentialPrefix(n, credType)
	env := func(suffix string, secret bool, what string) string {
		name := prefix + "_" + suffix
		c.envVar(name, secret, fmt.Sprintf("%s of the credential of node %q (%s)", what, n.Name, credType))
		return "{{env." + name + "}}"
	}
	switch credType {
	case "httpBasicAuth":
		fmt.Fprintf(b, "  headers.set(\"authorization\", \"Basic \" + btoa(%s + \":\" + %s));\n", env("USER", false, "the user"), env("PASSWORD", true, "the password"))
	case "httpHeaderAuth":
		fmt.Fprintf(b, "  headers.set(%s, %s);\n", env("HEADER", false, "the header's name"), env("VALUE", true, "the header's value"))
	case "httpQueryAuth":
		fmt.Fprintf(b, "  url.searchParams.set(%s, %s);\n", env("PARAM", false, "the query parameter's name"), env("VALUE", true, "the query parameter's value"))
	case "httpBearerAuth", "oAuth2Api":
		fmt.Fprintf(b, "  headers.set(\"authorization\", \"Bearer \" + %s);\n", env("TOKEN", true, "the bearer token"))
		if credType == "oAuth2Api" {
			c.approximate(n.Name, "OAuth2: the access token is read from an env var; edgeflow does not refresh it")
		}
	case "httpDigestAuth", "oAuth1Api", "httpCustomAuth":
		c.approximate(n.Name, fmt.Sprintf("the credential type %s is not converted: the request is sent without it", credType))
	default:
		// A service's predefined credential: most APIs take its key as a
		// bearer token.
		fmt.Fprintf(b, "  headers.set(\"authorization\", \"Bearer \" + %s);\n", env("TOKEN", true, "the API key or token"))
		c.approximate(n.Name, fmt.Sprintf("the %s credential is sent as \"Authorization: Bearer {{env.%s_TOKEN}}\"; check that the service takes its key so", credType, prefix))
	}
}

// credentialPrefix names the env vars of a node's credential after the
// credential's name in n8n (or its type).
func (c *converter) credentialPrefix(n *Node, credType string) string {
	name := credType
	if raw, ok := n.Credentials[credType]; ok {
		var cr struct {
			Name string `json:"name"`
		}
		if jsonUnmarshal(raw, &cr) == nil && cr.Name != "" {
			name = cr.Name
		}
	}
	return envPrefix(name)
}

var reNonEnv = regexp.MustCompile(`[^A-Z0-9]+`)

// envPrefix makes an env var name of free text: "Header Auth account" →
// "HEADER_AUTH_ACCOUNT".
func envPrefix(s string) string {
	// camelCase → CAMEL_CASE first.
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		if r >= 'A' && r <= 'Z' && prevLower {
			b.WriteByte('_')
		}
		prevLower = r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		b.WriteRune(r)
	}
	out := strings.Trim(reNonEnv.ReplaceAllString(strings.ToUpper(b.String()), "_"), "_")
	if out == "" || out[0] < 'A' || out[0] > 'Z' {
		out = "CRED_" + out
	}
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "_")
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }
