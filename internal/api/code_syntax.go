package api

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// codeProblem is a syntax error in user code, as the details of a 422
// validation_failed answer: where the field is (Path, NodeID, Field) and
// where in the field's own text the error is (1-based Line and Column).
type codeProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	NodeID  string `json:"nodeId,omitempty"`
	Field   string `json:"field"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// codeSyntaxError parses the code of every step node of a and, when
// triggerCode is not blank, triggerCode, as TypeScript the way it is
// compiled; a syntax error is a 422 validation_failed naming the node (or
// triggerCode), the field, and the line and column inside the field's text.
// {{...}} expressions in step code stand for values: they are parsed as
// names of the same length.
func codeSyntaxError(orgID string, a *ir.ArtifactIR, triggerCode string) error {
	type site struct {
		node  int // -1: triggerCode
		field string
	}
	var sites []site
	var snippets []bundle.Snippet
	if strings.TrimSpace(triggerCode) != "" {
		sites = append(sites, site{-1, "triggerCode"})
		snippets = append(snippets, bundle.Snippet{Code: triggerCode})
	}
	if a != nil {
		for i := range a.Nodes {
			n := &a.Nodes[i]
			if n.Config != nil && n.Config.Rollback != nil && strings.TrimSpace(n.Config.Rollback.Code) != "" {
				sites = append(sites, site{i, "config.rollback.code"})
				snippets = append(snippets, bundle.Snippet{Code: maskExpressions(n.Config.Rollback.Code)})
			}
			if n.Type != ir.TypeStep {
				continue
			}
			code, ok := n.Data["code"].(string)
			if !ok || strings.TrimSpace(code) == "" {
				continue
			}
			sites = append(sites, site{i, "code"})
			snippets = append(snippets, bundle.Snippet{Code: maskExpressions(code)})
		}
	}
	errs := bundle.CheckSyntax(orgID, snippets)
	if errs == nil {
		return nil
	}
	var ps []codeProblem
	for k, e := range errs {
		if e == nil {
			continue
		}
		s := sites[k]
		p := codeProblem{Field: s.field, Line: e.Line, Column: e.Column}
		if s.node < 0 {
			p.Path = "/triggerCode"
			p.Message = fmt.Sprintf("triggerCode: syntax error at line %d, column %d: %s", e.Line, e.Column, e.Message)
		} else {
			p.NodeID = a.Nodes[s.node].ID
			p.Field = "data." + s.field
			if s.field != "code" {
				p.Field = s.field // config.rollback.code
			}
			// the path in the IR, as invalid_ir paths are
			p.Path = "/nodes/" + strconv.Itoa(s.node) + "/" + strings.ReplaceAll(p.Field, ".", "/")
			p.Message = fmt.Sprintf("node %q, %s: syntax error at line %d, column %d: %s", p.NodeID, p.Field, e.Line, e.Column, e.Message)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil
	}
	msg := ps[0].Message
	if len(ps) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(ps)-1)
	}
	return &edgeflow.Error{Code: edgeflow.EInvalid, Message: msg, Details: ps}
}

// maskExpressions replaces each {{...}} of code by as many "_" as it has
// characters, so that it parses as a name and every other character keeps
// its line and column.
func maskExpressions(code string) string {
	i := strings.Index(code, "{{")
	if i < 0 {
		return code
	}
	var b strings.Builder
	b.Grow(len(code))
	for i >= 0 {
		j := strings.Index(code[i+2:], "}}")
		if j < 0 {
			break
		}
		end := i + 2 + j + 2
		b.WriteString(code[:i])
		for _, r := range code[i:end] {
			if r == '\n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte('_')
			}
		}
		code = code[end:]
		i = strings.Index(code, "{{")
	}
	b.WriteString(code)
	return b.String()
}
