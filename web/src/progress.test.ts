import { describe, expect, it } from "vitest";
import { summarize } from "./progress";

describe("summarize", () => {
  it("counts pages and blocks once each, and ends ready", () => {
    const page = (id: string) => ({ id, type: "drawing.child.completed", data: { child_job_type: "sheet_preprocess", status: "Completed" } });
    const s = summarize([
      { id: "1", type: "drawing.started", data: {} },
      page("2"),
      page("2"),
      page("3"),
      { id: "4", type: "sheet.child.completed", data: { child_job_type: "block_preprocess", status: "Completed" } },
    ]);
    expect(s).toMatchObject({ stage: "Finding blocks", pagesDone: 2, blocksDone: 1, done: false });
    expect(summarize([{ id: "9", type: "drawing.completed", data: {} }]).stage).toBe("Ready");
  });

  it("keeps the server's failure messages", () => {
    const s = summarize([
      { id: "1", type: "drawing.child.completed", data: { child_job_type: "sheet_preprocess", status: "Failed", error: { code: "PAGE_TOO_LARGE", message: "page 2 is 400 MP" } } },
      { id: "2", type: "drawing.failed", data: { error: { code: "X", message: "one page failed" } } },
    ]);
    expect(s).toMatchObject({ stage: "Failed", failed: true, pagesDone: 0, failures: ["sheet_preprocess: page 2 is 400 MP", "one page failed"] });
  });
});
