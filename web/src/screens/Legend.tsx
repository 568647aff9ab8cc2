// The legend panel: each legend entry with its exemplar (cut from its legend
// block's image), description, colour, count and a toggle.
import { useEffect, useRef } from "react";
import type { Connection } from "../api";
import type { Box } from "../detections";
import { fetchImage, useConnection } from "../hooks";
import type { Entry } from "../sheetdata";

// Block images decoded once per page view, shared by the entries of a legend.
const blockImages = new Map<string, Promise<ImageBitmap>>();

function blockImage(conn: Connection, blockID: string): Promise<ImageBitmap> {
  let p = blockImages.get(blockID);
  if (!p) {
    p = fetchImage(conn, `/v1/blocks/${encodeURIComponent(blockID)}/image`).then((b) => createImageBitmap(b));
    p.catch(() => blockImages.delete(blockID));
    blockImages.set(blockID, p);
  }
  return p;
}

/** Exemplar draws the entry's graphic (its bounds in block pixels) scaled into a 48 px square. */
function Exemplar({ blockID, bounds }: { blockID: string; bounds: Box }) {
  const conn = useConnection();
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let live = true;
    blockImage(conn, blockID).then(
      (img) => {
        const c = ref.current;
        const ctx = c?.getContext("2d");
        if (!live || !c || !ctx) return;
        const w = bounds.xMax - bounds.xMin;
        const h = bounds.yMax - bounds.yMin;
        const s = Math.min(c.width / w, c.height / h);
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, c.width, c.height);
        ctx.drawImage(img, bounds.xMin, bounds.yMin, w, h, (c.width - w * s) / 2, (c.height - h * s) / 2, w * s, h * s);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [conn, blockID, bounds]);
  return <canvas ref={ref} width={96} height={96} className="exemplar" />;
}

interface LegendProps {
  entries: Entry[];
  colors: ReadonlyMap<string, string>;
  counts: ReadonlyMap<string, number>;
  hidden: ReadonlySet<string>;
  onToggle: (id: string) => void;
  /** onCount lists the entry's instances (the count is a button when given). */
  onCount?: (id: string) => void;
  /** listed is the entry whose instances are listed. */
  listed?: string | null;
}

export function Legend({ entries, colors, counts, hidden, onToggle, onCount, listed }: LegendProps) {
  return (
    <aside className="legend" aria-label="Legend">
      <h2>Legend</h2>
      {entries.length === 0 && <p className="empty">No legend entries yet: “Find symbols” reads the legends and counts their symbols.</p>}
      <ul>
        {entries.map((e) => (
          <li key={e.id} className={(hidden.has(e.id) ? "off" : "") + (listed === e.id ? " listed" : "")}>
            <label>
              <input type="checkbox" checked={!hidden.has(e.id)} onChange={() => onToggle(e.id)} aria-label={`Show ${e.label}`} />
              <span className="swatch" style={{ background: colors.get(e.id) }} />
              {e.hasGraphic && e.blockID && e.bounds ? <Exemplar blockID={e.blockID} bounds={e.bounds} /> : <span className="exemplar none" />}
              <span className="entry">
                <strong>{e.label}</strong>
                <small>{e.description}</small>
              </span>
              {!onCount && (
                <span className="count" data-testid="entry-count">
                  {counts.get(e.id) ?? 0}
                </span>
              )}
            </label>
            {onCount && (
              <button
                type="button"
                className="count"
                data-testid="entry-count"
                aria-pressed={listed === e.id}
                aria-label={`List the ${counts.get(e.id) ?? 0} ${e.label} instances`}
                onClick={() => onCount(e.id)}
              >
                {counts.get(e.id) ?? 0}
              </button>
            )}
          </li>
        ))}
      </ul>
    </aside>
  );
}
