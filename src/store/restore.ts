// Puts the in-memory store back to a saved state after a write that failed, in place: a record that survives keeps
// its identity, so code holding it (a running job, an upload being stored) keeps working on the live record.
import { COLLECTION_IDS, COLLECTIONS, type CollectionName } from './file.js';

type Records = Record<string, unknown>[];
type Data = { [K in CollectionName]: Records };

/** A record's id; idempotency keys are unique per workspace only. */
const identity = (name: CollectionName, record: Record<string, unknown>): string =>
  name === 'idempotency' ? `${String(record.workspaceId)}\n${String(record.key)}` : String(record[COLLECTION_IDS[name]]);

export function restoreInPlace(live: Data, saved: Data): void {
  for (const name of COLLECTIONS) {
    const current = new Map(live[name].map((record) => [identity(name, record), record]));
    const restored = saved[name].map((record) => {
      const existing = current.get(identity(name, record));
      if (!existing) return record;
      current.delete(identity(name, record));
      for (const key of Object.keys(existing)) if (!Object.hasOwn(record, key)) delete existing[key];
      return Object.assign(existing, record);
    });
    live[name].length = 0;
    for (const record of restored) live[name].push(record);
  }
}
