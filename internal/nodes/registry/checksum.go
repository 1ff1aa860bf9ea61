package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// ChecksumPrefix starts every checksum string.
const ChecksumPrefix = "sha256:"

// Checksum returns the checksum of one node version: "sha256:" and the hex
// SHA-256 of the canonical form (docs/registry.md, "Checksums")
//
//	{"definition":<canonical node.json>,"template":"<template.ts>"}
//
// The canonical JSON sorts object keys, drops insignificant whitespace and
// writes numbers in one form, so reformatting node.json or storing it in a
// database that reorders keys does not change the checksum; CRLF line ends
// of the template count as LF. It fails only when nodeJSON is not JSON.
func Checksum(nodeJSON []byte, template string) (string, error) {
	canon, err := CanonicalJSON(nodeJSON)
	if err != nil {
		return "", fmt.Errorf("node.json: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(`{"definition":`)
	b.Write(canon)
	b.WriteString(`,"template":`)
	writeString(&b, normalizeTemplate(template))
	b.WriteString(`}`)
	sum := sha256.Sum256(b.Bytes())
	return ChecksumPrefix + hex.EncodeToString(sum[:]), nil
}

func normalizeTemplate(s string) string {
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// CanonicalJSON rewrites a JSON document in edgeflow's canonical form: no
// insignificant whitespace, object keys sorted by their UTF-8 bytes,
// strings escaped only where JSON requires it (no HTML escaping), numbers
// in the shortest form that reads back as the same float64. It fails on
// invalid JSON, trailing data and duplicate object keys.
func CanonicalJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b bytes.Buffer
	if err := canonValue(dec, &b); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return b.Bytes(), nil
}

func canonValue(dec *json.Decoder, b *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return canonObject(dec, b)
		case '[':
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := canonValue(dec, b); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return fmt.Errorf("invalid JSON: %w", err)
			}
			b.WriteByte(']')
			return nil
		}
		return fmt.Errorf("invalid JSON: unexpected %v", t)
	case string:
		writeString(b, t)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return fmt.Errorf("number %s out of range", t)
		}
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
	return nil
}

func canonObject(dec *json.Decoder, b *bytes.Buffer) error {
	members := map[string][]byte{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("invalid JSON: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("invalid JSON: object key %v is not a string", tok)
		}
		if _, dup := members[key]; dup {
			return fmt.Errorf("duplicate object key %q", key)
		}
		var v bytes.Buffer
		if err := canonValue(dec, &v); err != nil {
			return err
		}
		members[key] = v.Bytes()
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, k)
		b.WriteByte(':')
		b.Write(members[k])
	}
	b.WriteByte('}')
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	b.Truncate(b.Len() - 1)
}
