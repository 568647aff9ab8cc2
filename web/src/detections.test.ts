import { describe, expect, it } from "vitest";
import { countByEntry, countsCSV, csvField, drawDetections, entryColor, hitTest, toSheet, visible, type Detection } from "./detections";

const det = (id: string, entryID: string, confidence: number, x: number, y: number, s = 10): Detection => ({
  id,
  entryID,
  confidence,
  box: { xMin: x, yMin: y, xMax: x + s, yMax: y + s },
});

describe("detections", () => {
  it("moves block pixels to sheet pixels from the block's whole-pixel origin", () => {
    expect(toSheet({ xMin: 1, yMin: 2, xMax: 11, yMax: 12 }, { xMin: 100.7, yMin: 50.2, xMax: 900, yMax: 800 })).toEqual({ xMin: 101, yMin: 52, xMax: 111, yMax: 62 });
  });

  it("filters by entry and threshold and counts per entry", () => {
    const ds = [det("a", "e1", 0.9, 0, 0), det("b", "e1", 0.4, 20, 0), det("c", "e2", 0.8, 40, 0)];
    expect(visible(ds, new Set(), 0).map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(visible(ds, new Set(["e2"]), 0.5).map((d) => d.id)).toEqual(["a"]);
    expect([...countByEntry(visible(ds, new Set(), 0.5))]).toEqual([
      ["e1", 1],
      ["e2", 1],
    ]);
  });

  it("hit-tests the smallest box under the point", () => {
    const ds = [det("big", "e1", 1, 0, 0, 100), det("small", "e2", 1, 40, 40, 10)];
    expect(hitTest(ds, 45, 45)?.id).toBe("small");
    expect(hitTest(ds, 5, 5)?.id).toBe("big");
    expect(hitTest(ds, 500, 5)).toBeUndefined();
  });

  it("gives neighbouring entries distinct colours", () => {
    const cs = Array.from({ length: 12 }, (_, i) => entryColor(i));
    expect(new Set(cs).size).toBe(12);
  });

  it("writes RFC 4180 CSV without spreadsheet formulas", () => {
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField(-3)).toBe("-3");
    const out = countsCSV([{ sheet: { sheetNumber: "E-101", title: "Lighting, level 1" }, rows: [{ id: "x", label: "A", description: "Duplex outlet", count: 4 }] }]);
    expect(out).toBe('sheet,sheet_title,label,description,count\r\nE-101,"Lighting, level 1",A,Duplex outlet,4\r\n');
    const two = countsCSV([
      { sheet: { sheetNumber: "E-101", title: "Level 1" }, rows: [{ id: "x", label: "A", description: "Duplex outlet", count: 4 }] },
      { sheet: { sheetNumber: "E-102", title: "Level 2" }, rows: [] },
      { sheet: { sheetNumber: "E-103", title: "Level 3" }, rows: [{ id: "x", label: "A", description: "Duplex outlet", count: 0 }] },
    ]);
    expect(two).toBe("sheet,sheet_title,label,description,count\r\nE-101,Level 1,A,Duplex outlet,4\r\nE-103,Level 3,A,Duplex outlet,0\r\n");
  });

  it("strokes every box with its entry's colour, one path per colour run", () => {
    const calls: string[] = [];
    const ctx = {
      set strokeStyle(v: string) {
        calls.push(`color ${v}`);
      },
      set lineWidth(_: number) {},
      beginPath: () => calls.push("begin"),
      rect: (x: number, y: number, w: number, h: number) => calls.push(`rect ${x} ${y} ${w} ${h}`),
      stroke: () => calls.push("stroke"),
    } as unknown as CanvasRenderingContext2D;
    const colors = new Map([
      ["e1", "red"],
      ["e2", "blue"],
    ]);
    drawDetections(ctx, [det("a", "e1", 1, 0, 0), det("b", "e1", 1, 10, 0), det("c", "e2", 1, 0, 10)], { scale: 2, dx: 5, dy: 1 }, colors);
    expect(calls).toEqual(["begin", "color red", "rect 5 1 20 20", "rect 25 1 20 20", "stroke", "begin", "color blue", "rect 5 21 20 20", "stroke"]);
  });
});
