// Jobs: a project's top-level jobs, newest first, kept live by the
// projectJobs subscription; each opens as a tree of its child jobs (loaded
// level by level) with status, progress, timings and errors.
import { useMemo, useState } from "react";
import { useQuery, useSubscription } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import { duration, mergeJobs } from "../jobs";
import { href } from "../route";

/** JobFields is what a row of the jobs tree shows. */
export const JobFields = graphql(`
  fragment JobFields on Job {
    id
    type
    status
    progress
    parentID
    targetType
    targetID
    createdAt
    startedAt
    completedAt
    error {
      code
      message
    }
    children(first: 1) {
      totalCount
    }
  }
`);

const ProjectJobsQ = graphql(`
  query ProjectJobs($id: ID!) {
    project(id: $id) {
      id
      name
    }
    jobs(first: 50, where: { projectID: $id, parentIDIsNil: true }, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      edges {
        node {
          ...JobFields
        }
      }
    }
  }
`);

const LiveJobs = graphql(`
  subscription LiveProjectJobs($id: ID!) {
    projectJobs(projectId: $id) {
      ...JobFields
    }
  }
`);

const ChildrenQ = graphql(`
  query JobChildren($id: ID!) {
    job(id: $id) {
      id
      children(first: 100, orderBy: [{ field: CREATED_AT, direction: ASC }]) {
        totalCount
        edges {
          node {
            ...JobFields
          }
        }
      }
    }
  }
`);

const JobQ = graphql(`
  query JobPage($id: ID!) {
    job(id: $id) {
      ...JobFields
      projectID
    }
  }
`);

interface JobRow {
  id: string;
  type: string;
  status: string;
  progress: number;
  parentID?: string | null;
  targetType?: string | null;
  targetID?: string | null;
  createdAt: string;
  startedAt?: string | null;
  completedAt?: string | null;
  error?: { code: string; message: string } | null;
  children: { totalCount: number };
}

export function Jobs({ projectID }: { projectID: string }) {
  const [{ data, error }] = useQuery({ query: ProjectJobsQ, variables: { id: projectID } });
  const [live] = useSubscription({ query: LiveJobs, variables: { id: projectID } }, (prev: Map<string, JobRow> | undefined, d) => {
    const m = new Map(prev ?? []);
    m.set(d.projectJobs.id, d.projectJobs);
    return m;
  });
  const listed: JobRow[] = useMemo(() => data?.jobs.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [], [data]);
  const jobs = useMemo(() => mergeJobs(listed, live.data ?? new Map()), [listed, live.data]);
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const p = data.project;
  if (!p) return <p className="error" role="alert">No such project.</p>;
  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a> / <a href={href({ screen: "project", id: p.id })}>{p.name}</a> / <span>Jobs</span>
      </nav>
      <h1>Jobs</h1>
      {live.error && <p className="error" role="alert">{errorMessage(live.error)}</p>}
      {jobs.length === 0 && <p className="empty">No job yet: uploads, parses and comparisons run as jobs.</p>}
      <JobTable jobs={jobs} updates={live.data} />
    </section>
  );
}

/** JobPage is one job and its tree. */
export function JobPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: JobQ, variables: { id } });
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const j = data.job;
  if (!j) return <p className="error" role="alert">No such job.</p>;
  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a>
        {j.projectID && (
          <>
            {" / "}
            <a href={href({ screen: "jobs", projectID: j.projectID })}>Jobs</a>
          </>
        )}{" "}
        / <span>{j.id}</span>
      </nav>
      <h1>
        {j.type} <small>{j.id}</small>
      </h1>
      <JobTable jobs={[j]} open />
    </section>
  );
}

function JobTable({ jobs, updates, open }: { jobs: JobRow[]; updates?: ReadonlyMap<string, JobRow>; open?: boolean }) {
  return (
    <table className="list jobs" data-testid="jobs">
      <thead>
        <tr>
          <th>Job</th>
          <th>Status</th>
          <th>Target</th>
          <th>Created</th>
          <th>Waited</th>
          <th>Ran</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((j) => (
          <JobNode key={j.id} job={j} depth={0} updates={updates} open={open} />
        ))}
      </tbody>
    </table>
  );
}

function JobNode({ job, depth, updates, open }: { job: JobRow; depth: number; updates?: ReadonlyMap<string, JobRow>; open?: boolean }) {
  const [expanded, setExpanded] = useState(!!open);
  const j = updates?.get(job.id) ?? job;
  const n = j.children.totalCount;
  return (
    <>
      <tr className={`job ${j.status}`} data-testid="job-row" data-type={j.type} data-status={j.status}>
        <td style={{ paddingLeft: `${0.7 + depth * 1.4}rem` }}>
          {n > 0 ? (
            <button type="button" className="twisty" aria-expanded={expanded} onClick={() => setExpanded((x) => !x)} aria-label={`${expanded ? "Hide" : "Show"} the ${n} jobs below ${j.type}`}>
              {expanded ? "▾" : "▸"}
            </button>
          ) : (
            <span className="twisty" />
          )}{" "}
          <a href={href({ screen: "job", id: j.id })}>{j.type}</a> {n > 0 && <small className="hint">({n})</small>}
          {j.error && (
            <div className="error job-error">
              {j.error.code}: {j.error.message}
            </div>
          )}
        </td>
        <td>
          <span className={`status ${j.status.toLowerCase()}`}>{j.status}</span>
          {j.status === "Started" && <progress max={100} value={Math.round(j.progress * 100)} aria-label={`${j.type} progress`} />}
        </td>
        <td>
          {j.targetType && (
            <small>
              {j.targetType} {j.targetID}
            </small>
          )}
        </td>
        <td>{new Date(j.createdAt).toLocaleTimeString()}</td>
        <td>{duration(j.createdAt, j.startedAt ?? j.completedAt)}</td>
        <td>{j.startedAt ? duration(j.startedAt, j.completedAt) : ""}</td>
      </tr>
      {expanded && n > 0 && <JobChildren id={j.id} depth={depth + 1} updates={updates} />}
    </>
  );
}

function JobChildren({ id, depth, updates }: { id: string; depth: number; updates?: ReadonlyMap<string, JobRow> }) {
  const [{ data, error }] = useQuery({ query: ChildrenQ, variables: { id } });
  if (error)
    return (
      <tr>
        <td colSpan={6} className="error" role="alert">
          {errorMessage(error)}
        </td>
      </tr>
    );
  const kids = data?.job?.children.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  const more = (data?.job?.children.totalCount ?? 0) - kids.length;
  return (
    <>
      {kids.map((k) => (
        <JobNode key={k.id} job={k} depth={depth} updates={updates} />
      ))}
      {more > 0 && (
        <tr>
          <td colSpan={6} className="hint" style={{ paddingLeft: `${0.7 + depth * 1.4}rem` }}>
            and {more} more
          </td>
        </tr>
      )}
    </>
  );
}
