import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { problemFetch } from "./api";
import { href, parseRoute, type Route } from "./route";
import { filterSheets } from "./screens/DrawingView";
import { Legend } from "./screens/Legend";
import { contentType } from "./screens/Upload";
import { ErrorBoundary } from "./ErrorBoundary";

afterEach(cleanup);

describe("problemFetch", () => {
  it("turns a Problem Details answer into a GraphQL error with its detail", async () => {
    const problem = { type: "x", title: "Unauthorized", status: 401, detail: "invalid API key", code: "UNAUTHORIZED" };
    const base = vi.fn(async () => new Response(JSON.stringify(problem), { status: 401, headers: { "content-type": "application/problem+json" } }));
    const res = await problemFetch(base)("/graphql", {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ errors: [{ message: "invalid API key", extensions: { status: 401 } }] });
  });

  it("passes successful answers through", async () => {
    const ok = new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    expect(await problemFetch(async () => ok)("/graphql", {})).toBe(ok);
  });
});

describe("routes", () => {
  it("round-trip, with a sheet's focus box", () => {
    const r: Route = { screen: "sheet", id: "sht_1", focus: [1, 2, 30, 40] };
    expect(parseRoute(href(r))).toEqual(r);
    expect(parseRoute("#/p/prj_9")).toEqual({ screen: "project", id: "prj_9" });
    expect(parseRoute("#/nonsense/a/b")).toEqual({ screen: "projects" });
  });
});

describe("filterSheets", () => {
  const s = (pageNumber: number, sheetNumber: string, title: string, discipline: string) => ({ id: sheetNumber, pageNumber, sheetNumber, title, discipline, revision: "" });
  const sheets = [s(2, "E-101", "Lighting plan", "electrical"), s(1, "A-101", "Floor plan", "architectural"), s(3, "E-601", "Panel schedules", "electrical")];
  it("filters by discipline and number or title, in page order", () => {
    expect(filterSheets(sheets, "", "").map((x) => x.sheetNumber)).toEqual(["A-101", "E-101", "E-601"]);
    expect(filterSheets(sheets, "electrical", "").map((x) => x.sheetNumber)).toEqual(["E-101", "E-601"]);
    expect(filterSheets(sheets, "", "e101").map((x) => x.sheetNumber)).toEqual(["E-101"]);
    expect(filterSheets(sheets, "", "PLAN").map((x) => x.sheetNumber)).toEqual(["A-101", "E-101"]);
  });
});

describe("contentType", () => {
  it("falls back to the extension when the browser gives none", () => {
    expect(contentType({ name: "set.PDF", type: "" })).toBe("application/pdf");
    expect(contentType({ name: "scan.tif", type: "" })).toBe("image/tiff");
    expect(contentType({ name: "a.png", type: "image/png" })).toBe("image/png");
  });
});

describe("Legend", () => {
  it("shows each entry's count and toggles it", () => {
    const onToggle = vi.fn();
    const entries = [
      { id: "f1", label: "EF", description: "Exhaust fan", hasGraphic: false },
      { id: "f2", label: "GFI", description: "Ground-fault outlet", hasGraphic: false },
    ];
    render(<Legend entries={entries} colors={new Map()} counts={new Map([["f1", 7]])} hidden={new Set(["f2"])} onToggle={onToggle} />);
    expect(screen.getAllByTestId("entry-count").map((e) => e.textContent)).toEqual(["7", "0"]);
    const gfi = screen.getByLabelText("Show GFI") as HTMLInputElement;
    expect(gfi.checked).toBe(false);
    fireEvent.click(screen.getByLabelText("Show EF"));
    expect(onToggle).toHaveBeenCalledWith("f1");
  });
});

describe("ErrorBoundary", () => {
  // renderFailing renders a screen that throws err, without React's console report
  const renderFailing = (err: Error) => {
    const Failing = () => {
      throw err;
    };
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Failing />
      </ErrorBoundary>,
    );
    quiet.mockRestore();
    return screen.getByRole("alert").textContent ?? "";
  };

  it("shows a screen's failure and a way on instead of a blank page", () => {
    expect(renderFailing(new Error("sheet.bounds is undefined"))).toContain("This screen failed: sheet.bounds is undefined");
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the projects" }).getAttribute("href")).toBe("#/");
  });

  it("asks for a reload when a screen's script is gone after an update", () => {
    expect(renderFailing(new TypeError("Failed to fetch dynamically imported module: https://h/assets/SheetViewer-x.js"))).toContain("reload the page");
  });
});
