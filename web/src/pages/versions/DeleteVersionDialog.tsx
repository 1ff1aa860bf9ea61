import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { Version } from "../../api/models";
import { ConfirmDialog } from "../../app/fields";

// DeleteVersionDialog deletes a version after a confirmation; the server's refusal (the current, a deployed or a
// locked version) is shown in the dialog.
export function DeleteVersionDialog({
  workflowId,
  v,
  onClose,
  onDeleted,
}: {
  workflowId: string;
  v: Version;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const m = useMutation({
    mutationFn: () =>
      ok(api.DELETE("/api/workflows/{workflowId}/versions/{versionId}", { params: { path: { workflowId, versionId: v.id } } })),
    onSuccess: () => {
      onDeleted();
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete version ${v.version}?`}
      action="Delete version"
      danger
      failure="Not deleted"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>The version's IR and code are deleted; its number is never given again.</p>
    </ConfirmDialog>
  );
}
