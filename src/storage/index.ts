// What a Preflight process opens at start-up, in order: the database (migrated), the object store, and the import of
// an older lowdb data dir when there is one. The queue is started separately, by the processes that work or enqueue.
import { databaseOptions, openDatabase, type Database } from './database.js';
import { importLowdb, type ImportResult } from './import-lowdb.js';
import { openObjectStore, type ObjectStore } from './object-store.js';

export interface Storage {
  db: Database;
  objects: ObjectStore;
  /** What was imported from db.json at this start, or null. */
  imported: ImportResult | null;
}

export async function openStorage(home: string, env: NodeJS.ProcessEnv = process.env, log?: (line: string) => void): Promise<Storage> {
  const objects = openObjectStore(home, env);
  const db = await openDatabase(databaseOptions(home, env));
  try {
    const imported = await importLowdb(home, db, objects, log);
    return { db, objects, imported };
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
}
