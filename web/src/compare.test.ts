import { describe, expect, it } from "vitest";
import { compareInput, countBy, sortChanges, summaryText, swipeClip, zoomBox, type ChangeRow } from "./compare";
import { duration, mergeJobs } from "./jobs";
import { href, parseRoute, type Route } from "./route";

const ch = (id: string, kind: string, severity: string, x: number, y: number): ChangeRow => ({
  id,
  kind,
  category: "symbol",
  description: "",
  severity,
  confidence: 1,
  bounds: { xMin: x, yMin: y, xMax: x + 10, yMax: y + 10 },
});

describe("changes", () => {
  it("are listed major first, then top to bottom and left to right", () => {
    const cs = [ch("a", "added", "minor", 0, 0), ch("b", "removed", "major", 50, 90), ch("c", "moved", "major", 10, 90), ch("d", "added", "major", 500, 5)];
    expect(sortChanges(cs).map((c) => c.id)).toEqual(["d", "c", "b", "a"]);
    expect(cs.map((c) => c.id)).toEqual(["a", "b", "c", "d"]); // the input is left alone
  });

  it("are counted and summarized largest first", () => {
    const cs = [ch("a", "added", "minor", 0, 0), ch("b", "added", "major", 0, 0), ch("c", "title_block", "minor", 0, 0), ch("d", "removed", "minor", 0, 0)];
    const kinds = countBy(cs, "kind");
    expect(kinds.get("added")).toBe(2);
    expect(summaryText(kinds)).toBe("2 added, 1 removed, 1 title block");
    expect(summaryText(countBy([], "kind"))).toBe("");
  });

  it("are zoomed to with room around them, never closer than the minimum", () => {
    expect(zoomBox({ xMin: 100, yMin: 100, xMax: 140, yMax: 120 }, 0)).toEqual({ xMin: 80, yMin: 80, xMax: 160, yMax: 140 });
    const tiny = zoomBox({ xMin: 10, yMin: 10, xMax: 11, yMax: 11 }, 200);
    expect(tiny.xMax - tiny.xMin).toBe(200);
    expect(tiny.yMax - tiny.yMin).toBe(200);
    expect((tiny.xMin + tiny.xMax) / 2).toBe(10.5);
  });

  it("swipe shows B left of the divider, clamped to the image", () => {
    expect(swipeClip(1000, 600, 0.25)).toEqual({ x: 0, y: 0, w: 250, h: 600 });
    expect(swipeClip(1000, 600, 1.7).w).toBe(1000);
    expect(swipeClip(1000, 600, -1).w).toBe(0);
  });
});

describe("compareInput", () => {
  const base = { type: "Drawing" as const, oldDrawing: "", newDrawing: "", oldSheet: "", newSheet: "" };
  it("needs two different revisions of the chosen kind", () => {
    expect(compareInput(base).problem).toMatch(/older drawing/);
    expect(compareInput({ ...base, oldDrawing: "drw_1" }).problem).toMatch(/newer drawing/);
    expect(compareInput({ ...base, oldDrawing: "drw_1", newDrawing: "drw_1" }).problem).toMatch(/same drawing/);
    expect(compareInput({ ...base, oldDrawing: "drw_1", newDrawing: "drw_2" }).input).toEqual({ type: "Drawing", oldID: "drw_1", newID: "drw_2" });
    const sheets = { ...base, type: "Sheet" as const, oldDrawing: "drw_1", newDrawing: "drw_2", oldSheet: "sht_1" };
    expect(compareInput(sheets).problem).toMatch(/newer sheet/);
    expect(compareInput({ ...sheets, newSheet: "sht_9" }).input).toEqual({ type: "Sheet", oldID: "sht_1", newID: "sht_9" });
  });
});

describe("jobs", () => {
  it("durations read as a person says them", () => {
    const t0 = "2026-11-27T10:00:00Z";
    expect(duration(t0, "2026-11-27T10:00:00.850Z")).toBe("850 ms");
    expect(duration(t0, "2026-11-27T10:00:12.4Z")).toBe("12.4 s");
    expect(duration(t0, "2026-11-27T10:03:05Z")).toBe("3 min 05 s");
    expect(duration(t0, "2026-11-27T12:07:00Z")).toBe("2 h 07 min");
    expect(duration(null, t0)).toBe("");
    expect(duration(t0, null, Date.parse("2026-11-27T10:00:02Z"))).toBe("2.0 s");
  });

  it("live updates replace listed jobs and add new top-level ones, newest first", () => {
    const j = (id: string, createdAt: string, status: string, parentID: string | null = null) => ({ id, createdAt, status, progress: 0, parentID });
    const listed = [j("job_2", "2026-11-27T10:02:00Z", "Started"), j("job_1", "2026-11-27T10:01:00Z", "Completed")];
    const updates = new Map([
      ["job_2", j("job_2", "2026-11-27T10:02:00Z", "Completed")],
      ["job_3", j("job_3", "2026-11-27T10:03:00Z", "Queued")],
      ["job_4", j("job_4", "2026-11-27T10:04:00Z", "Started", "job_3")],
    ]);
    expect(mergeJobs(listed, updates).map((x) => `${x.id}:${x.status}`)).toEqual(["job_3:Queued", "job_2:Completed", "job_1:Completed"]);
  });
});

describe("routes of the new screens", () => {
  it("round-trip", () => {
    const rs: Route[] = [
      { screen: "compare", projectID: "prj_1" },
      { screen: "comparison", id: "job_7" },
      { screen: "comparison", id: "job_7", overlay: "ovl_3" },
      { screen: "jobs", projectID: "prj_1" },
      { screen: "job", id: "job_7" },
      { screen: "webhooks" },
    ];
    for (const r of rs) expect(parseRoute(href(r))).toEqual(r);
  });
});
