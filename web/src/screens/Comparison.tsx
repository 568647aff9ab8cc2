// A comparison: the compare job followed live, then its overlays (one per
// block pair: sheet, block, change counts), the chosen overlay in the
// overlay viewer with its change list (a click zooms to the change), and the
// report (Markdown, PDF, the newer drawing marked up with clouds).
import { useEffect, useMemo, useState } from "react";
import { useClient, useQuery, useSubscription, type Client } from "urql";
import { errorMessage } from "../api";
import { countBy, sortChanges, summaryText, type ChangeRow } from "../compare";
import type { ResultOf } from "@graphql-typed-document-node/core";
import { graphql } from "../gql";
import { download, useConnection } from "../hooks";
import { JobUpdated } from "../operations";
import { href } from "../route";
import { OverlayViewer } from "./OverlayViewer";

const ComparisonQ = graphql(`
  query Comparison($id: ID!) {
    job(id: $id) {
      id
      type
      status
      progress
      projectID
      targetType
      createdAt
      completedAt
      error {
        code
        message
      }
    }
  }
`);

// pages of 40 overlays keep a query under the API's complexity limit
const OverlaysQ = graphql(`
  query ComparisonOverlays($id: ID!, $after: Cursor) {
    overlays(first: 40, after: $after, where: { jobID: $id }, orderBy: [{ field: CREATED_AT, direction: ASC }]) {
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          score
          registered
          warnings
          transform {
            scale
            rotationDeg
            residualPx
          }
          blockA {
            ...OverlayBlock
          }
          blockB {
            ...OverlayBlock
          }
          changes {
            id
            kind
            category
            description
            severity
            confidence
            bounds {
              ...BoxFields
            }
          }
        }
      }
    }
  }
  fragment OverlayBlock on Block {
    id
    type
    title
    sheet {
      id
      sheetNumber
      title
      drawing {
        id
        name
      }
    }
  }
`);

type OverlayRow = NonNullable<NonNullable<NonNullable<ResultOf<typeof OverlaysQ>["overlays"]["edges"]>[number]>["node"]>;

/** loadOverlays reads every overlay the compare job made, page by page. */
async function loadOverlays(client: Client, jobID: string): Promise<OverlayRow[]> {
  const out: OverlayRow[] = [];
  let after: string | null | undefined;
  for (;;) {
    const r = await client.query(OverlaysQ, { id: jobID, after }, { requestPolicy: "network-only" }).toPromise();
    if (r.error) throw r.error;
    const c = r.data?.overlays;
    if (!c) break;
    out.push(...(c.edges ?? []).flatMap((e) => (e?.node ? [e.node] : [])));
    if (!c.pageInfo.hasNextPage) break;
    after = c.pageInfo.endCursor;
  }
  return out;
}

const ended = (s?: string) => s === "Completed" || s === "Failed" || s === "Canceled";

export function Comparison({ id, overlay }: { id: string; overlay?: string }) {
  const conn = useConnection();
  const client = useClient();
  const [overlays, setOverlays] = useState<OverlayRow[]>([]);
  const [loadError, setLoadError] = useState("");
  const [{ data, error }, refetch] = useQuery({ query: ComparisonQ, variables: { id } });
  const [live] = useSubscription({ query: JobUpdated, variables: { id }, pause: !data?.job || ended(data.job.status) });
  const [selected, setSelected] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState("");
  const status = live.data?.jobUpdated.status ?? data?.job?.status;
  useEffect(() => {
    // the job ended while watched: its overlays and changes are stored
    if (live.data && ended(live.data.jobUpdated.status)) refetch({ requestPolicy: "network-only" });
  }, [live.data?.jobUpdated.status]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!ended(data?.job?.status)) return;
    let live = true;
    loadOverlays(client, id).then(
      (os) => live && (setOverlays(os), setLoadError("")),
      (e: Error) => live && setLoadError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [client, id, data?.job?.status]);
  const allChanges = useMemo(() => overlays.flatMap((o) => o.changes ?? []), [overlays]);
  const current = overlays.find((o) => o.id === overlay) ?? overlays.find((o) => (o.changes?.length ?? 0) > 0) ?? overlays[0];
  const changes: ChangeRow[] = useMemo(() => sortChanges(current?.changes ?? []), [current]);
  useEffect(() => setSelected(null), [current?.id]);

  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const job = data.job;
  if (!job) return <p className="error" role="alert">No such comparison.</p>;
  const j = live.data?.jobUpdated ?? job;
  const done = status === "Completed" && data.job?.status === "Completed";

  async function get(file: string) {
    setDownloadError("");
    try {
      await download(conn, `/v1/jobs/${encodeURIComponent(id)}/${file}`, `${id.replace(/^job_/, "")}-${file}`);
    } catch (e) {
      setDownloadError((e as Error).message);
    }
  }

  return (
    <section className="compare-screen">
      <nav className="crumbs">
        <a href="#/">Projects</a> / {job.projectID && <a href={href({ screen: "compare", projectID: job.projectID })}>Compare</a>} / <span>{id}</span>
      </nav>
      <h1>
        Comparison <small>{job.targetType ?? ""}</small>
      </h1>
      {!done && (
        <div className="processing" data-status={status}>
          <span>Comparing: {status}</span> <progress max={100} value={Math.round((j.progress ?? 0) * 100)} aria-label="Compare progress" />
          {j.error && <p className="error" role="alert">{j.error.message}</p>}
          {live.error && <p className="error" role="alert">{errorMessage(live.error)}</p>}
        </div>
      )}
      {done && (
        <div className="toolbar inline">
          <span data-testid="change-count" data-total={allChanges.length} data-overlays={overlays.length}>
            {allChanges.length} changes in {overlays.length} block pairs{allChanges.length ? `: ${summaryText(countBy(allChanges, "kind"))}` : ""}
          </span>
          <button type="button" onClick={() => get("report.pdf")}>
            Report (PDF)
          </button>
          <button type="button" onClick={() => get("report.md")}>
            Report (Markdown)
          </button>
          <button type="button" onClick={() => get("markup.pdf")}>
            Marked-up drawing
          </button>
        </div>
      )}
      {loadError && <p className="error" role="alert">{loadError}</p>}
      {downloadError && <p className="error" role="alert">{downloadError}</p>}
      {done && overlays.length === 0 && <p className="empty">No block pair was compared.</p>}
      {current && (
        <div className="compare-body">
          <nav className="pairs" aria-label="Block pairs">
            <h2>Block pairs</h2>
            <ul>
              {overlays.map((o) => (
                <li key={o.id}>
                  <a href={href({ screen: "comparison", id, overlay: o.id })} aria-current={o.id === current.id ? "true" : undefined}>
                    <strong>{o.blockB.sheet.sheetNumber || o.blockB.sheet.title}</strong> {o.blockB.title || o.blockB.type}
                    <small>
                      {o.blockB.title ? `${o.blockB.type} · ` : ""}
                      {(o.changes?.length ?? 0) === 1 ? "1 change" : `${o.changes?.length ?? 0} changes`}
                      {o.registered ? "" : " · not registered"}
                    </small>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <OverlayViewer overlayID={current.id} changes={changes} selected={selected} onSelect={setSelected} />
          <aside className="changes" aria-label="Changes">
            <h2>Changes</h2>
            <p className="hint">
              A: {current.blockA.sheet.drawing.name} {current.blockA.sheet.sheetNumber} · B: {current.blockB.sheet.drawing.name} {current.blockB.sheet.sheetNumber}
              {current.transform && ` · aligned ×${current.transform.scale.toFixed(3)}, ${current.transform.rotationDeg.toFixed(1)}°, residual ${current.transform.residualPx.toFixed(1)} px`}
            </p>
            {(current.warnings ?? []).map((w) => (
              <p key={w} className="hint">
                ⚠ {w}
              </p>
            ))}
            {changes.length === 0 && <p className="empty">No change found between these blocks.</p>}
            <ol>
              {changes.map((c) => (
                <li key={c.id}>
                  <button type="button" className={`change ${c.kind}`} aria-pressed={c.id === selected} onClick={() => setSelected(c.id)} data-testid="change">
                    <span className={`tag ${c.severity}`}>{c.severity}</span> <strong>{c.kind}</strong> {c.category.replace(/_/g, " ")}
                    <small>{c.description}</small>
                  </button>
                </li>
              ))}
            </ol>
          </aside>
        </div>
      )}
    </section>
  );
}
