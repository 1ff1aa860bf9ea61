// Package tracing is edgeflow's OpenTelemetry tracing: the tracer provider
// built from the standard OTEL_* variables (off, a no-op tracer, when no
// endpoint is set), the W3C trace context of requests, spans with ids chosen
// in advance, and the trace of a run (docs/observability.md).
package tracing

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Protocols of OTEL_EXPORTER_OTLP_PROTOCOL.
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// DefaultServiceName is service.name when OTEL_SERVICE_NAME is unset.
const DefaultServiceName = "edgeflow"

// Config is what the OTEL_* variables say. The zero Config (no endpoint)
// turns tracing off.
type Config struct {
	// Endpoint is the URL spans are sent to: for http/protobuf the full
	// URL of the traces path, for grpc the collector's address as a URL.
	Endpoint string
	// Protocol is ProtocolHTTP or ProtocolGRPC.
	Protocol string
	// Headers are sent with every export (an API key of a vendor, say).
	Headers map[string]string
	// ServiceName is the resource's service.name.
	ServiceName string
	// Attributes are the resource's other attributes
	// (OTEL_RESOURCE_ATTRIBUTES).
	Attributes map[string]string
	// Sampler is OTEL_TRACES_SAMPLER ("" means parentbased_always_on) and
	// SamplerArg its argument (the ratio of the traceidratio samplers).
	Sampler    string
	SamplerArg float64
}

// Enabled reports whether c sends spans anywhere.
func (c Config) Enabled() bool { return c.Endpoint != "" }

// ConfigFromEnv reads the OTEL_* variables through getenv (os.Getenv in
// serve): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as it is) or
// OTEL_EXPORTER_OTLP_ENDPOINT (to which http/protobuf appends /v1/traces),
// OTEL_EXPORTER_OTLP_TRACES_HEADERS or OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL,
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG. OTEL_SDK_DISABLED=true turns tracing off. A
// value that cannot be read is an error naming the variable.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	var c Config
	if strings.EqualFold(get("OTEL_SDK_DISABLED"), "true") {
		return c, nil
	}
	c.Protocol = first(get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), get("OTEL_EXPORTER_OTLP_PROTOCOL"), ProtocolHTTP)
	if c.Protocol != ProtocolHTTP && c.Protocol != ProtocolGRPC {
		return c, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL must be %s or %s, not %q", ProtocolHTTP, ProtocolGRPC, c.Protocol)
	}
	if e := get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); e != "" {
		c.Endpoint = e
	} else if e := get("OTEL_EXPORTER_OTLP_ENDPOINT"); e != "" {
		c.Endpoint = e
		if c.Protocol == ProtocolHTTP {
			c.Endpoint = strings.TrimSuffix(e, "/") + "/v1/traces"
		}
	}
	if c.Endpoint == "" {
		return Config{}, nil
	}
	u, err := url.Parse(c.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("the OTLP endpoint must be an http or https URL, not %q", c.Endpoint)
	}
	headers := first(get("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), get("OTEL_EXPORTER_OTLP_HEADERS"))
	if c.Headers, err = keyValues(headers); err != nil {
		return c, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: %w", err)
	}
	if c.Attributes, err = keyValues(get("OTEL_RESOURCE_ATTRIBUTES")); err != nil {
		return c, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	c.ServiceName = first(get("OTEL_SERVICE_NAME"), c.Attributes["service.name"], DefaultServiceName)
	c.Sampler = get("OTEL_TRACES_SAMPLER")
	switch c.Sampler {
	case "", "always_on", "always_off", "parentbased_always_on", "parentbased_always_off":
	case "traceidratio", "parentbased_traceidratio":
		c.SamplerArg = 1
		if a := get("OTEL_TRACES_SAMPLER_ARG"); a != "" {
			f, err := strconv.ParseFloat(a, 64)
			if err != nil || f < 0 || f > 1 {
				return c, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, not %q", a)
			}
			c.SamplerArg = f
		}
	default:
		return c, fmt.Errorf("OTEL_TRACES_SAMPLER %q is not one of always_on, always_off, traceidratio, "+
			"parentbased_always_on, parentbased_always_off, parentbased_traceidratio", c.Sampler)
	}
	return c, nil
}

// keyValues reads the "k1=v1,k2=v2" lists of the OTEL_* variables, with
// percent-encoded keys and values.
func keyValues(s string) (map[string]string, error) {
	m := map[string]string{}
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", part)
		}
		uk, err1 := url.PathUnescape(k)
		uv, err2 := url.PathUnescape(strings.TrimSpace(v))
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%q is not percent-encoded correctly", part)
		}
		m[uk] = uv
	}
	return m, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
