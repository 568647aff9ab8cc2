// Search and ask over a project: results grouped by sheet, each a link that
// opens the sheet zoomed to the result's bounds; an answer with its sources.
import { useState, type FormEvent } from "react";
import { useClient } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import type { SearchQuery, AskQuery } from "../gql/graphql";
import { href } from "../route";

const SearchQ = graphql(`
  query Search($projectID: ID!, $query: String!) {
    search(projectID: $projectID, input: { query: $query, limit: 50 }) {
      hits {
        sourceType
        sourceID
        sheetID
        sheetNumber
        label
        snippet
        count
        bounds {
          ...BoxFields
        }
      }
      meta {
        indexed
        reason
      }
    }
  }
`);
const AskQ = graphql(`
  query Ask($projectID: ID!, $question: String!) {
    ask(projectID: $projectID, input: { question: $question }) {
      answer
      confidence
      sources {
        sourceID
        sheetID
        sheetNumber
        label
        snippet
        bounds {
          ...BoxFields
        }
      }
    }
  }
`);

type Hit = NonNullable<SearchQuery["search"]>["hits"][number];
type Source = NonNullable<AskQuery["ask"]>["sources"][number];

function link(h: Hit | Source): string {
  const b = h.bounds;
  return href({ screen: "sheet", id: h.sheetID, focus: b ? [b.xMin, b.yMin, b.xMax, b.yMax] : undefined });
}

/** Snippet shows «marked» words as <mark>. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return <>{parts.map((p, i) => (i % 2 ? <mark key={i}>{p}</mark> : <span key={i}>{p}</span>))}</>;
}

export function Search({ projectID }: { projectID: string }) {
  const client = useClient();
  const [q, setQ] = useState("");
  const [error, setError] = useState("");
  const [result, setResult] = useState<{ hits: Hit[]; reason?: string | null } | null>(null);
  const [answer, setAnswer] = useState<NonNullable<AskQuery["ask"]> | null>(null);

  async function run(ev: FormEvent, mode: "search" | "ask") {
    ev.preventDefault();
    setError("");
    if (mode === "search") {
      const r = await client.query(SearchQ, { projectID, query: q }, { requestPolicy: "network-only" }).toPromise();
      if (r.error) return setError(errorMessage(r.error));
      setAnswer(null);
      setResult(r.data?.search ? { hits: r.data.search.hits, reason: r.data.search.meta.reason } : null);
    } else {
      const r = await client.query(AskQ, { projectID, question: q }, { requestPolicy: "network-only" }).toPromise();
      if (r.error) return setError(errorMessage(r.error));
      setResult(null);
      setAnswer(r.data?.ask ?? null);
    }
  }

  const groups = new Map<string, Hit[]>();
  for (const h of result?.hits ?? []) groups.set(h.sheetNumber || h.sheetID, [...(groups.get(h.sheetNumber || h.sheetID) ?? []), h]);
  return (
    <div className="search">
      <form className="inline" onSubmit={(e) => run(e, "search")} role="search">
        <input aria-label="Search or ask" placeholder="Search sheets, symbols, notes — or ask a question" value={q} onChange={(e) => setQ(e.target.value)} maxLength={500} required />
        <button>Search</button>
        <button type="button" onClick={(e) => q.trim() && run(e, "ask")}>
          Ask
        </button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {result && result.hits.length === 0 && <p className="empty">{result.reason || "Nothing found."}</p>}
      {[...groups].map(([sheet, hits]) => (
        <div key={sheet} className="hitgroup">
          <h3>{sheet}</h3>
          <ul>
            {hits.map((h) => (
              <li key={h.sourceID}>
                <span className="tag">{h.sourceType}</span>{" "}
                <a href={link(h)}>
                  {h.label}
                  {h.count != null && ` (${h.count})`}
                </a>{" "}
                <small>
                  <Snippet text={h.snippet} />
                </small>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {answer && (
        <div className="answer">
          <p>
            <strong>{answer.answer}</strong> <small>confidence {Math.round(answer.confidence * 100)} %</small>
          </p>
          <ul>
            {answer.sources.map((s) => (
              <li key={s.sourceID}>
                <a href={link(s)}>
                  {s.sheetNumber}: {s.label}
                </a>{" "}
                <small>
                  <Snippet text={s.snippet} />
                </small>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
