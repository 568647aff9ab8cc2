// A sheet in deep zoom (OpenSeadragon on the sheet's DZI tiles, fetched with
// the key) with its blocks outlined, its legend, and the symbols found on it
// drawn on one canvas above the viewer (not a DOM node per detection).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import OpenSeadragon from "openseadragon";
import { useClient, useMutation, useQuery, useSubscription } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import { useConnection } from "../hooks";
import { href } from "../route";
import { countByEntry, countsCSV, downloadText, drawDetections, entryColor, hitTest, visible, type Box, type Detection, type Transform } from "../detections";
import { loadDetections, loadEntries, type Entry } from "../sheetdata";
import { Legend } from "./Legend";
import { clearCanvas, imageTransform, openViewer, pointerToImage, ZoomButtons } from "../viewer";
import { Instances, readingOrder } from "./Instances";
import { Similar } from "./Similar";
import { zoomBox } from "../compare";
import { JobEvents, JobUpdated } from "../operations";

const SheetQ = graphql(`
  query Sheet($id: ID!) {
    sheet(id: $id) {
      id
      sheetNumber
      title
      discipline
      revision
      width
      height
      drawing {
        id
        name
        projectID
      }
      blocks(first: 100) {
        edges {
          node {
            id
            type
            title
            bounds {
              ...BoxFields
            }
          }
        }
      }
      legendEntries(first: 100) {
        edges {
          node {
            ...LegendEntryFields
          }
        }
      }
    }
  }
`);

const ParseM = graphql(`
  mutation FindSymbols($sheetID: ID!) {
    parse(input: { features: ["symbols"], sheetID: $sheetID }) {
      id
      status
    }
  }
`);

interface BlockRow {
  id: string;
  type: string;
  title: string;
  bounds: Box;
}

export function SheetViewer({ id, focus }: { id: string; focus?: [number, number, number, number] }) {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: SheetQ, variables: { id } });
  const sheet = data?.sheet;
  const blocks: BlockRow[] = useMemo(() => sheet?.blocks.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [], [sheet]);
  const blockBounds = useMemo(() => new Map(blocks.map((b) => [b.id, b.bounds])), [blocks]);
  const ownEntries: Entry[] = useMemo(() => sheet?.legendEntries.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [], [sheet]);

  const [detections, setDetections] = useState<Detection[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [otherEntries, setOtherEntries] = useState<Entry[]>([]);
  const [loadError, setLoadError] = useState("");
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [threshold, setThreshold] = useState(0);
  const [showBlocks, setShowBlocks] = useState(true);
  const [jobID, setJobID] = useState<string | null>(null);
  const [parse, startParse] = useMutation(ParseM);
  const [listed, setListed] = useState<string | null>(null);
  const [target, setTarget] = useState<Detection | null>(null);
  const [similar, setSimilar] = useState<Detection | null>(null);

  // loads run one after another's start (a block finished, the parse ended,
  // the sheet refetched): only the latest one's answer is kept
  const generation = useRef(0);
  const reload = useCallback(async () => {
    if (!sheet) return;
    const gen = ++generation.current;
    try {
      const r = await loadDetections(client, sheet.id, blockBounds);
      const known = new Set(ownEntries.map((e) => e.id));
      const missing = [...new Set(r.detections.map((d) => d.entryID))].filter((x) => x && !known.has(x));
      const others = await loadEntries(client, missing);
      if (gen !== generation.current) return;
      setOtherEntries(others);
      setDetections(r.detections);
      setTotal(r.total);
      setLoadError("");
    } catch (e) {
      if (gen === generation.current) setLoadError(errorMessage(e as Error));
    }
  }, [client, sheet, blockBounds, ownEntries]);
  useEffect(() => void reload(), [reload]);
  const latestReload = useRef(reload);
  latestReload.current = reload;

  const entries = useMemo(() => {
    const own = new Set(ownEntries.map((e) => e.id));
    return [...ownEntries, ...otherEntries.filter((e) => !own.has(e.id))];
  }, [ownEntries, otherEntries]);
  const colors = useMemo(() => new Map(entries.map((e, i) => [e.id, entryColor(i)])), [entries]);
  const shown = useMemo(() => visible(detections, hidden, threshold), [detections, hidden, threshold]);
  const counts = useMemo(() => countByEntry(shown), [shown]);
  const instances = useMemo(() => (listed ? readingOrder(shown.filter((d) => d.entryID === listed)) : []), [shown, listed]);

  function exportCSV() {
    if (!sheet) return;
    const rows = entries.map((e) => ({ id: e.id, label: e.label, description: e.description, count: counts.get(e.id) ?? 0 }));
    downloadText(countsCSV([{ sheet, rows }]), "text/csv", `${sheet.sheetNumber || sheet.id}-counts.csv`);
  }

  async function findSymbols() {
    const r = await startParse({ sheetID: id });
    if (r.data) setJobID(r.data.parse.id);
  }

  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  if (!sheet) return <p className="error" role="alert">No such sheet.</p>;
  return (
    <section className="viewer-screen">
      <nav className="crumbs">
        <a href={href({ screen: "drawing", id: sheet.drawing.id })}>{sheet.drawing.name}</a> / <span>{sheet.sheetNumber}</span>
      </nav>
      <h1>
        {sheet.sheetNumber} <span className="title">{sheet.title}</span>{" "}
        <small>
          {sheet.discipline || "—"} · rev {sheet.revision || "—"}
        </small>
      </h1>
      <div className="toolbar inline">
        <button type="button" onClick={findSymbols} disabled={parse.fetching || jobID !== null}>
          Find symbols
        </button>
        <label>
          <input type="checkbox" checked={showBlocks} onChange={(e) => setShowBlocks(e.target.checked)} /> Blocks
        </label>
        <label>
          Confidence ≥ <output>{Math.round(threshold * 100)} %</output>
          <input type="range" min={0} max={1} step={0.01} value={threshold} onChange={(e) => setThreshold(Number(e.target.value))} aria-label="Confidence threshold" />
        </label>
        <span data-testid="detection-count" data-total={total ?? ""} data-shown={shown.length}>
          {total === null ? "" : `${shown.length} of ${total} detections`}
        </span>
        <button type="button" onClick={exportCSV} disabled={entries.length === 0}>
          Export CSV
        </button>
      </div>
      {parse.error && <p className="error" role="alert">{errorMessage(parse.error)}</p>}
      {loadError && <p className="error" role="alert">{loadError}</p>}
      {jobID && (
        <ParseProgress
          jobID={jobID}
          onBlock={() => latestReload.current()}
          onEnd={() => {
            // the refetched sheet (its legend entries now read) reloads the detections
            refetch({ requestPolicy: "network-only" });
            void latestReload.current();
            setJobID(null);
          }}
        />
      )}
      <div className="viewer-body">
        <DeepZoom sheet={sheet} blocks={showBlocks ? blocks : []} detections={shown} colors={colors} focus={focus} target={target} />
        <div className="side-panels">
          {listed && (
            <Instances
              label={entries.find((e) => e.id === listed)?.label ?? ""}
              instances={instances}
              current={target?.id ?? null}
              onZoom={setTarget}
              onSimilar={setSimilar}
              onClose={() => {
                setListed(null);
                setTarget(null);
              }}
            />
          )}
          {similar && <Similar projectID={sheet.drawing.projectID} sheetID={sheet.id} box={similar.box} onClose={() => setSimilar(null)} />}
          <Legend
            listed={listed}
            onCount={(eid) => {
              setListed(eid === listed ? null : eid);
              setTarget(null);
            }}
            entries={entries}
            colors={colors}
            counts={counts}
            hidden={hidden}
            onToggle={(eid) =>
              setHidden((h) => {
                const n = new Set(h);
                if (n.has(eid)) n.delete(eid);
                else n.add(eid);
                return n;
              })
            }
          />
        </div>
      </div>
    </section>
  );
}

/** ParseProgress follows a parse job: onBlock after each view block's result, onEnd when it ends. */
function ParseProgress({ jobID, onBlock, onEnd }: { jobID: string; onBlock: () => void; onEnd: () => void }) {
  const [job] = useSubscription({ query: JobUpdated, variables: { id: jobID } });
  const [ev] = useSubscription({ query: JobEvents, variables: { id: jobID } });
  const j = job.data?.jobUpdated;
  const last = ev.data?.jobEvents;
  const ended = j && (j.status === "Completed" || j.status === "Failed" || j.status === "Canceled");
  const [endedOnce, setEnded] = useState(false);
  useEffect(() => {
    if (last?.type === "parse.block.completed") onBlock();
  }, [last?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (ended && !endedOnce) {
      setEnded(true);
      onEnd();
    }
  }, [ended, endedOnce, onEnd]);
  return (
    <div className="processing" data-status={j?.status ?? "Queued"}>
      <span>Finding symbols: {j?.status ?? "Queued"}</span> <progress max={100} value={Math.round((j?.progress ?? 0) * 100)} aria-label="Parse progress" />
      {j?.error && <p className="error" role="alert">{j.error.message}</p>}
      {(job.error || ev.error) && <p className="error" role="alert">{errorMessage(job.error ?? ev.error)}</p>}
    </div>
  );
}

interface DeepZoomProps {
  sheet: { id: string; width: number; height: number };
  blocks: BlockRow[];
  detections: Detection[];
  colors: ReadonlyMap<string, string>;
  focus?: [number, number, number, number];
  /** target is the instance zoomed to and outlined (from the instance list). */
  target?: Detection | null;
}

/** DeepZoom is the OpenSeadragon viewer with the outlines and detections canvas on top. */
function DeepZoom({ sheet, blocks, detections, colors, focus, target }: DeepZoomProps) {
  const conn = useConnection();
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  const [tileError, setTileError] = useState("");
  const drawRef = useRef<() => void>(() => {});

  const transform = useCallback((): Transform | null => {
    const v = viewer.current;
    if (!v || !v.world.getItemCount()) return null;
    return imageTransform((p) => v.viewport.imageToViewerElementCoordinates(p), sheet.width);
  }, [sheet.width]);

  drawRef.current = () => {
    const ctx = clearCanvas(canvas.current, host.current)?.ctx;
    if (!ctx) return;
    const t = transform();
    if (!t) return;
    ctx.font = "12px system-ui, sans-serif";
    for (const b of blocks) {
      const x = b.bounds.xMin * t.scale + t.dx;
      const y = b.bounds.yMin * t.scale + t.dy;
      ctx.strokeStyle = "rgba(30, 90, 200, 0.8)";
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 4]);
      ctx.strokeRect(x, y, (b.bounds.xMax - b.bounds.xMin) * t.scale, (b.bounds.yMax - b.bounds.yMin) * t.scale);
      ctx.setLineDash([]);
      const label = b.title ? `${b.type}: ${b.title}` : b.type;
      const tw = ctx.measureText(label).width;
      ctx.fillStyle = "rgba(30, 90, 200, 0.85)";
      ctx.fillRect(x, y - 16, tw + 8, 16);
      ctx.fillStyle = "#fff";
      ctx.fillText(label, x + 4, y - 4);
    }
    drawDetections(ctx, detections, t, colors);
    if (target) {
      const b = target.box;
      ctx.lineWidth = 3;
      ctx.strokeStyle = "#f0a400";
      ctx.strokeRect(b.xMin * t.scale + t.dx - 4, b.yMin * t.scale + t.dy - 4, (b.xMax - b.xMin) * t.scale + 8, (b.yMax - b.yMin) * t.scale + 8);
    }
  };

  useEffect(() => {
    if (!host.current) return;
    const auth = { Authorization: `Bearer ${conn.key}` };
    const redraw = () => drawRef.current();
    const v = openViewer(host.current, { loadTilesWithAjax: true, ajaxHeaders: auth, maxZoomPixelRatio: 2 }, redraw);
    viewer.current = v;
    // added with its own headers: OpenSeadragon 5 fetches a descriptor
    // named by URL with the tiled image's headers only, not the viewer's
    v.addTiledImage({
      tileSource: `/v1/sheets/${encodeURIComponent(sheet.id)}/tiles.dzi`,
      ajaxHeaders: auth,
      success: () => {
        if (focus) {
          const [x0, y0, x1, y1] = focus;
          const pad = Math.max(x1 - x0, y1 - y0) * 0.5;
          v.viewport.fitBounds(v.viewport.imageToViewportRectangle(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), true);
        }
        redraw();
      },
      error: (e: { message?: string }) => setTileError(`The sheet's tiles could not be opened: ${e.message ?? "unknown error"}`),
    });
    return () => {
      v.destroy();
      viewer.current = null;
    };
  }, [conn.key, sheet.id, focus]);

  useEffect(() => drawRef.current(), [blocks, detections, colors, target]);

  // an instance chosen in the list: zoomed to, with room around it
  useEffect(() => {
    const v = viewer.current;
    if (!v || !target || !v.world.getItemCount()) return;
    const z = zoomBox(target.box, 150);
    v.viewport.fitBounds(v.viewport.imageToViewportRectangle(z.xMin, z.yMin, z.xMax - z.xMin, z.yMax - z.yMin));
  }, [target]);

  function hover(ev: React.MouseEvent) {
    const p = pointerToImage(ev, host.current, transform());
    if (!p) return;
    const d = hitTest(detections, p.x, p.y);
    setTip(d ? { x: p.left + 12, y: p.top + 12, text: `confidence ${(d.confidence * 100).toFixed(0)} %` } : null);
  }


  return (
    <div className="deepzoom" onMouseMove={hover} onMouseLeave={() => setTip(null)}>
      <div ref={host} className="osd" data-testid="viewer" />
      <canvas ref={canvas} className="overlay" />
      <ZoomButtons viewer={viewer} home="Whole sheet" />
      {tip && (
        <div className="tip" style={{ left: tip.x, top: tip.y }}>
          {tip.text}
        </div>
      )}
      {tileError && <p className="error" role="alert">{tileError}</p>}
    </div>
  );
}
