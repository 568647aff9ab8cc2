// Hash routes (#/p/{project}, #/p/{project}/compare, #/p/{project}/jobs,
// #/d/{drawing}, #/s/{sheet}?b=x0,y0,x1,y1, #/c/{compare job}?o={overlay},
// #/j/{job}, #/webhooks), so the server serves one index.html and every
// screen has a link.
import { useEffect, useState } from "react";

/** Route is the screen the hash names. */
export type Route =
  | { screen: "projects" }
  | { screen: "project"; id: string }
  | { screen: "drawing"; id: string }
  | { screen: "sheet"; id: string; focus?: [number, number, number, number] }
  | { screen: "compare"; projectID: string }
  | { screen: "comparison"; id: string; overlay?: string }
  | { screen: "jobs"; projectID: string }
  | { screen: "job"; id: string }
  | { screen: "webhooks" };

/** parseRoute reads a location hash. Unknown hashes are the projects list. */
export function parseRoute(hash: string): Route {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 1 && parts[0] === "webhooks") return { screen: "webhooks" };
  if (parts.length === 3 && parts[0] === "p" && parts[2] === "compare") return { screen: "compare", projectID: parts[1] };
  if (parts.length === 3 && parts[0] === "p" && parts[2] === "jobs") return { screen: "jobs", projectID: parts[1] };
  if (parts.length === 2) {
    if (parts[0] === "c") {
      const o = new URLSearchParams(query).get("o");
      return o ? { screen: "comparison", id: parts[1], overlay: o } : { screen: "comparison", id: parts[1] };
    }
    if (parts[0] === "j") return { screen: "job", id: parts[1] };
    if (parts[0] === "p") return { screen: "project", id: parts[1] };
    if (parts[0] === "d") return { screen: "drawing", id: parts[1] };
    if (parts[0] === "s") {
      const b = new URLSearchParams(query).get("b")?.split(",").map(Number);
      const focus = b && b.length === 4 && b.every(Number.isFinite) ? (b as [number, number, number, number]) : undefined;
      return { screen: "sheet", id: parts[1], focus };
    }
  }
  return { screen: "projects" };
}

/** href is the link to a route. */
export function href(r: Route): string {
  switch (r.screen) {
    case "projects":
      return "#/";
    case "project":
      return `#/p/${encodeURIComponent(r.id)}`;
    case "drawing":
      return `#/d/${encodeURIComponent(r.id)}`;
    case "sheet":
      return `#/s/${encodeURIComponent(r.id)}` + (r.focus ? `?b=${r.focus.map(Math.round).join(",")}` : "");
    case "compare":
      return `#/p/${encodeURIComponent(r.projectID)}/compare`;
    case "comparison":
      return `#/c/${encodeURIComponent(r.id)}` + (r.overlay ? `?o=${encodeURIComponent(r.overlay)}` : "");
    case "jobs":
      return `#/p/${encodeURIComponent(r.projectID)}/jobs`;
    case "job":
      return `#/j/${encodeURIComponent(r.id)}`;
    case "webhooks":
      return "#/webhooks";
  }
}

/** useRoute follows the location hash. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}
