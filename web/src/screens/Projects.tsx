// Projects: the organization's projects, newest first, and a form to create one.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import { href } from "../route";

const ProjectsQuery = graphql(`
  query Projects($after: Cursor) {
    projects(first: 50, after: $after, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      edges {
        node {
          id
          name
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CreateProject = graphql(`
  mutation CreateProject($name: String!) {
    createProject(input: { name: $name }) {
      id
      name
    }
  }
`);

export function Projects() {
  const [{ data, error, fetching }] = useQuery({ query: ProjectsQuery, variables: {} });
  const [created, create] = useMutation(CreateProject);
  const [name, setName] = useState("");
  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const res = await create({ name: name.trim() });
    if (res.data) location.hash = href({ screen: "project", id: res.data.createProject.id });
  }
  const rows = data?.projects.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <section>
      <h1>Projects</h1>
      <form className="inline" onSubmit={submit} aria-label="New project">
        <input aria-label="New project name" placeholder="New project name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} required />
        <button disabled={created.fetching}>Create project</button>
      </form>
      {created.error && <p className="error" role="alert">{errorMessage(created.error)}</p>}
      {error && <p className="error" role="alert">{errorMessage(error)}</p>}
      {fetching && !data && <p>Loading…</p>}
      {data && rows.length === 0 && <p className="empty">No projects yet: create one above.</p>}
      <ul className="cards">
        {rows.map((p) => (
          <li key={p.id}>
            <a href={href({ screen: "project", id: p.id })}>
              <strong>{p.name}</strong>
              <small>{new Date(p.createdAt).toLocaleString()}</small>
            </a>
          </li>
        ))}
      </ul>
      {data?.projects.pageInfo.hasNextPage && <p className="hint">Showing the newest 50 of {data.projects.totalCount}.</p>}
    </section>
  );
}
