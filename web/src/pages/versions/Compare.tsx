import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { diffLines, diffStats } from "../../api/diff";
import { workflowQueries } from "../../api/queries/workflows";
import { ErrorMessage, Loading } from "../../app/ui";

// Compare shows two versions side by side, their IR as indented JSON or their generated code, with line numbers
// and the changed, added and removed lines marked and counted.
export function Compare({ workflowId, leftId, rightId }: { workflowId: string; leftId: string; rightId: string }) {
  const [what, setWhat] = useState<"ir" | "code">("ir");
  const a = useQuery({ ...workflowQueries.version(workflowId, leftId), enabled: leftId !== "" });
  const b = useQuery({ ...workflowQueries.version(workflowId, rightId), enabled: rightId !== "" });
  const rows = useMemo(() => {
    if (!a.data || !b.data) return [];
    return what === "ir"
      ? diffLines(JSON.stringify(a.data.ir, null, 2), JSON.stringify(b.data.ir, null, 2))
      : diffLines(a.data.code, b.data.code);
  }, [a.data, b.data, what]);
  const stats = diffStats(rows);
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
                {rows.map((r, i) => (
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
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
