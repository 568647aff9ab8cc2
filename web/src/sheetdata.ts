// Loading what the viewer draws: all of a sheet's symbol instances (pages of
// 100, the API's cap) and the legend entries that define them, which may
// belong to another sheet's legend (a drawing's legend serves its sheets).
import type { Client } from "urql";
import { graphql } from "./gql";
import type { Box, Detection } from "./detections";
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
