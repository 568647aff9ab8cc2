// A drawing's sheets as a grid of thumbnails: number, title, discipline and
// revision; filtered by discipline and searched by number or title.
import { useMemo, useState } from "react";
import { useClient, useQuery } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";
import { useImageURL } from "../hooks";
import { href } from "../route";
import { SheetEdit } from "./SheetEdit";
import { countsCSV, downloadText } from "../detections";
import { loadCounts } from "../sheetdata";

const DrawingQuery = graphql(`
  query Drawing($id: ID!) {
    drawing(id: $id) {
      id
      name
      status
      projectID
      project {
        name
      }
      sheets(first: 100) {
        totalCount
        edges {
          node {
            id
            pageNumber
            sheetNumber
            title
            discipline
            revision
          }
        }
      }
    }
  }
`);

/** SheetCard is what the grid filters on. */
export interface SheetCard {
  id: string;
  pageNumber: number;
  sheetNumber: string;
  title: string;
  discipline: string;
  revision: string;
}

/** filterSheets keeps the sheets of the discipline ("" for all) whose number or title contains text, in page order. */
export function filterSheets<T extends SheetCard>(sheets: T[], discipline: string, text: string): T[] {
  const t = text.trim().toLowerCase();
  const compact = t.replace(/[\s\-.]/g, "");
  return sheets
    .filter((s) => !discipline || s.discipline === discipline)
    .filter((s) => !t || s.title.toLowerCase().includes(t) || s.sheetNumber.toLowerCase().replace(/[\s\-.]/g, "").includes(compact))
    .sort((a, b) => a.pageNumber - b.pageNumber);
}

export function DrawingView({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: DrawingQuery, variables: { id } });
  const [discipline, setDiscipline] = useState("");
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const client = useClient();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState("");
  const sheets = useMemo(() => data?.drawing?.sheets.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [], [data]);
  const disciplines = useMemo(() => [...new Set(sheets.map((s) => s.discipline).filter(Boolean))].sort(), [sheets]);
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const d = data.drawing;
  if (!d) return <p className="error" role="alert">No such drawing.</p>;
  const shown = filterSheets(sheets, discipline, text);
  const name = d.name;
  // every sheet's counts, in page order, as one CSV (the sheets shown by the filter, or all)
  async function exportCounts() {
    setExporting(true);
    setExportError("");
    try {
      const rows = await loadCounts(client, shown);
      downloadText(countsCSV(rows), "text/csv", `${name.replace(/\.pdf$/i, "") || id}-counts.csv`);
    } catch (e) {
      setExportError(errorMessage(e as Error));
    } finally {
      setExporting(false);
    }
  }
  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a> / <a href={href({ screen: "project", id: d.projectID })}>{d.project.name}</a> / <span>{d.name}</span>
      </nav>
      <h1>{d.name}</h1>
      <div className="inline filters">
        <select aria-label="Discipline" value={discipline} onChange={(e) => setDiscipline(e.target.value)}>
          <option value="">All disciplines</option>
          {disciplines.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
        <input aria-label="Find sheet" placeholder="Sheet number or title" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="hint">
          {shown.length} of {sheets.length} sheets
        </span>
        <button type="button" onClick={exportCounts} disabled={exporting || shown.length === 0}>
          {exporting ? "Exporting…" : "Export counts (CSV)"}
        </button>
      </div>
      {exportError && (
        <p className="error" role="alert">
          {exportError}
        </p>
      )}
      <ul className="sheets">
        {shown.map((s) => (
          <li key={s.id} className="sheet">
            <a href={href({ screen: "sheet", id: s.id })} data-testid="sheet-card">
              <Thumb id={s.id} alt={`${s.sheetNumber} ${s.title}`} />
              {editing !== s.id && (
                <>
                  <span className="num">{s.sheetNumber || `Page ${s.pageNumber}`}</span>
                  <span className="title">{s.title}</span>
                  <small>
                    {s.discipline || "—"} · rev {s.revision || "—"}
                  </small>
                </>
              )}
            </a>
            {editing === s.id ? (
              <SheetEdit id={s.id} meta={s} disciplines={disciplines} onDone={() => setEditing(null)} />
            ) : (
              <button type="button" className="edit" onClick={() => setEditing(s.id)} aria-label={`Correct ${s.sheetNumber || `page ${s.pageNumber}`}`}>
                Edit
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Thumb({ id, alt }: { id: string; alt: string }) {
  const { url, error } = useImageURL(`/v1/sheets/${encodeURIComponent(id)}/image?variant=thumbnail`);
  if (error) return <span className="thumb missing" title={error} />;
  return url ? <img className="thumb" src={url} alt={alt} /> : <span className="thumb" />;
}
