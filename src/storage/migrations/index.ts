// Every migration, oldest first. A new version is a new file added here; a released file never changes.
import * as initial from './0001-initial.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [initial];
