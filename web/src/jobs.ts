// Pure functions behind the jobs page: how long a job took or has been
// running, and merging live job updates (the projectJobs subscription) into
// the listed jobs.

/** duration is the time between two instants as a person reads it: 850 ms, 12.4 s, 3 min 05 s, 2 h 07 min. */
export function duration(fromISO?: string | null, toISO?: string | null, now = Date.now()): string {
  if (!fromISO) return "";
  const from = Date.parse(fromISO);
  const to = toISO ? Date.parse(toISO) : now;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return "";
  const ms = Math.max(0, to - from);
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** JobLite is what the jobs page lists of a job. */
export interface JobLite {
  id: string;
  parentID?: string | null;
  createdAt: string;
  status: string;
  progress: number;
}

/**
 * mergeJobs applies live updates to the listed top-level jobs: an update of a
 * listed job replaces it, a new top-level job is added, child jobs are left
 * to their tree; newest first.
 */
export function mergeJobs<T extends JobLite>(listed: readonly T[], updates: ReadonlyMap<string, T>): T[] {
  const byID = new Map(listed.map((j) => [j.id, j]));
  for (const [id, u] of updates) {
    if (byID.has(id) || !u.parentID) byID.set(id, { ...byID.get(id), ...u });
  }
  return [...byID.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
}
