// A database for tests of the services above the store: embedded (in memory) and emptied between tests.
import type { Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/database.js';

const TABLES = 'jobs, idempotency, job_events, usage_entries, uploads, api_keys, abuse_events, spend_alerts, webhooks, webhook_deliveries, gate_verdicts';

export function memoryDatabase(): Promise<Database> {
  return openDatabase({ dir: null });
}

export async function emptyDatabase(db: Database): Promise<void> {
  await db.sql.exec(`TRUNCATE ${TABLES}`);
}

/** Every stored record as text (what a look at the database would show): for "never stored in the clear" checks. */
export async function storedText(db: Database): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES.split(', ')) {
    const column = table === 'job_events' ? 'event' : table === 'idempotency' ? 'key' : 'doc';
    const rows = await db.sql.query<{ t: string }>(`SELECT ${column}::text AS t FROM ${table}`);
    parts.push(...rows.map((r) => r.t));
  }
  return parts.join('\n');
}

/** The records of the accounts and webhooks side, oldest first. */
export async function storedRecords(db: Database) {
  return {
    apiKeys: await db.keys.list(),
    abuseEvents: await db.abuseEvents.list(),
    spendAlerts: await db.spendAlerts.list(),
    usage: await db.usage.list(),
    webhooks: await db.webhooks.listEndpoints(),
    deliveries: await db.webhooks.listDeliveries({ limit: 1000 }),
  };
}
