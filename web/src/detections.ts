// Pure functions over a sheet's detections: where they are on the sheet,
// which are shown, their colours, counts and the CSV export. Kept apart from
// the viewer so that they are unit-tested without a browser.

/** A box in pixels: sheet pixels for blocks, block pixels for features. */
export interface Box {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** A symbol instance as the app draws it: its box in sheet pixels. */
export interface Detection {
  id: string;
  entryID: string;
  confidence: number;
  box: Box;
}

/** A legend entry with the count shown next to it. */
export interface EntryCount {
  id: string;
  label: string;
  description: string;
  count: number;
}

/**
 * toSheet moves a feature's box from its block's pixels to the sheet's: the
 * block image is cut from the page image at the block's bounds (origin
 * rounded down to a whole pixel), unscaled.
 */
export function toSheet(box: Box, block: Box): Box {
  const x = Math.floor(block.xMin);
  const y = Math.floor(block.yMin);
  return { xMin: box.xMin + x, yMin: box.yMin + y, xMax: box.xMax + x, yMax: box.yMax + y };
}

/** entryColor is the colour of the i-th legend entry: hues a golden angle apart, so neighbours differ. */
export function entryColor(i: number): string {
  const hue = Math.round((i * 137.508) % 360);
  return `hsl(${hue} 85% 42%)`;
}

/** visible keeps the detections of shown entries at or above the confidence threshold (0–1). */
export function visible(ds: Detection[], hidden: ReadonlySet<string>, threshold: number): Detection[] {
  return ds.filter((d) => !hidden.has(d.entryID) && d.confidence >= threshold);
}

/** countByEntry counts detections per legend entry id. */
export function countByEntry(ds: Detection[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of ds) out.set(d.entryID, (out.get(d.entryID) ?? 0) + 1);
  return out;
}

/**
 * hitTest finds the smallest detection containing the sheet point (x, y),
 * so that a symbol nested in a larger one can still be pointed at.
 */
export function hitTest(ds: Detection[], x: number, y: number): Detection | undefined {
  let best: Detection | undefined;
  let bestArea = Infinity;
  for (const d of ds) {
    const b = d.box;
    if (x < b.xMin || x > b.xMax || y < b.yMin || y > b.yMax) continue;
    const area = (b.xMax - b.xMin) * (b.yMax - b.yMin);
    if (area < bestArea) {
      best = d;
      bestArea = area;
    }
  }
  return best;
}

/** csvField quotes a CSV field when it needs it (RFC 4180), and defuses spreadsheet formulas. */
export function csvField(v: string | number): string {
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** SheetCounts is one sheet's rows of a counts export. */
export interface SheetCounts {
  sheet: { sheetNumber: string; title: string };
  rows: EntryCount[];
}

/** countsCSV is the export of sheets' counts: one row per sheet and legend entry, in the order given. */
export function countsCSV(sheets: SheetCounts[]): string {
  const lines = [["sheet", "sheet_title", "label", "description", "count"].join(",")];
  for (const { sheet, rows } of sheets) {
    for (const r of rows) lines.push([sheet.sheetNumber, sheet.title, r.label, r.description, r.count].map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** downloadText offers text as a file download. */
export function downloadText(text: string, type: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Transform maps sheet pixels to canvas pixels: the viewer shows the sheet
 * unrotated, so one scale and an offset (from two mapped points) suffice, and
 * 2,000 boxes are mapped without a call into the viewer each.
 */
export interface Transform {
  scale: number;
  dx: number;
  dy: number;
}

/** drawDetections draws boxes on a 2D canvas, one colour per legend entry. */
export function drawDetections(ctx: CanvasRenderingContext2D, ds: Detection[], t: Transform, colors: ReadonlyMap<string, string>) {
  ctx.lineWidth = 2;
  let current = "";
  for (const d of ds) {
    const c = colors.get(d.entryID) ?? "#d00";
    if (c !== current) {
      if (current) ctx.stroke();
      ctx.beginPath();
      ctx.strokeStyle = c;
      current = c;
    }
    const b = d.box;
    ctx.rect(b.xMin * t.scale + t.dx, b.yMin * t.scale + t.dy, (b.xMax - b.xMin) * t.scale, (b.yMax - b.yMin) * t.scale);
  }
  if (current) ctx.stroke();
}
