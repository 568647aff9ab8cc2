// Loading what the viewer draws: all of a sheet's symbol instances (pages of
// 100, the API's cap) and the legend entries that define them, which may
// belong to another sheet's legend (a drawing's legend serves its sheets).
import type { Client } from "urql";
import { graphql } from "./gql";
import type { Box, Detection, SheetCounts } from "./detections";
import { toSheet } from "./detections";

const InstancesQ = graphql(`
  query SheetInstances($id: ID!, $after: Cursor) {
    sheet(id: $id) {
      symbolInstances(first: 100, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            blockID
            definedByID
            confidence
            bounds {
              ...BoxFields
            }
          }
        }
      }
    }
  }
`);

const EntriesQ = graphql(`
  query LegendEntriesByID($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      ... on Feature {
        ...LegendEntryFields
      }
    }
  }
`);

/** Entry is a legend entry as the legend panel shows it. */
export interface Entry {
  id: string;
  label: string;
  description: string;
  hasGraphic: boolean;
  blockID?: string | null;
  bounds?: Box | null;
}

/** loadDetections reads every symbol instance of the sheet, in sheet pixels, grouped by legend entry. */
export async function loadDetections(client: Client, sheetID: string, blocks: ReadonlyMap<string, Box>): Promise<{ detections: Detection[]; total: number }> {
  const out: Detection[] = [];
  let after: string | null | undefined;
  let total = 0;
  for (;;) {
    const r = await client.query(InstancesQ, { id: sheetID, after }, { requestPolicy: "network-only" }).toPromise();
    if (r.error) throw r.error;
    const conn = r.data?.sheet?.symbolInstances;
    if (!conn) break;
    total = conn.totalCount;
    for (const e of conn.edges ?? []) {
      const n = e?.node;
      const block = n?.blockID ? blocks.get(n.blockID) : undefined;
      if (!n || !n.bounds || !block) continue;
      out.push({ id: n.id, entryID: n.definedByID ?? "", confidence: n.confidence ?? 1, box: toSheet(n.bounds, block) });
    }
    if (!conn.pageInfo.hasNextPage) break;
    after = conn.pageInfo.endCursor;
  }
  out.sort((a, b) => (a.entryID < b.entryID ? -1 : a.entryID > b.entryID ? 1 : 0));
  return { detections: out, total };
}

/** maxNodeIDs is the most ids the API's nodes(ids:) takes at once. */
const maxNodeIDs = 100;

/** loadEntries reads legend entries by id (those defining instances that the sheet's own legend lacks), 100 at a time. */
export async function loadEntries(client: Client, ids: string[]): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let i = 0; i < ids.length; i += maxNodeIDs) {
    const r = await client.query(EntriesQ, { ids: ids.slice(i, i + maxNodeIDs) }, { requestPolicy: "network-only" }).toPromise();
    if (r.error) throw r.error;
    out.push(...(r.data?.nodes ?? []).flatMap((n) => (n && n.__typename === "Feature" ? [n as Entry] : [])));
  }
  return out;
}

const SheetCountsQ = graphql(`
  query SheetCounts($id: ID!, $after: Cursor) {
    sheet(id: $id) {
      legendEntries(first: 100) {
        edges {
          node {
            id
            label
            description
          }
        }
      }
      symbolInstances(first: 100, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            definedByID
          }
        }
      }
    }
  }
`);

/**
 * loadCounts reads each sheet's symbol instances and counts them per legend
 * entry, for a drawing's export: a sheet's rows are its own legend's entries
 * (counted or not) and the entries of other sheets' legends that define its
 * instances; sheets keep the order given.
 */
export async function loadCounts(client: Client, sheets: { id: string; sheetNumber: string; title: string }[]): Promise<SheetCounts[]> {
  const out: SheetCounts[] = [];
  const known = new Map<string, { label: string; description: string }>();
  const perSheet: { sheet: (typeof sheets)[number]; own: string[]; counts: Map<string, number> }[] = [];
  for (const sheet of sheets) {
    const own: string[] = [];
    const counts = new Map<string, number>();
    let after: string | null | undefined;
    for (;;) {
      const r = await client.query(SheetCountsQ, { id: sheet.id, after }, { requestPolicy: "network-only" }).toPromise();
      if (r.error) throw r.error;
      const s = r.data?.sheet;
      if (!s) break;
      if (!after) {
        for (const e of s.legendEntries.edges ?? []) {
          if (!e?.node) continue;
          own.push(e.node.id);
          known.set(e.node.id, e.node);
        }
      }
      for (const e of s.symbolInstances.edges ?? []) {
        const id = e?.node?.definedByID;
        if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      if (!s.symbolInstances.pageInfo.hasNextPage) break;
      after = s.symbolInstances.pageInfo.endCursor;
    }
    perSheet.push({ sheet, own, counts });
  }
  const missing = [...new Set(perSheet.flatMap((p) => [...p.counts.keys()]))].filter((id) => !known.has(id));
  for (const e of await loadEntries(client, missing)) known.set(e.id, e);
  for (const { sheet, own, counts } of perSheet) {
    const ids = [...own, ...[...counts.keys()].filter((id) => !own.includes(id))];
    out.push({
      sheet,
      rows: ids.map((id) => ({ id, label: known.get(id)?.label ?? "", description: known.get(id)?.description ?? "", count: counts.get(id) ?? 0 })),
    });
  }
  return out;
}
