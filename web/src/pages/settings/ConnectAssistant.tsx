import { useMemo, useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../../api/forms";
import { apiKeyKeys, apiKeyQueries } from "../../api/queries/apiKeys";
import { useCursorList } from "../../api/queries/cursor";
import { mcpQueries } from "../../api/queries/mcp";
import { Field } from "../../app/fields";
import { Link } from "../../app/Link";
import { useSession } from "../../app/session";
import { ErrorMessage, Loading } from "../../app/ui";
import type { APIKey, MCPClientConfig } from "../../api/models";
import "./settings.css";

/** KEY_PLACEHOLDER stands where a key goes in the server's configurations (internal/mcp/connect.go). */
export const KEY_PLACEHOLDER = "<API key>";

/**
 * configText is a client's configuration as text, the key put where the placeholder stands when there is one to put
 * (a key just created on this page), else the placeholder left for the user to replace.
 */
export function configText(c: MCPClientConfig, key: string | null): string {
  const text = c.command ?? JSON.stringify(c.config ?? {}, null, 2);
  return key ? text.split(KEY_PLACEHOLDER).join(key) : text;
}

const transports: { value: string; label: string; hint: string }[] = [
  { value: "http", label: "HTTP", hint: "the assistant calls this server's /api/mcp with the key" },
  {
    value: "stdio",
    label: "stdio",
    hint: "the assistant starts the edgeflow CLI (edgeflow mcp), which calls this server",
  },
];

// ConnectAssistantPage shows how an AI coding assistant (Claude Code, Cursor, VS Code) reaches edgeflow's MCP
// server: the user picks a key (an existing one, named by its prefix, or one created here) and a client and
// transport, and copies the command or file. A key created here is written into the configurations for as long
// as the page is open and is kept nowhere else in the browser; an existing key is never shown (edgeflow stores
// only its hash), so its configuration keeps the placeholder.
export default function ConnectAssistantPage() {
  const connect = useQuery(mcpQueries.connect());
  const keys = useCursorList(apiKeyQueries.list());
  const usable = useMemo(
    () =>
      keys.items
        .filter((k) => !k.revokedAt && (k.expiresAt === null || new Date(k.expiresAt).getTime() > Date.now()))
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true })),
    [keys.items],
  );
  const [created, setCreated] = useState<{ id: string; name: string; key: string } | null>(null);
  const [chosen, setChosen] = useState("");
  const [client, setClient] = useState("Claude Code");
  const [transport, setTransport] = useState("http");
  const chosenKey: APIKey | undefined = usable.find((k) => k.id === chosen);
  const clients = connect.data ? [...new Set(connect.data.clients.map((c) => c.client))] : [];
  const config = connect.data?.clients.find((c) => c.client === client && c.transport === transport);
  const key = created && chosen === created.id ? created.key : null;

  return (
    <main className="page settings connect-assistant">
      <div className="page-head">
        <div>
          <h1>Connect an assistant</h1>
          <p className="muted">
            AI coding assistants build, check, deploy and debug workflows through edgeflow's MCP server, acting in this
            project with an API key's scopes. See docs/agents.md for the tools it offers.
          </p>
        </div>
      </div>

      <section aria-labelledby="connect-key">
        <h2 id="connect-key">1. The key the assistant uses</h2>
        {keys.isPending && <Loading what="API keys" />}
        <ErrorMessage error={keys.error} title="The API keys could not be loaded" />
        {keys.isSuccess && (
          <div className="field">
            <label htmlFor="connect-key-choice">API key</label>
            <select id="connect-key-choice" value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose a key…</option>
              {usable.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name} ({k.prefix}…, {k.scopes.join(", ")})
                </option>
              ))}
            </select>
          </div>
        )}
        {chosenKey && !key && (
          <p className="muted small" role="note">
            edgeflow keeps only a hash of <code>{chosenKey.prefix}…</code>: put the key where{" "}
            <code>{KEY_PLACEHOLDER}</code> stands below. A lost key cannot be shown again; create a new one.
          </p>
        )}
        {chosenKey && !chosenKey.scopes.includes("write") && (
          <p className="muted small">
            This key has only {chosenKey.scopes.join(", ")}: the assistant can look, but tools that change or deploy
            workflows answer that the key lacks their scope.
          </p>
        )}
        {key && (
          <p className="notice" role="note">
            <strong>
              The key {created!.name} is written into the configuration below only while this page is open.
            </strong>{" "}
            Copy it now: edgeflow stores only its hash. Manage keys under <Link href="/api-keys">API keys</Link>.
          </p>
        )}
        <NewKeyForm
          onCreated={(k) => {
            setCreated(k);
            setChosen(k.id);
          }}
        />
      </section>

      <section aria-labelledby="connect-client">
        <h2 id="connect-client">2. The assistant</h2>
        {connect.isPending && <Loading what="the MCP configuration" />}
        <ErrorMessage error={connect.error} title="The MCP configuration could not be loaded" />
        {connect.data && (
          <>
            <div>
              <fieldset className="choice">
                <legend>Assistant</legend>
                {clients.map((c) => (
                  <label key={c} className="radio">
                    <input
                      type="radio"
                      name="connect-client"
                      value={c}
                      checked={client === c}
                      onChange={() => setClient(c)}
                    />{" "}
                    {c}
                  </label>
                ))}
              </fieldset>
              <fieldset className="choice">
                <legend>Transport</legend>
                {transports.map((t) => (
                  <label key={t.value} className="radio">
                    <input
                      type="radio"
                      name="connect-transport"
                      value={t.value}
                      checked={transport === t.value}
                      onChange={() => setTransport(t.value)}
                    />{" "}
                    {t.label} <span className="muted small">— {t.hint}</span>
                  </label>
                ))}
              </fieldset>
            </div>
            <dl className="connect-endpoint">
              <dt>MCP endpoint</dt>
              <dd>
                <code>{connect.data.url}</code>
              </dd>
              <dt>stdio command</dt>
              <dd>
                <code>{[connect.data.stdio.command, ...connect.data.stdio.args].join(" ")}</code>{" "}
                <span className="muted small">
                  with {Object.keys(connect.data.stdio.env).join(" and ")} set (or after <code>edgeflow login</code>)
                </span>
              </dd>
            </dl>
            {config && (
              <CopyBlock
                id="connect-config"
                label={config.command ? `Run in a terminal` : `Add to ${config.file ?? "the configuration file"}`}
                text={configText(config, key)}
              />
            )}
            {config && client === "VS Code" && (
              <p className="muted small">
                VS Code asks for the key when it first starts the server and keeps it itself.
              </p>
            )}
          </>
        )}
      </section>
    </main>
  );
}

// CopyBlock shows a command or a file's text, read-only, with a Copy button.
function CopyBlock({ id, label, text }: { id: string; label: string; text: string }) {
  const [copied, setCopied] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("The browser did not allow copying: select the text and copy it by hand.");
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="copy-block"
        readOnly
        spellCheck={false}
        value={text}
        rows={Math.min(18, text.split("\n").length + 1)}
      />
      <div className="copy-row">
        <button type="button" className="primary" onClick={() => void copy()} aria-describedby={`${id}-status`}>
          Copy
        </button>
        <p id={`${id}-status`} className="muted small" role="status">
          {copied}
        </p>
      </div>
    </div>
  );
}

// NewKeyForm creates a key for the assistant (read, write and deploy in the active project, 90 days). The key is
// handed to the page, not put in the query cache.
function NewKeyForm({ onCreated }: { onCreated: (k: { id: string; name: string; key: string }) => void }) {
  const qc = useQueryClient();
  const session = useSession().data!;
  const [name, setName] = useState("AI assistant");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = validateName(name);
    setErrors(n ? { name: n } : {});
    setFailure(null);
    if (n) return;
    setPending(true);
    try {
      const answer = await ok(
        api.POST("/api/api-keys", {
          body: {
            name: name.trim(),
            scopes: ["read", "write", "deploy"],
            projectId: session.activeProjectId,
            expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
          },
        }),
      );
      onCreated({ id: answer.id, name: answer.name, key: answer.key });
      void qc.invalidateQueries({ queryKey: apiKeyKeys.all });
    } catch (er) {
      setErrors(fieldErrors(er, ["name"]));
      setFailure(er);
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className="connect-new-key"
      aria-label="New key for the assistant"
    >
      <p className="muted small">Or create a key for it: read, write and deploy in this project, for 90 days.</p>
      <div className="copy-row">
        <Field id="connect-key-name" label="New key's name" value={name} onChange={setName} error={errors.name} />
        <button type="submit" disabled={pending}>
          Create key
        </button>
      </div>
      {errors[""] && <ErrorMessage error={failure} title="Not created" />}
    </form>
  );
}
