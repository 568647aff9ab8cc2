// Starting a comparison: pick two drawings of the project (every sheet
// paired), or one sheet of each, and the compare job starts; its screen
// follows it.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { errorMessage } from "../api";
import { compareInput, type CompareChoice } from "../compare";
import { graphql } from "../gql";
import { href } from "../route";

const DrawingsQ = graphql(`
  query CompareDrawings($id: ID!) {
    project(id: $id) {
      id
      name
      drawings(first: 100, orderBy: [{ field: CREATED_AT, direction: DESC }], where: { status: ready }) {
        edges {
          node {
            id
            name
            createdAt
          }
        }
      }
    }
  }
`);

const SheetsQ = graphql(`
  query CompareSheets($id: ID!) {
    drawing(id: $id) {
      id
      sheets(first: 100) {
        edges {
          node {
            id
            pageNumber
            sheetNumber
            title
          }
        }
      }
    }
  }
`);

const CompareM = graphql(`
  mutation Compare($input: CompareInput!) {
    compare(input: $input) {
      id
      status
    }
  }
`);

export function Compare({ projectID }: { projectID: string }) {
  const [{ data, error }] = useQuery({ query: DrawingsQ, variables: { id: projectID } });
  const [started, start] = useMutation(CompareM);
  const [choice, setChoice] = useState<CompareChoice>({ type: "Drawing", oldDrawing: "", newDrawing: "", oldSheet: "", newSheet: "" });
  const [problem, setProblem] = useState("");
  const set = (p: Partial<CompareChoice>) => {
    setProblem("");
    setChoice((c) => ({ ...c, ...p }));
  };
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  if (!data) return <p>Loading…</p>;
  const p = data.project;
  if (!p) return <p className="error" role="alert">No such project.</p>;
  const drawings = p.drawings.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const { input, problem } = compareInput(choice);
    if (!input) return setProblem(problem ?? "");
    const r = await start({ input });
    if (r.data) location.hash = href({ screen: "comparison", id: r.data.compare.id });
  }

  return (
    <section>
      <nav className="crumbs">
        <a href="#/">Projects</a> / <a href={href({ screen: "project", id: p.id })}>{p.name}</a> / <span>Compare</span>
      </nav>
      <h1>Compare revisions</h1>
      {drawings.length < 1 && <p className="empty">No ready drawing yet: upload the two revisions first.</p>}
      <form className="compare-form" onSubmit={submit}>
        <fieldset className="inline">
          <legend>Compare</legend>
          <label>
            <input type="radio" name="type" checked={choice.type === "Drawing"} onChange={() => set({ type: "Drawing" })} /> whole drawings (sheets paired by number)
          </label>
          <label>
            <input type="radio" name="type" checked={choice.type === "Sheet"} onChange={() => set({ type: "Sheet" })} /> one sheet of each
          </label>
        </fieldset>
        <div className="sides">
          <Side label="Older (A)" drawings={drawings} drawing={choice.oldDrawing} sheet={choice.oldSheet} sheets={choice.type === "Sheet"}
            onDrawing={(d) => set({ oldDrawing: d, oldSheet: "" })} onSheet={(s) => set({ oldSheet: s })} />
          <Side label="Newer (B)" drawings={drawings} drawing={choice.newDrawing} sheet={choice.newSheet} sheets={choice.type === "Sheet"}
            onDrawing={(d) => set({ newDrawing: d, newSheet: "" })} onSheet={(s) => set({ newSheet: s })} />
        </div>
        <button type="submit" disabled={started.fetching}>
          Start comparison
        </button>
        {problem && <p className="error" role="alert">{problem}</p>}
        {started.error && <p className="error" role="alert">{errorMessage(started.error)}</p>}
      </form>
    </section>
  );
}

interface SideProps {
  label: string;
  drawings: { id: string; name: string; createdAt: string }[];
  drawing: string;
  sheet: string;
  sheets: boolean;
  onDrawing: (id: string) => void;
  onSheet: (id: string) => void;
}

function Side({ label, drawings, drawing, sheet, sheets, onDrawing, onSheet }: SideProps) {
  return (
    <fieldset className="side">
      <legend>{label}</legend>
      <label>
        Drawing
        <select aria-label={`${label} drawing`} value={drawing} onChange={(e) => onDrawing(e.target.value)}>
          <option value="">Choose a drawing…</option>
          {drawings.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({new Date(d.createdAt).toLocaleDateString()})
            </option>
          ))}
        </select>
      </label>
      {sheets && drawing && <SheetPick label={label} drawingID={drawing} value={sheet} onChange={onSheet} />}
    </fieldset>
  );
}

function SheetPick({ label, drawingID, value, onChange }: { label: string; drawingID: string; value: string; onChange: (id: string) => void }) {
  const [{ data, error }] = useQuery({ query: SheetsQ, variables: { id: drawingID } });
  if (error) return <p className="error" role="alert">{errorMessage(error)}</p>;
  const sheets = [...(data?.drawing?.sheets.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [])].sort((a, b) => a.pageNumber - b.pageNumber);
  return (
    <label>
      Sheet
      <select aria-label={`${label} sheet`} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose a sheet…</option>
        {sheets.map((s) => (
          <option key={s.id} value={s.id}>
            {s.sheetNumber || `Page ${s.pageNumber}`} {s.title}
          </option>
        ))}
      </select>
    </label>
  );
}
