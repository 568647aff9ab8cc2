// What the two deep-zoom viewers (a sheet with its detections, an overlay
// with its changes) share: the canvas drawn over OpenSeadragon, sized to its
// host at the screen's pixel ratio; the mapping from image pixels to that
// canvas; and the zoom buttons.
import type { RefObject } from "react";
import OpenSeadragon from "openseadragon";
import type { Transform } from "./detections";

/** clearCanvas sizes the canvas to its host (device pixels), clears it and returns it in CSS pixels. */
export function clearCanvas(c: HTMLCanvasElement | null, host: HTMLElement | null): { ctx: CanvasRenderingContext2D; w: number; h: number } | null {
  if (!c || !host) return null;
  const dpr = window.devicePixelRatio || 1;
  const w = host.clientWidth;
  const h = host.clientHeight;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const ctx = c.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return { ctx, w, h };
}

/**
 * imageTransform maps an unrotated image of the given width to the viewer
 * element from two mapped points (one scale and an offset), so that
 * thousands of boxes are mapped without a call into the viewer each.
 */
export function imageTransform(toElement: (p: OpenSeadragon.Point) => OpenSeadragon.Point, width: number): Transform {
  const p0 = toElement(new OpenSeadragon.Point(0, 0));
  const p1 = toElement(new OpenSeadragon.Point(width, 0));
  return { scale: (p1.x - p0.x) / width, dx: p0.x, dy: p0.y };
}

/** pointerToImage maps a mouse event over host to image pixels through t (null when the viewer has no image yet). */
export function pointerToImage(ev: { clientX: number; clientY: number }, host: HTMLElement | null, t: Transform | null) {
  if (!t || !host) return null;
  const r = host.getBoundingClientRect();
  return { x: (ev.clientX - r.left - t.dx) / t.scale, y: (ev.clientY - r.top - t.dy) / t.scale, left: ev.clientX - r.left, top: ev.clientY - r.top };
}

/** ZoomButtons zoom the viewer in and out and back to the whole image (named home). */
export function ZoomButtons({ viewer, home }: { viewer: RefObject<OpenSeadragon.Viewer | null>; home: string }) {
  return (
    <div className="zoom inline">
      <button type="button" onClick={() => viewer.current?.viewport.zoomBy(1.5)} aria-label="Zoom in">
        +
      </button>
      <button type="button" onClick={() => viewer.current?.viewport.zoomBy(1 / 1.5)} aria-label="Zoom out">
        −
      </button>
      <button type="button" onClick={() => viewer.current?.viewport.goHome()} aria-label={home}>
        ⤢
      </button>
    </div>
  );
}

/**
 * openViewer makes an OpenSeadragon viewer in host with the app's settings
 * (no built-in controls, no zoom on click) and extra options, calling redraw
 * whenever the view moves or resizes.
 *
 * Tiles are drawn with OpenSeadragon's 2D canvas drawer, not its WebGL one
 * (version 5's default): the WebGL drawer renders into a WebGL canvas and
 * copies that into a 2D canvas every frame, which on a machine drawing WebGL
 * in software (no GPU, a remote desktop, headless browsers) took 200 ms a
 * frame on a 1280×800 view; the 2D drawer draws the same 256 px tiles in a
 * few milliseconds there and is hardware-accelerated where a GPU is.
 */
export function openViewer(host: HTMLElement, options: OpenSeadragon.Options, redraw: () => void): OpenSeadragon.Viewer {
  const v = OpenSeadragon({
    element: host,
    drawer: "canvas",
    showNavigationControl: false,
    showNavigator: false,
    visibilityRatio: 0.5,
    gestureSettingsMouse: { clickToZoom: false },
    ...options,
  });
  // "animation" and "update-viewport" both fire in a frame that moves the
  // view: the overlay is drawn once per view (its data changing redraws it
  // directly, not through here)
  let last = "";
  const onMove = () => {
    const b = v.viewport.getBounds(true);
    const key = `${b.x} ${b.y} ${b.width} ${b.height} ${host.clientWidth} ${host.clientHeight}`;
    if (key === last) return;
    last = key;
    redraw();
  };
  v.addHandler("animation", onMove);
  v.addHandler("update-viewport", onMove);
  v.addHandler("resize", onMove);
  // a new image (the first, or another overlay layer) draws even if the view is unchanged
  v.world.addHandler("add-item", () => {
    last = "";
  });
  return v;
}
