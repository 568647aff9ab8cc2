// Correcting what ingestion read from a sheet (number, title, discipline)
// in place on the sheets grid: only the changed fields are sent
// (updateSheet), and a refusal shows the server's message.
import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { errorMessage } from "../api";
import { graphql } from "../gql";

const UpdateSheetM = graphql(`
  mutation UpdateSheet($id: ID!, $input: SheetPatch!) {
    updateSheet(id: $id, input: $input) {
      id
      sheetNumber
      title
      discipline
      revision
    }
  }
`);

/** SheetMeta is the part of a sheet a person corrects. */
export interface SheetMeta {
  sheetNumber: string;
  title: string;
  discipline: string;
}

/** sheetPatch is the fields of next that differ from was (trimmed), or null when nothing changed. */
export function sheetPatch(was: SheetMeta, next: SheetMeta): Partial<SheetMeta> | null {
  const out: Partial<SheetMeta> = {};
  for (const k of ["sheetNumber", "title", "discipline"] as const) {
    const v = next[k].trim();
    if (v !== was[k]) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

interface Props {
  id: string;
  meta: SheetMeta;
  disciplines: string[];
  onDone: () => void;
}

export function SheetEdit({ id, meta, disciplines, onDone }: Props) {
  const [form, setForm] = useState<SheetMeta>(meta);
  const [saved, save] = useMutation(UpdateSheetM);
  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const input = sheetPatch(meta, form);
    if (!input) return onDone();
    const r = await save({ id, input });
    if (r.data) onDone();
  }
  const listID = `disciplines-${id}`;
  return (
    <form className="sheet-edit" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && onDone()} aria-label={`Correct sheet ${meta.sheetNumber}`}>
      <label>
        Number
        <input value={form.sheetNumber} onChange={(e) => setForm({ ...form, sheetNumber: e.target.value })} autoFocus />
      </label>
      <label>
        Title
        <input value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
      </label>
      <label>
        Discipline
        <input value={form.discipline} list={listID} onChange={(e) => setForm({ ...form, discipline: e.target.value })} />
        <datalist id={listID}>
          {disciplines.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
      </label>
      <div className="inline">
        <button type="submit" disabled={saved.fetching}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {saved.error && (
        <p className="error" role="alert">
          {errorMessage(saved.error)}
        </p>
      )}
    </form>
  );
}
