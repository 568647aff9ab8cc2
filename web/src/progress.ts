// Reading an ingestion job's events into what a person wants to know:
// which stage it is in, how many pages are done, and what failed (with the
// server's message). Events are those of the jobEvents subscription:
// {kind}.{status} for the drawing job, {parent kind}.child.completed for the
// jobs below it (data: job_id, child_job_type, status, error).

/** JobEventLite is the part of a JobEvent the progress reads. */
export interface JobEventLite {
  id: string;
  type: string;
  data: unknown;
}

/** Ingest is the state of one drawing's processing. */
export interface Ingest {
  stage: string;
  pagesDone: number;
  blocksDone: number;
  failures: string[];
  done: boolean;
  failed: boolean;
}

interface ChildData {
  child_job_type?: string;
  status?: string;
  error?: { code?: string; message?: string } | null;
  job_id?: string;
}

/** summarize folds the events (in any order, duplicates ignored) into an Ingest. */
export function summarize(events: JobEventLite[]): Ingest {
  const seen = new Set<string>();
  const out: Ingest = { stage: "Queued", pagesDone: 0, blocksDone: 0, failures: [], done: false, failed: false };
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const d = (e.data ?? {}) as ChildData & { error?: { message?: string } | null };
    if (e.type.endsWith(".child.completed")) {
      const ok = (d.status ?? "").toLowerCase() === "completed";
      if (ok && d.child_job_type === "sheet_preprocess") out.pagesDone++;
      if (ok && d.child_job_type === "block_preprocess") out.blocksDone++;
      if (!ok && d.error?.message) out.failures.push(`${d.child_job_type ?? "step"}: ${d.error.message}`);
    } else if (e.type === "drawing.started") {
      out.stage = "Reading pages";
    } else if (e.type === "drawing.completed") {
      out.done = true;
    } else if (e.type === "drawing.failed" || e.type === "drawing.canceled") {
      out.done = out.failed = true;
      if (d.error?.message) out.failures.push(d.error.message);
    }
  }
  if (out.done) out.stage = out.failed ? "Failed" : "Ready";
  else if (out.blocksDone > 0) out.stage = "Finding blocks";
  else if (out.pagesDone > 0) out.stage = "Rendering pages";
  return out;
}
