// Uploading drawings: each dropped file is registered (createFileUpload), its
// bytes PUT to the signed URL with progress, confirmed, made a drawing, and
// its processing followed live (jobUpdated for status and progress,
// jobEvents for stages, pages and failures).
import { useEffect, useRef, useState, type DragEvent } from "react";
import { useClient, useSubscription } from "urql";
import { errorMessage, readProblem } from "../api";
import { graphql } from "../gql";
import { JobEvents, JobUpdated } from "../operations";
import { summarize, type JobEventLite } from "../progress";

const CreateUpload = graphql(`
  mutation CreateUpload($input: CreateFileUploadInput!) {
    createFileUpload(input: $input) {
      file {
        id
      }
      uploadURL
      method
      headers
    }
  }
`);
const Confirm = graphql(`
  mutation ConfirmFile($id: ID!) {
    confirmFile(id: $id) {
      id
      status
    }
  }
`);
const CreateDrawing = graphql(`
  mutation CreateDrawing($input: CreateDrawingInput!) {
    createDrawing(input: $input) {
      drawing {
        id
      }
      job {
        id
      }
    }
  }
`);
const types: Record<string, string> = { pdf: "application/pdf", png: "image/png", tif: "image/tiff", tiff: "image/tiff", jpg: "image/jpeg", jpeg: "image/jpeg" };

/** contentType is the upload's declared type: the browser's, else from the extension. */
export function contentType(f: { name: string; type: string }): string {
  if (f.type) return f.type;
  return types[f.name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}

interface Item {
  key: number;
  name: string;
  size: number;
  sent: number;
  phase: "uploading" | "confirming" | "processing" | "failed";
  error?: string;
  jobID?: string;
}

/** put sends the bytes with progress (fetch reports no upload progress); errors carry the server's detail. */
function put(url: string, method: string, headers: Record<string, string>, body: Blob, onProgress: (sent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open(method, url);
    for (const [k, v] of Object.entries(headers)) x.setRequestHeader(k, v);
    x.upload.onprogress = (e) => onProgress(e.loaded);
    x.onerror = () => reject(new Error("network error while uploading"));
    x.onload = async () => {
      if (x.status >= 200 && x.status < 300) return resolve();
      reject(new Error(await readProblem(new Response(x.responseText, { status: x.status, statusText: x.statusText }))));
    };
    x.send(body);
  });
}

export function Upload({ projectID, onReady }: { projectID: string; onReady: () => void }) {
  const client = useClient();
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const next = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  const update = (key: number, patch: Partial<Item>) => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...patch } : x)));

  async function start(file: File) {
    const key = next.current++;
    setItems((xs) => [...xs, { key, name: file.name, size: file.size, sent: 0, phase: "uploading" }]);
    const fail = (error: string) => update(key, { phase: "failed", error });
    const up = await client.mutation(CreateUpload, { input: { projectID, filename: file.name, contentType: contentType(file), size: file.size } }).toPromise();
    if (!up.data) return fail(errorMessage(up.error));
    const u = up.data.createFileUpload;
    try {
      await put(u.uploadURL, u.method, (u.headers ?? {}) as Record<string, string>, file, (sent) => update(key, { sent }));
    } catch (e) {
      return fail((e as Error).message);
    }
    update(key, { phase: "confirming", sent: file.size });
    const conf = await client.mutation(Confirm, { id: u.file.id }).toPromise();
    if (!conf.data) return fail(errorMessage(conf.error));
    const dr = await client.mutation(CreateDrawing, { input: { projectID, fileID: u.file.id } }).toPromise();
    if (!dr.data) return fail(errorMessage(dr.error));
    update(key, { phase: "processing", jobID: dr.data.createDrawing.job.id });
    onReady();
  }

  function drop(ev: DragEvent) {
    ev.preventDefault();
    setOver(false);
    for (const f of Array.from(ev.dataTransfer.files)) void start(f);
  }

  return (
    <div className="upload">
      <div
        className={over ? "dropzone over" : "dropzone"}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>Drop PDFs or images (PNG, JPEG, TIFF) here</p>
        <button type="button" onClick={() => input.current?.click()}>
          Choose files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff"
          onChange={(e) => {
            for (const f of Array.from(e.target.files ?? [])) void start(f);
            e.target.value = "";
          }}
        />
      </div>
      {items.length > 0 && (
        <ul className="uploads">
          {items.map((it) => (
            <li key={it.key} data-testid="upload">
              <strong>{it.name}</strong>
              {it.phase === "uploading" && <Bar label="Uploading" value={it.sent / Math.max(it.size, 1)} />}
              {it.phase === "confirming" && <span>Checking the bytes…</span>}
              {it.phase === "failed" && <p className="error" role="alert">{it.error}</p>}
              {it.phase === "processing" && it.jobID && <Processing jobID={it.jobID} onDone={onReady} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Bar({ label, value }: { label: string; value: number }) {
  const pct = Math.round(Math.min(Math.max(value, 0), 1) * 100);
  return (
    <span className="bar">
      <span>{label}</span>
      <progress max={100} value={pct} aria-label={label} /> <span>{pct} %</span>
    </span>
  );
}

/** Processing follows one drawing job to its end. */
function Processing({ jobID, onDone }: { jobID: string; onDone: () => void }) {
  const [job] = useSubscription({ query: JobUpdated, variables: { id: jobID } });
  const [events] = useSubscription({ query: JobEvents, variables: { id: jobID } }, (acc: JobEventLite[] = [], d) => [...acc, d.jobEvents]);
  const s = summarize(events.data ?? []);
  const j = job.data?.jobUpdated;
  const status = j?.status;
  const ended = status === "Completed" || status === "Failed" || status === "Canceled";
  const told = useRef(false);
  useEffect(() => {
    if (ended && !told.current) {
      told.current = true;
      onDone();
    }
  }, [ended, onDone]);
  const stage = status === "Completed" ? "Ready" : status === "Failed" ? "Failed" : s.stage;
  const failures = [...s.failures];
  if (j?.error && !failures.includes(j.error.message)) failures.push(j.error.message);
  return (
    <div className="processing" data-stage={stage}>
      <Bar label={stage} value={status === "Completed" ? 1 : (j?.progress ?? 0)} />
      <span className="pages">{s.pagesDone} page{s.pagesDone === 1 ? "" : "s"} done</span>
      {(job.error || events.error) && <p className="error" role="alert">{errorMessage(job.error ?? events.error)}</p>}
      {failures.map((f, i) => (
        <p key={i} className="error" role="alert">
          {f}
        </p>
      ))}
    </div>
  );
}
