// Visual search from one instance on a sheet: the legend symbols its region
// shows (the service's matchers, geometry or pixels) and their instances
// across the project, grouped by sheet; each links to the sheet zoomed to
// them.
import { useEffect, useState } from "react";
import { useClient } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import type { SimilarQuery } from "../gql/graphql";
import type { Box } from "../detections";
import { href } from "../route";

const SimilarQ = graphql(`
  query Similar($projectID: ID!, $sheetID: ID!, $bounds: BoundingBoxInput!) {
    search(projectID: $projectID, input: { region: { sheetID: $sheetID, bounds: $bounds }, limit: 50 }) {
      hits {
        sourceType
        sourceID
        blockID
        sheetID
        sheetNumber
        label
        count
        bounds {
          ...BoxFields
        }
      }
      meta {
        reason
        notes
      }
    }
  }
`);

type Result = NonNullable<SimilarQuery["search"]>;

interface Props {
  projectID: string;
  sheetID: string;
  /** the region asked about, sheet pixels */
  box: Box;
  onClose: () => void;
}

export function Similar({ projectID, sheetID, box, onClose }: Props) {
  const client = useClient();
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    setResult(null);
    setError("");
    const bounds = { xMin: Math.max(0, box.xMin - 2), yMin: Math.max(0, box.yMin - 2), xMax: box.xMax + 2, yMax: box.yMax + 2 };
    client
      .query(SimilarQ, { projectID, sheetID, bounds }, { requestPolicy: "network-only" })
      .toPromise()
      .then((r) => {
        if (!live) return;
        if (r.error) setError(errorMessage(r.error));
        else setResult(r.data?.search ?? null);
      });
    return () => {
      live = false;
    };
  }, [client, projectID, sheetID, box.xMin, box.yMin, box.xMax, box.yMax]);

  const entries = result?.hits.filter((h) => h.sourceType === "legend_entry") ?? [];
  const symbols = result?.hits.filter((h) => h.sourceType === "symbol") ?? [];
  const total = symbols.reduce((a, h) => a + (h.count ?? 0), 0);
  return (
    <aside className="similar" aria-label="Similar symbols" data-testid="similar" data-ready={result !== null || error !== ""}>
      <div className="inline">
        <h2>Looks like</h2>
        <button type="button" onClick={onClose} aria-label="Close the similar symbols">
          ×
        </button>
      </div>
      {!result && !error && <p>Comparing with the project's legend symbols…</p>}
      {error && <p className="error" role="alert">{error}</p>}
      {result && entries.length === 0 && <p className="empty">{result.meta.reason || result.meta.notes?.join(" ") || "No legend symbol matches."}</p>}
      <ul>
        {entries.map((e) => (
          <li key={e.sourceID}>
            <a href={href({ screen: "sheet", id: e.sheetID, focus: e.bounds ? [e.bounds.xMin, e.bounds.yMin, e.bounds.xMax, e.bounds.yMax] : undefined })} data-testid="similar-entry">
              {e.label}
            </a>{" "}
            <small>legend on {e.sheetNumber}</small>
          </li>
        ))}
      </ul>
      {symbols.length > 0 && (
        <>
          <h3>
            {total} instances on {new Set(symbols.map((s) => s.sheetID)).size === 1 ? "1 sheet" : `${new Set(symbols.map((s) => s.sheetID)).size} sheets`}
          </h3>
          <ul>
            {symbols.map((s) => (
              <li key={`${s.sourceID}-${s.blockID}`}>
                <a href={href({ screen: "sheet", id: s.sheetID, focus: s.bounds ? [s.bounds.xMin, s.bounds.yMin, s.bounds.xMax, s.bounds.yMax] : undefined })}>
                  {s.sheetNumber}: {s.label} ({s.count})
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
