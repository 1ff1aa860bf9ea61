package sqlstore

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// SumRunUsage sums input_tokens and output_tokens of the filter's runs that
// made model calls, per workflow. It reads the newest limit such runs
// through the partial index runs_project_usage (or the filter's own index),
// so that its cost is bounded by limit, not by the project's history;
// Partial says that older ones matched too.
func (s *Store) SumRunUsage(ctx context.Context, f edgeflow.RunFilter, limit int) (edgeflow.RunUsage, error) {
	conds, args := runFilterConds(s.d, f)
	conds += ` AND input_tokens IS NOT NULL`
	if strings.TrimSpace(f.Query) != "" {
		cond, arg := s.d.RunSearch(f.Query)
		conds += ` AND ` + cond
		args = append(args, arg)
	}
	newest := `SELECT workflow_id, workflow_name, input_tokens, output_tokens, created_at FROM runs WHERE ` + conds +
		` ORDER BY created_at DESC, id DESC LIMIT ?`
	q := `SELECT u.workflow_id, coalesce(max(w.name), max(u.workflow_name), ''), sum(u.input_tokens), sum(u.output_tokens), count(*)
		FROM (` + newest + `) AS u LEFT JOIN workflows AS w ON w.id = u.workflow_id
		GROUP BY u.workflow_id`
	sum := edgeflow.RunUsage{Workflows: []edgeflow.WorkflowUsage{}}
	rows, err := s.query(ctx, q, append(append([]any{}, args...), limit)...)
	if err != nil {
		return sum, fmt.Errorf("%s: sum run usage: %w", s.name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var u edgeflow.WorkflowUsage
		if err := rows.Scan(&u.WorkflowID, &u.WorkflowName, &u.InputTokens, &u.OutputTokens, &u.Runs); err != nil {
			return sum, fmt.Errorf("%s: sum run usage: %w", s.name, err)
		}
		sum.InputTokens += u.InputTokens
		sum.OutputTokens += u.OutputTokens
		sum.Runs += u.Runs
		sum.Workflows = append(sum.Workflows, u)
	}
	if err := rows.Err(); err != nil {
		return sum, fmt.Errorf("%s: sum run usage: %w", s.name, err)
	}
	rows.Close()
	sort.Slice(sum.Workflows, func(i, j int) bool {
		a, b := sum.Workflows[i], sum.Workflows[j]
		if ta, tb := a.InputTokens+a.OutputTokens, b.InputTokens+b.OutputTokens; ta != tb {
			return ta > tb
		}
		return a.WorkflowID < b.WorkflowID
	})
	if sum.Runs >= int64(limit) {
		var one int
		err := s.queryRow(ctx, `SELECT 1 FROM runs WHERE `+conds+` ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`,
			append(append([]any{}, args...), limit)...).Scan(&one)
		if err != nil && !s.noRows(err) {
			return sum, fmt.Errorf("%s: sum run usage: %w", s.name, err)
		}
		sum.Partial = err == nil
	}
	return sum, nil
}
