// One overlay in deep zoom: block A moved into B's frame, block B, and the
// combined red/green image, stacked in one OpenSeadragon viewer (their Deep
// Zoom tiles, fetched with the key). Swipe shows B left of a divider and A
// right of it, onion skin fades B over A, overlay shows the combined image.
// The changes are outlined on a canvas above; the selected one is zoomed to.
import { useEffect, useRef, useState } from "react";
import OpenSeadragon from "openseadragon";
import { useConnection } from "../hooks";
import { swipeClip, zoomBox, type ChangeRow } from "../compare";
import type { Transform } from "../detections";
import { clearCanvas, imageTransform, openViewer, pointerToImage, ZoomButtons } from "../viewer";

/** Mode is how A and B are shown. */
export type Mode = "swipe" | "onion" | "overlay";

const images = ["aligned_a", "aligned_b", "image"] as const;

const kindColor: Record<string, string> = { added: "#14a028", removed: "#dc1e1e", modified: "#e08a00", moved: "#1f5fbf" };

interface Props {
  overlayID: string;
  changes: ChangeRow[];
  selected: string | null;
  onSelect: (id: string) => void;
}

export function OverlayViewer({ overlayID, changes, selected, onSelect }: Props) {
  const conn = useConnection();
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const items = useRef<(OpenSeadragon.TiledImage | undefined)[]>([]);
  const size = useRef<{ w: number; h: number } | null>(null);
  const [mode, setMode] = useState<Mode>("swipe");
  const [pos, setPos] = useState(0.5);
  const [error, setError] = useState("");
  const [loaded, setLoaded] = useState(0);
  const drawRef = useRef<() => void>(() => {});

  // B's image is the frame: the three images are stacked, so the viewer's
  // own image coordinates (ambiguous with several images) are not used
  const frame = (): OpenSeadragon.TiledImage | undefined => items.current[1];
  const transform = (): Transform | null => {
    const b = frame();
    const s = size.current;
    if (!b || !s) return null;
    return imageTransform((p) => b.imageToViewerElementCoordinates(p), s.w);
  };

  drawRef.current = () => {
    const cv = clearCanvas(canvas.current, host.current);
    if (!cv) return;
    const { ctx, h: ht } = cv;
    const t = transform();
    if (!t) return;
    if (mode === "swipe" && size.current) {
      const x = size.current.w * pos * t.scale + t.dx;
      ctx.fillStyle = "rgba(27, 36, 48, 0.85)";
      ctx.fillRect(x - 1, 0, 2, ht);
    }
    for (const ch of changes) {
      const b = ch.bounds;
      const on = ch.id === selected;
      ctx.lineWidth = on ? 3 : 1.5;
      ctx.setLineDash(on ? [] : [5, 3]);
      ctx.strokeStyle = kindColor[ch.kind] ?? "#7a3fb8";
      ctx.strokeRect(b.xMin * t.scale + t.dx - 2, b.yMin * t.scale + t.dy - 2, (b.xMax - b.xMin) * t.scale + 4, (b.yMax - b.yMin) * t.scale + 4);
    }
    ctx.setLineDash([]);
  };

  // the viewer and its three images, once per overlay
  useEffect(() => {
    if (!host.current) return;
    const redraw = () => drawRef.current();
    const auth = { Authorization: `Bearer ${conn.key}` };
    const v = openViewer(host.current, { maxZoomPixelRatio: 4, loadTilesWithAjax: true, ajaxHeaders: auth }, redraw);
    viewer.current = v;
    items.current = [];
    size.current = null;
    setLoaded(0);
    setError("");
    // each image's Deep Zoom tiles (the service makes the pyramid the first
    // time it is asked for): the viewer reads the tiles it shows, never a
    // whole block-sized picture
    images.forEach((n, i) => {
      v.addTiledImage({
        tileSource: `/v1/overlays/${encodeURIComponent(overlayID)}/${n}/tiles.dzi`,
        ajaxHeaders: auth,
        index: i,
        success: (e: Event) => {
          const item = (e as unknown as { item: OpenSeadragon.TiledImage }).item;
          items.current[i] = item;
          const s = item.getContentSize();
          if (i === 1) size.current = { w: s.x, h: s.y };
          setLoaded((k) => k + 1);
        },
        error: (e: { message?: string }) => setError(`The overlay's ${n.replace("_", " ")} image could not be shown: ${e.message ?? "unknown error"}`),
      });
    });
    return () => {
      v.destroy();
      viewer.current = null;
    };
  }, [conn, overlayID]);

  // the mode: which image shows, B's clip (swipe) or opacity (onion skin)
  useEffect(() => {
    const [a, b, combined] = items.current;
    const s = size.current;
    if (!a || !b || !combined || !s) return;
    a.setOpacity(mode === "overlay" ? 0 : 1);
    combined.setOpacity(mode === "overlay" ? 1 : 0);
    if (mode === "swipe") {
      const c = swipeClip(s.w, s.h, pos);
      b.setClip(new OpenSeadragon.Rect(c.x, c.y, c.w, c.h));
      b.setOpacity(1);
    } else {
      b.setClip(null as unknown as OpenSeadragon.Rect);
      b.setOpacity(mode === "onion" ? pos : 0);
    }
    drawRef.current();
  }, [mode, pos, loaded]);

  // the selected change: zoomed to
  useEffect(() => {
    const v = viewer.current;
    const b = frame();
    const ch = changes.find((c) => c.id === selected);
    if (!v || !b || !ch) return;
    const z = zoomBox(ch.bounds);
    v.viewport.fitBounds(b.imageToViewportRectangle(z.xMin, z.yMin, z.xMax - z.xMin, z.yMax - z.yMin));
  }, [selected, changes, loaded]);

  useEffect(() => drawRef.current(), [changes, selected]);

  function click(ev: React.MouseEvent) {
    const p = pointerToImage(ev, host.current, transform());
    if (!p) return;
    const hit = changes.find((c) => p.x >= c.bounds.xMin && p.x <= c.bounds.xMax && p.y >= c.bounds.yMin && p.y <= c.bounds.yMax);
    if (hit) onSelect(hit.id);
  }

  const ready = loaded >= images.length;
  return (
    <div className="overlay-viewer">
      <div className="toolbar inline" role="group" aria-label="Overlay mode">
        {(["swipe", "onion", "overlay"] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            {m === "swipe" ? "Slider" : m === "onion" ? "Onion skin" : "Red/green overlay"}
          </label>
        ))}
        {mode !== "overlay" && (
          <label>
            {mode === "swipe" ? "B ← divider → A" : "A ↔ B"}
            <input type="range" min={0} max={1} step={0.01} value={pos} onChange={(e) => setPos(Number(e.target.value))} aria-label={mode === "swipe" ? "Slider position" : "Onion skin opacity of B"} />
          </label>
        )}
        {mode === "overlay" && (
          <span className="hint">
            <span className="key removed" /> removed (A) <span className="key added" /> added (B) <span className="key same" /> unchanged
          </span>
        )}
      </div>
      <div className="deepzoom" onClick={click} data-ready={ready ? "true" : "false"} data-testid="overlay-viewer">
        <div ref={host} className="osd" />
        <canvas ref={canvas} className="overlay" />
        <ZoomButtons viewer={viewer} home="Whole block" />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
