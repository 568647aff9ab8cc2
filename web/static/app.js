"use strict";
// Talks to /graphql with the key in session storage.
const $ = (id) => document.getElementById(id);
let after = null;

async function gql(query, variables) {
  const res = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Authorization": "Bearer " + sessionStorage.getItem("plangraph-key") },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.detail || res.statusText);
  if (body.errors && body.errors.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data;
}

function show(el, msg) { el.textContent = msg; el.hidden = !msg; }

async function loadProjects(reset) {
  if (reset) { after = null; $("project-rows").textContent = ""; }
  const data = await gql(`query($after: Cursor) { projects(first: 50, after: $after, orderBy: [{field: CREATED_AT, direction: DESC}]) {
      edges { node { id name createdAt } } pageInfo { hasNextPage endCursor } } }`, { after });
  for (const { node } of data.projects.edges) {
    const tr = document.createElement("tr");
    for (const v of [node.name, node.id, new Date(node.createdAt).toLocaleString()]) {
      const td = document.createElement("td");
      if (v === node.id) { const c = document.createElement("code"); c.textContent = v; td.append(c); } else td.textContent = v;
      tr.append(td);
    }
    $("project-rows").append(tr);
  }
  after = data.projects.pageInfo.endCursor;
  $("more").hidden = !data.projects.pageInfo.hasNextPage;
}

async function enter() {
  try {
    await loadProjects(true);
    $("login").hidden = true; $("projects").hidden = false; show($("key-error"), "");
  } catch (e) {
    sessionStorage.removeItem("plangraph-key");
    $("login").hidden = false; $("projects").hidden = true; show($("key-error"), e.message);
  }
}

$("key-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem("plangraph-key", $("key").value.trim());
  $("key").value = "";
  enter();
});
$("forget").addEventListener("click", () => { sessionStorage.removeItem("plangraph-key"); location.reload(); });
$("more").addEventListener("click", () => loadProjects(false).catch((e) => show($("project-error"), e.message)));
$("new-project").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await gql(`mutation($name: String!) { createProject(input: {name: $name}) { id } }`, { name: $("project-name").value });
    $("project-name").value = ""; show($("project-error"), "");
    await loadProjects(true);
  } catch (e) { show($("project-error"), e.message); }
});
if (sessionStorage.getItem("plangraph-key")) enter();
