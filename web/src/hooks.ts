// Hooks shared by the screens: the signed-in connection and images fetched
// with the API key (shown through blob: URLs, which the CSP allows for images).
import { createContext, useContext, useEffect, useState } from "react";
import type { Connection } from "./api";
import { readProblem } from "./api";

export const ConnectionContext = createContext<Connection | null>(null);

/** useConnection is the signed-in connection (the screens render only inside it). */
export function useConnection(): Connection {
  const c = useContext(ConnectionContext);
  if (!c) throw new Error("useConnection outside a signed-in app");
  return c;
}

/** fetchImage fetches an image endpoint with the key and decodes it. */
export async function fetchImage(conn: Connection, path: string, signal?: AbortSignal): Promise<Blob> {
  const res = await conn.fetch(path, { signal });
  if (!res.ok) throw new Error(await readProblem(res));
  return res.blob();
}

/** useImageURL is a blob: URL of the image at path (revoked when no longer shown), or the error. */
export function useImageURL(path: string | null): { url?: string; error?: string } {
  const conn = useConnection();
  const [state, setState] = useState<{ url?: string; error?: string }>({});
  useEffect(() => {
    if (!path) return;
    const ac = new AbortController();
    let url: string | undefined;
    fetchImage(conn, path, ac.signal).then(
      (b) => {
        url = URL.createObjectURL(b);
        setState({ url });
      },
      (e: Error) => {
        if (!ac.signal.aborted) setState({ error: e.message });
      },
    );
    return () => {
      ac.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [conn, path]);
  return state;
}

/**
 * download fetches path with the key and saves it as name (the server's
 * Problem Details detail is thrown when it refuses).
 */
export async function download(conn: Connection, path: string, name: string): Promise<void> {
  const res = await conn.fetch(path);
  if (!res.ok) throw new Error(await readProblem(res));
  saveBlob(await res.blob(), name);
}

/** saveBlob hands a blob to the browser as a download named name. */
export function saveBlob(b: Blob, name: string) {
  const url = URL.createObjectURL(b);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
