// A project: its drawings (each a link to its sheets), the upload zone and search.
import { useQuery } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import { href } from "../route";
import { Upload } from "./Upload";
import { Search } from "./Search";

const ProjectQuery = graphql(`
  query Project($id: ID!) {
    project(id: $id) {
      id
      name
      drawings(first: 100, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
        totalCount
        edges {
          node {
            id
            name
            status
            pageCount
            createdAt
          }
        }
      }
    }
  }
`);

export function ProjectView({ id }: { id: string }) {
  const [{ data, error }, refetch] = useQuery({ query: ProjectQuery, variables: { id } });
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const p = data.project;
  if (!p) return <p className="error" role="alert">No such project.</p>;
  const drawings = p.drawings.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a> / <span>{p.name}</span>
      </nav>
      <h1>{p.name}</h1>
      <nav className="inline actions" aria-label="Project">
        <a className="button" href={href({ screen: "compare", projectID: p.id })}>
          Compare revisions
        </a>
        <a className="button" href={href({ screen: "jobs", projectID: p.id })}>
          Jobs
        </a>
      </nav>
      <Search projectID={p.id} />
      <Upload projectID={p.id} onReady={() => refetch({ requestPolicy: "network-only" })} />
      <h2>Drawings</h2>
      {drawings.length === 0 && <p className="empty">No drawings yet: drop PDFs or images above.</p>}
      <table className="list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Pages</th>
            <th>Uploaded</th>
          </tr>
        </thead>
        <tbody>
          {drawings.map((d) => (
            <tr key={d.id}>
              <td>{d.status === "ready" ? <a href={href({ screen: "drawing", id: d.id })}>{d.name}</a> : d.name}</td>
              <td>
                <span className={`status ${d.status}`}>{d.status}</span>
              </td>
              <td>{d.pageCount}</td>
              <td>{new Date(d.createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
