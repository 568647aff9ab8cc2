// Sign-in: the API key is tried with a small query before it is kept, so a
// wrong key is answered with the server's own message.
import { useState, type FormEvent } from "react";
import { connect, errorMessage, storeKey, type Connection } from "../api";
import { graphql } from "../gql";

const CheckKey = graphql(`
  query CheckKey {
    projects(first: 1) {
      totalCount
    }
  }
`);

export function SignIn({ onSignedIn }: { onSignedIn: (c: Connection) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setBusy(true);
    setError("");
    const conn = connect(key.trim());
    const res = await conn.client.query(CheckKey, {}, { requestPolicy: "network-only" }).toPromise();
    setBusy(false);
    if (res.error) {
      conn.close();
      setError(errorMessage(res.error));
      return;
    }
    storeKey(key.trim());
    onSignedIn(conn);
  }
  return (
    <main className="signin">
      <h1>plangraph</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label htmlFor="key">API key</label>
        <input id="key" type="password" autoComplete="off" placeholder="sk_…" value={key} onChange={(e) => setKey(e.target.value)} required autoFocus />
        <button disabled={busy}>{busy ? "Checking…" : "Sign in"}</button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p className="hint">
        Make a key with <code>plangraph keys create --org NAME</code>. It is kept in this tab only.
      </p>
    </main>
  );
}
