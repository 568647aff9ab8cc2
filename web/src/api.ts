// The app's connection to plangraph: the GraphQL client (queries and
// mutations over HTTP, subscriptions over graphql-transport-ws), the API key
// kept in the tab's session storage, and authenticated fetches of the REST
// image endpoints (tiles, thumbnails, block images), which an <img> cannot
// make because they need the Authorization header.
import { Client, cacheExchange, fetchExchange, subscriptionExchange, type CombinedError } from "urql";
import { createClient as createWSClient, type Client as WSClient } from "graphql-ws";

const keyName = "plangraph-key";

/** The API key of this tab, or null before sign-in. */
export const storedKey = (): string | null => sessionStorage.getItem(keyName);
export const storeKey = (key: string) => sessionStorage.setItem(keyName, key);
export const forgetKey = () => sessionStorage.removeItem(keyName);

/** A Problem Details body (RFC 9457) as the server writes it. */
export interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  status?: number;
  errors?: Record<string, string[]>;
}

/** problemMessage is what a person reads about a failed request: the server's detail, then field errors. */
export function problemMessage(p: Problem, fallback: string): string {
  let msg = p.detail || p.title || fallback;
  if (p.errors) {
    const fields = Object.entries(p.errors).map(([f, m]) => `${f}: ${m.join(", ")}`);
    if (fields.length) msg += ` (${fields.join("; ")})`;
  }
  return msg;
}

/** readProblem reads a failed response's message (Problem Details when it is one). */
export async function readProblem(res: Response): Promise<string> {
  const text = await res.text();
  try {
    return problemMessage(JSON.parse(text) as Problem, `${res.status} ${res.statusText}`);
  } catch {
    return text.trim() || `${res.status} ${res.statusText}`;
  }
}

/**
 * problemFetch wraps fetch so that a Problem Details answer from /graphql
 * (401 for a wrong key, 429 when rate limited…) reaches urql as a GraphQL
 * error with the server's detail, instead of a bare network error.
 */
export function problemFetch(base: typeof fetch = (...a) => fetch(...a)): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (res.ok || !(res.headers.get("content-type") ?? "").includes("json")) return res;
    const message = await readProblem(res);
    const body = JSON.stringify({ errors: [{ message, extensions: { status: res.status } }] });
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  };
}

/** errorMessage is a CombinedError as one line: the GraphQL errors' messages or the network error. */
export function errorMessage(e: CombinedError | Error | undefined | null): string {
  if (!e) return "";
  if ("graphQLErrors" in e && e.graphQLErrors.length) return e.graphQLErrors.map((g) => g.message).join("; ");
  if ("networkError" in e && e.networkError) return e.networkError.message;
  return e.message;
}

/** Connection is a signed-in client: GraphQL over HTTP and websocket, and authenticated REST fetches. */
export interface Connection {
  key: string;
  client: Client;
  /** fetch with the key, for the REST endpoints (images, tiles). */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => void;
}

/** connect makes the clients for key; close ends the websocket. */
export function connect(key: string): Connection {
  const ws: WSClient = createWSClient({
    url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`,
    connectionParams: { apiKey: key },
    lazy: true,
    retryAttempts: 5,
  });
  const client = new Client({
    url: "/graphql",
    fetch: problemFetch(),
    fetchOptions: () => ({ headers: { Authorization: `Bearer ${key}` } }),
    requestPolicy: "cache-and-network",
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || "" };
          return {
            subscribe(sink) {
              return { unsubscribe: ws.subscribe(input, sink) };
            },
          };
        },
      }),
    ],
  });
  return {
    key,
    client,
    fetch: (path, init) => fetch(path, { ...init, headers: { ...(init?.headers ?? {}), Authorization: `Bearer ${key}` } }),
    close: () => void ws.dispose(),
  };
}
