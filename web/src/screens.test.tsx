import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Provider, type Client } from "urql";
import { fromValue } from "wonka";
import { Legend } from "./screens/Legend";
import { Instances, readingOrder } from "./screens/Instances";
import { SheetEdit, sheetPatch } from "./screens/SheetEdit";
import type { Detection } from "./detections";

afterEach(cleanup);

const det = (id: string, x: number, y: number): Detection => ({ id, entryID: "e", confidence: 0.9, box: { xMin: x, yMin: y, xMax: x + 20, yMax: y + 20 } });

describe("Instances", () => {
  it("are listed in reading order: rows top to bottom, left to right within a row", () => {
    const ds = [det("c", 10, 300), det("b", 400, 12), det("a", 50, 5), det("d", 5, 305)];
    expect(readingOrder(ds).map((d) => d.id)).toEqual(["a", "b", "d", "c"]);
  });

  it("zoom to the clicked one, and Next / Previous step through them, wrapping", () => {
    const ds = [det("a", 0, 0), det("b", 100, 0), det("c", 200, 0)];
    const onZoom = vi.fn();
    render(<Instances label="EF" instances={ds} current="c" onZoom={onZoom} onClose={() => {}} />);
    expect(screen.getAllByTestId("instance")).toHaveLength(3);
    fireEvent.click(screen.getAllByTestId("instance")[1]);
    expect(onZoom).toHaveBeenLastCalledWith(ds[1]);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(onZoom).toHaveBeenLastCalledWith(ds[0]);
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(onZoom).toHaveBeenLastCalledWith(ds[1]);
  });
});

describe("Legend counts", () => {
  it("are buttons that list an entry's instances when the viewer asks for it", () => {
    const onCount = vi.fn();
    const entries = [{ id: "f1", label: "EF", description: "Exhaust fan", hasGraphic: false }];
    render(<Legend entries={entries} colors={new Map()} counts={new Map([["f1", 4]])} hidden={new Set()} onToggle={() => {}} onCount={onCount} listed="f1" />);
    const b = screen.getByRole("button", { name: "List the 4 EF instances" });
    expect(b.getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(b);
    expect(onCount).toHaveBeenCalledWith("f1");
  });
});

describe("SheetEdit", () => {
  const meta = { sheetNumber: "E-101", title: "Lighting plan", discipline: "electrical" };

  it("sends only the changed fields, trimmed", () => {
    expect(sheetPatch(meta, { ...meta, title: " Lighting plan, level 1 " })).toEqual({ title: "Lighting plan, level 1" });
    expect(sheetPatch(meta, { ...meta })).toBeNull();
  });

  const client = (result: object) => {
    const executeMutation = vi.fn(() => fromValue(result));
    return { c: { executeMutation } as unknown as Client, executeMutation };
  };

  it("saves a correction and closes", async () => {
    const { c, executeMutation } = client({ data: { updateSheet: { id: "sht_1", ...meta, title: "Power plan", revision: "" } } });
    const onDone = vi.fn();
    render(
      <Provider value={c}>
        <SheetEdit id="sht_1" meta={meta} disciplines={["electrical"]} onDone={onDone} />
      </Provider>,
    );
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Power plan" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [op] = executeMutation.mock.calls[0] as unknown as [{ variables: unknown }];
    expect(op.variables).toEqual({ id: "sht_1", input: { title: "Power plan" } });
  });

  it("shows the server's message when the correction is refused, and stays open", async () => {
    const { CombinedError } = await import("urql");
    const error = new CombinedError({ graphQLErrors: [{ message: "discipline: must be one of architectural, electrical" }] });
    const { c } = client({ error });
    const onDone = vi.fn();
    render(
      <Provider value={c}>
        <SheetEdit id="sht_1" meta={meta} disciplines={[]} onDone={onDone} />
      </Provider>,
    );
    fireEvent.change(screen.getByLabelText("Discipline"), { target: { value: "astrology" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/must be one of/);
    expect(onDone).not.toHaveBeenCalled();
  });
});
