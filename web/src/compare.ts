// Pure functions behind the compare screens: ordering and counting an
// overlay's changes, where the swipe slider cuts the newer image, the box a
// change is zoomed to, and what a compare request needs. Kept apart from the
// screens so that they are unit-tested without a browser.
import type { Box } from "./detections";

/** A change of an overlay, as the change list shows it (bounds in B's block pixels). */
export interface ChangeRow {
  id: string;
  kind: string;
  category: string;
  description: string;
  severity: string;
  confidence: number;
  bounds: Box;
}

const severityRank: Record<string, number> = { major: 0, moderate: 1, minor: 2 };

/** sortChanges orders changes major first, then top to bottom and left to right on the block. */
export function sortChanges<T extends ChangeRow>(cs: readonly T[]): T[] {
  return [...cs].sort(
    (a, b) =>
      (severityRank[a.severity] ?? 3) - (severityRank[b.severity] ?? 3) ||
      Math.round(a.bounds.yMin - b.bounds.yMin) ||
      a.bounds.xMin - b.bounds.xMin ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** countBy counts changes by one of their fields (kind, category, severity). */
export function countBy(cs: readonly ChangeRow[], field: "kind" | "category" | "severity"): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of cs) out.set(c[field], (out.get(c[field]) ?? 0) + 1);
  return out;
}

/** summaryText is a count map as a short line: "3 added, 1 removed" (largest first, ties by name). */
export function summaryText(counts: ReadonlyMap<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`)
    .join(", ");
}

/**
 * zoomBox is the region a change is zoomed to: its bounds grown by half its
 * larger side on every side, and at least minSide pixels wide and high, so
 * that a one-pixel change still shows what is around it.
 */
export function zoomBox(b: Box, minSide = 200): Box {
  const w = b.xMax - b.xMin;
  const h = b.yMax - b.yMin;
  const pad = Math.max(w, h) * 0.5;
  const cx = (b.xMin + b.xMax) / 2;
  const cy = (b.yMin + b.yMax) / 2;
  const hw = Math.max(w / 2 + pad, minSide / 2);
  const hh = Math.max(h / 2 + pad, minSide / 2);
  return { xMin: cx - hw, yMin: cy - hh, xMax: cx + hw, yMax: cy + hh };
}

/**
 * swipeClip is the part of the newer image (B) the swipe slider shows at
 * position pos (0–1 from the left): B left of the divider, A right of it.
 */
export function swipeClip(width: number, height: number, pos: number): { x: number; y: number; w: number; h: number } {
  const p = Math.min(1, Math.max(0, pos));
  return { x: 0, y: 0, w: width * p, h: height };
}

/** CompareChoice is what the compare form chose: drawings, or one sheet of each. */
export interface CompareChoice {
  type: "Drawing" | "Sheet";
  oldDrawing: string;
  newDrawing: string;
  oldSheet: string;
  newSheet: string;
}

/**
 * compareInput is the compare mutation's input for a choice, or the reason
 * it cannot be sent yet (a side missing, or both sides the same).
 */
export function compareInput(c: CompareChoice): { input?: { type: string; oldID: string; newID: string }; problem?: string } {
  const oldID = c.type === "Drawing" ? c.oldDrawing : c.oldSheet;
  const newID = c.type === "Drawing" ? c.newDrawing : c.newSheet;
  const what = c.type === "Drawing" ? "drawing" : "sheet";
  if (!oldID) return { problem: `Choose the older ${what} (A).` };
  if (!newID) return { problem: `Choose the newer ${what} (B).` };
  if (oldID === newID) return { problem: `A and B are the same ${what}: choose two revisions.` };
  return { input: { type: c.type, oldID, newID } };
}
