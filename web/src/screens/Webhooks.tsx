// Webhook settings: the organization's endpoints; create one (its signing
// secret shown once), enable or disable it, rotate its secret (the new one
// shown once), delete it, and read its delivery log, where a delivery can be
// sent again.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";

/** EndpointFields is what an endpoint row shows. */
export const EndpointFields = graphql(`
  fragment EndpointFields on WebhookEndpoint {
    id
    url
    description
    events
    enabled
    createdAt
    previousSecretExpiresAt
  }
`);

const EndpointsQ = graphql(`
  query WebhookEndpoints {
    webhookEndpoints(first: 100, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      edges {
        node {
          ...EndpointFields
        }
      }
    }
    webhookEventTypes
  }
`);

const DeliveriesQ = graphql(`
  query WebhookDeliveries($id: ID!) {
    webhookEndpoint(id: $id) {
      id
      deliveries(first: 50) {
        totalCount
        edges {
          node {
            id
            createdAt
            eventID
            eventType
            attempt
            manual
            status
            responseStatus
            error
            latencyMs
            nextAttemptAt
          }
        }
      }
    }
  }
`);

const CreateM = graphql(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      endpoint {
        ...EndpointFields
      }
      secret
    }
  }
`);

const UpdateM = graphql(`
  mutation UpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) {
      ...EndpointFields
    }
  }
`);

const DeleteM = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);

const RotateM = graphql(`
  mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookEndpointSecret(id: $id) {
      endpoint {
        ...EndpointFields
      }
      secret
    }
  }
`);

const RedeliverM = graphql(`
  mutation Redeliver($endpointID: ID!, $deliveryID: ID!) {
    redeliverWebhook(endpointID: $endpointID, deliveryID: $deliveryID) {
      eventID
      queuedAt
    }
  }
`);

export function Webhooks() {
  const [{ data, error }, refetch] = useQuery({ query: EndpointsQ });
  const [created, create] = useMutation(CreateM);
  const [url, setURL] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [secret, setSecret] = useState<{ endpoint: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const endpoints = data.webhookEndpoints.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const r = await create({ input: { url, description: description || null, events: [...events] } });
    if (r.data) {
      setSecret({ endpoint: r.data.createWebhookEndpoint.endpoint.url, secret: r.data.createWebhookEndpoint.secret });
      setURL("");
      setDescription("");
      setEvents(new Set());
      refetch({ requestPolicy: "network-only" });
    }
  }

  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a> / <span>Webhooks</span>
      </nav>
      <h1>Webhooks</h1>
      {secret && <SecretOnce {...secret} onDone={() => setSecret(null)} />}
      <form className="webhook-form" onSubmit={submit}>
        <h2>New endpoint</h2>
        <div className="inline">
          <input aria-label="Endpoint URL" type="url" required placeholder="https://example.com/plangraph" value={url} onChange={(e) => setURL(e.target.value)} />
          <input aria-label="Description" placeholder="Description (optional)" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <fieldset className="events">
          <legend>Events (none chosen: every event)</legend>
          {data.webhookEventTypes.map((t) => (
            <label key={t}>
              <input
                type="checkbox"
                checked={events.has(t)}
                onChange={() =>
                  setEvents((s) => {
                    const n = new Set(s);
                    if (n.has(t)) n.delete(t);
                    else n.add(t);
                    return n;
                  })
                }
              />{" "}
              {t}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={created.fetching}>
          Create endpoint
        </button>
        {created.error && <p className="error" role="alert">{errorMessage(created.error)}</p>}
      </form>
      <h2>Endpoints</h2>
      {endpoints.length === 0 && <p className="empty">No endpoint yet.</p>}
      <ul className="endpoints">
        {endpoints.map((e) => (
          <Endpoint key={e.id} e={e} open={open === e.id} onOpen={() => setOpen(open === e.id ? null : e.id)} onSecret={setSecret} onGone={() => refetch({ requestPolicy: "network-only" })} />
        ))}
      </ul>
    </section>
  );
}

/** SecretOnce shows a signing secret that the server returns only this once. */
function SecretOnce({ endpoint, secret, onDone }: { endpoint: string; secret: string; onDone: () => void }) {
  return (
    <div className="secret" role="status">
      <p>
        The signing secret of <strong>{endpoint}</strong>. Copy it now: it is not shown again.
      </p>
      <code data-testid="secret">{secret}</code>{" "}
      <button type="button" onClick={() => void navigator.clipboard?.writeText(secret)}>
        Copy
      </button>{" "}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

interface EndpointRow {
  id: string;
  url: string;
  description?: string | null;
  events?: string[] | null;
  enabled: boolean;
  createdAt: string;
  previousSecretExpiresAt?: string | null;
}

function Endpoint({ e, open, onOpen, onSecret, onGone }: { e: EndpointRow; open: boolean; onOpen: () => void; onSecret: (s: { endpoint: string; secret: string }) => void; onGone: () => void }) {
  const [updated, update] = useMutation(UpdateM);
  const [rotated, rotate] = useMutation(RotateM);
  const [deleted, del] = useMutation(DeleteM);
  const failure = updated.error ?? rotated.error ?? deleted.error;
  return (
    <li data-testid="endpoint">
      <div className="inline">
        <strong className="url">{e.url}</strong>
        <span className={`status ${e.enabled ? "ready" : ""}`}>{e.enabled ? "enabled" : "disabled"}</span>
        <small className="hint">{e.events?.length ? e.events.join(", ") : "every event"}</small>
      </div>
      {e.description && <p className="hint">{e.description}</p>}
      {e.previousSecretExpiresAt && <p className="hint">The previous secret also signs until {new Date(e.previousSecretExpiresAt).toLocaleString()}.</p>}
      <div className="inline">
        <button type="button" aria-expanded={open} onClick={onOpen}>
          Deliveries
        </button>
        <button type="button" disabled={updated.fetching} onClick={() => update({ id: e.id, input: { enabled: !e.enabled } })}>
          {e.enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          disabled={rotated.fetching}
          onClick={async () => {
            const r = await rotate({ id: e.id });
            if (r.data) onSecret({ endpoint: e.url, secret: r.data.rotateWebhookEndpointSecret.secret });
          }}
        >
          Rotate secret
        </button>
        <button
          type="button"
          className="danger"
          disabled={deleted.fetching}
          onClick={async () => {
            if (!window.confirm(`Delete the endpoint ${e.url} and its delivery log?`)) return;
            const r = await del({ id: e.id });
            if (r.data) onGone();
          }}
        >
          Delete
        </button>
      </div>
      {failure && <p className="error" role="alert">{errorMessage(failure)}</p>}
      {open && <Deliveries endpointID={e.id} />}
    </li>
  );
}

function Deliveries({ endpointID }: { endpointID: string }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DeliveriesQ, variables: { id: endpointID }, requestPolicy: "network-only" });
  const [redelivered, redeliver] = useMutation(RedeliverM);
  const [queued, setQueued] = useState("");
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const ds = data.webhookEndpoint?.deliveries.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <div className="deliveries">
      <div className="inline">
        <span data-testid="delivery-count">{data.webhookEndpoint?.deliveries.totalCount ?? 0} delivery attempts</span>
        <button type="button" disabled={fetching} onClick={() => refetch({ requestPolicy: "network-only" })}>
          Refresh
        </button>
        {queued && <span role="status">{queued}</span>}
      </div>
      {redelivered.error && <p className="error" role="alert">{errorMessage(redelivered.error)}</p>}
      {ds.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th>When</th>
              <th>Event</th>
              <th>Attempt</th>
              <th>Result</th>
              <th>Latency</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {ds.map((d) => (
              <tr key={d.id} data-testid="delivery" data-status={d.status}>
                <td>{new Date(d.createdAt).toLocaleString()}</td>
                <td>
                  {d.eventType} <small className="hint">{d.eventID}</small>
                </td>
                <td>
                  {d.attempt}
                  {d.manual ? " (manual)" : ""}
                </td>
                <td>
                  <span className={`status ${d.status === "succeeded" ? "ready" : d.status === "failed" ? "failed" : ""}`}>{d.status}</span> {d.responseStatus ? `HTTP ${d.responseStatus}` : ""}
                  {d.error && <div className="hint">{d.error}</div>}
                  {d.nextAttemptAt && <div className="hint">next attempt {new Date(d.nextAttemptAt).toLocaleTimeString()}</div>}
                </td>
                <td>{d.latencyMs} ms</td>
                <td>
                  <button
                    type="button"
                    disabled={redelivered.fetching}
                    onClick={async () => {
                      const r = await redeliver({ endpointID, deliveryID: d.id });
                      if (r.data) {
                        setQueued(`${d.eventType} queued again`);
                        refetch({ requestPolicy: "network-only" });
                      }
                    }}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
