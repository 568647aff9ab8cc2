// The instances behind a legend entry's count: listed top to bottom, left to
// right on the sheet; a click (or Previous / Next) zooms the viewer to one.
import type { Detection } from "../detections";

/** readingOrder sorts detections as a sheet is read: rows of similar height top to bottom, then left to right. */
export function readingOrder(ds: readonly Detection[]): Detection[] {
  if (ds.length === 0) return [];
  const rowH = Math.max(1, median(ds.map((d) => d.box.yMax - d.box.yMin)));
  return [...ds].sort((a, b) => Math.floor(a.box.yMin / rowH) - Math.floor(b.box.yMin / rowH) || a.box.xMin - b.box.xMin || a.box.yMin - b.box.yMin);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Props {
  label: string;
  instances: Detection[];
  current: string | null;
  onZoom: (d: Detection) => void;
  /** onSimilar asks which legend symbols the instance's region shows, across the project. */
  onSimilar?: (d: Detection) => void;
  onClose: () => void;
}

export function Instances({ label, instances, current, onZoom, onSimilar, onClose }: Props) {
  const i = instances.findIndex((d) => d.id === current);
  const step = (by: number) => {
    if (!instances.length) return;
    onZoom(instances[(i + by + instances.length) % instances.length]);
  };
  return (
    <aside className="instances" aria-label={`${label} instances`} data-testid="instances">
      <div className="inline">
        <h2>
          {label}: {instances.length}
        </h2>
        <button type="button" onClick={() => step(-1)} disabled={!instances.length}>
          Previous
        </button>
        <button type="button" onClick={() => step(1)} disabled={!instances.length}>
          Next
        </button>
        {onSimilar && (
          <button type="button" onClick={() => i >= 0 && onSimilar(instances[i])} disabled={i < 0} title="Which legend symbols this instance looks like, and their instances across the project">
            Find similar
          </button>
        )}
        <button type="button" onClick={onClose} aria-label="Close the instance list">
          ×
        </button>
      </div>
      {instances.length === 0 && <p className="empty">No instance shown: the entry is hidden or under the confidence threshold.</p>}
      <ol>
        {instances.map((d, n) => (
          <li key={d.id}>
            <button type="button" className="instance" aria-current={d.id === current ? "true" : undefined} onClick={() => onZoom(d)} data-testid="instance">
              #{n + 1} at {Math.round(d.box.xMin)}, {Math.round(d.box.yMin)} · {(d.confidence * 100).toFixed(0)} %
            </button>
          </li>
        ))}
      </ol>
    </aside>
  );
}
