import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { collapseSame, diffLines, diffStats, nodeChanges, withoutStamps } from "../../api/diff";
import { workflowQueries } from "../../api/queries/workflows";
import { ErrorMessage, Loading } from "../../app/ui";

// Compare shows two versions side by side, their IR as indented JSON (without the server's version stamps) or their
// generated code, with line numbers and the changed, added and removed lines marked and counted; unchanged lines are
// folded away but for three around each change, and a per-node summary says what changed in words.
export function Compare({ workflowId, leftId, rightId }: { workflowId: string; leftId: string; rightId: string }) {
  const [what, setWhat] = useState<"ir" | "code">("ir");
  const a = useQuery({ ...workflowQueries.version(workflowId, leftId), enabled: leftId !== "" });
  const b = useQuery({ ...workflowQueries.version(workflowId, rightId), enabled: rightId !== "" });
  const rows = useMemo(() => {
    if (!a.data || !b.data) return [];
    return what === "ir"
      ? diffLines(JSON.stringify(withoutStamps(a.data.ir), null, 2), JSON.stringify(withoutStamps(b.data.ir), null, 2))
      : diffLines(a.data.code, b.data.code);
  }, [a.data, b.data, what]);
  const stats = diffStats(rows);
  const shown = useMemo(() => collapseSame(rows), [rows]);
  const summary = useMemo(() => (a.data && b.data ? nodeChanges(a.data.ir, b.data.ir) : []), [a.data, b.data]);
  return (
    <>
      <div className="segmented" role="group" aria-label="Compare what">
        <button type="button" aria-pressed={what === "ir"} onClick={() => setWhat("ir")}>
          IR
        </button>
        <button type="button" aria-pressed={what === "code"} onClick={() => setWhat("code")}>
          Generated code
        </button>
      </div>
      {(a.isPending || b.isPending) && <Loading what="the versions" />}
      <ErrorMessage error={a.error ?? b.error} />
      {a.data && b.data && (
        <>
          <p className="small muted" role="status">
            v{a.data.version} → v{b.data.version}: {stats.changed} changed, {stats.added} added, {stats.removed} removed
            lines
          </p>
          {summary.length > 0 && (
            <ul className="diff-summary" aria-label="Changed nodes">
              {summary.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          <div
            className="diff"
            tabIndex={0}
            role="region"
            aria-label={`Differences of the ${what === "ir" ? "IR" : "generated code"}`}
          >
            <table>
              <colgroup>
                <col className="ln" />
                <col />
                <col className="ln" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col" colSpan={2}>
                    v{a.data.version}
                  </th>
                  <th scope="col" colSpan={2}>
                    v{b.data.version}
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r, i) =>
                  r.kind === "gap" ? (
                    <tr key={i} className="diff-gap">
                      <td colSpan={4}>
                        {r.count} unchanged {r.count === 1 ? "line" : "lines"}
                      </td>
                    </tr>
                  ) : (
                    <tr key={i} className={`diff-${r.kind}`}>
                      <td className="ln">{r.left?.n ?? ""}</td>
                      <td className={r.left && r.kind !== "same" ? "del" : undefined}>
                        <pre>{r.left?.text ?? ""}</pre>
                      </td>
                      <td className="ln">{r.right?.n ?? ""}</td>
                      <td className={r.right && r.kind !== "same" ? "ins" : undefined}>
                        <pre>{r.right?.text ?? ""}</pre>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
