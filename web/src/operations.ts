// Operations shared by several screens: a box's fields and a job's live
// state and events (the same subscriptions follow ingestion and parse jobs).
import { graphql } from "./gql";

/** BoxFields selects a BoundingBox (pixels; frame per field: sheet for blocks, block for features). */
export const BoxFields = graphql(`
  fragment BoxFields on BoundingBox {
    xMin
    yMin
    xMax
    yMax
  }
`);

/** LegendEntryFields selects what the legend panel shows of a legend entry (bounds in its block's pixels). */
export const LegendEntryFields = graphql(`
  fragment LegendEntryFields on Feature {
    id
    label
    description
    hasGraphic
    blockID
    bounds {
      ...BoxFields
    }
  }
`);

/** JobUpdated is a job's status and progress (0–1), live until it ends. */
export const JobUpdated = graphql(`
  subscription JobUpdated($id: ID!) {
    jobUpdated(id: $id) {
      id
      status
      progress
      error {
        code
        message
      }
    }
  }
`);

/** JobEvents are the events of a job and of the jobs below it, oldest first, live until it ends. */
export const JobEvents = graphql(`
  subscription JobEvents($id: ID!) {
    jobEvents(id: $id) {
      id
      type
      data
    }
  }
`);
