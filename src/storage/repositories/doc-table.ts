// A table that keeps whole records as `doc` beside a few indexed columns: the shared insert/get/replace/list of the
// smaller aggregates. Table and column names come from this module's callers, never from input.
import type { Row, SqlClient } from '../sql.js';

export interface DocTableSpec<T> {
  table: string;
  id: keyof T & string;
  idColumn: string;
  /** Indexed columns and how each is read from a record. */
  columns: Record<string, (record: T) => unknown>;
}

export class DocTable<T extends object> {
  private readonly names: string[];

  constructor(
    readonly sql: SqlClient,
    private readonly spec: DocTableSpec<T>,
  ) {
    this.names = [spec.idColumn, ...Object.keys(spec.columns), 'doc'];
  }

  private values(record: T): unknown[] {
    return [record[this.spec.id], ...Object.values(this.spec.columns).map((read) => read(record) ?? null), JSON.stringify(record)];
  }

  async insert(record: T): Promise<void> {
    await this.insertMany([record]);
  }

  async insertMany(records: readonly T[]): Promise<void> {
    if (records.length === 0) return;
    const width = this.names.length;
    const params: unknown[] = [];
    const rows = records.map((r, i) => {
      params.push(...this.values(r));
      return `(${this.names.map((_, c) => `$${i * width + c + 1}${c === width - 1 ? '::jsonb' : ''}`).join(', ')})`;
    });
    await this.sql.query(`INSERT INTO ${this.spec.table} (${this.names.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }

  async get(id: string): Promise<T | null> {
    const [row] = await this.sql.query<{ doc: T }>(`SELECT doc FROM ${this.spec.table} WHERE ${this.spec.idColumn} = $1`, [id]);
    return row?.doc ?? null;
  }

  /** Replaces a stored record; false when there is none with its id. */
  async replace(record: T): Promise<boolean> {
    const sets = this.names.slice(1).map((n, i) => `${n} = $${i + 2}${n === 'doc' ? '::jsonb' : ''}`);
    const rows = await this.sql.query(`UPDATE ${this.spec.table} SET ${sets.join(', ')} WHERE ${this.spec.idColumn} = $1 RETURNING 1`, this.values(record));
    return rows.length === 1;
  }

  /** Reads, changes and writes one record under a row lock; null when there is none. */
  async update(id: string, change: (record: T) => void): Promise<T | null> {
    return this.sql.transaction(async (tx) => {
      const [row] = await tx.query<{ doc: T }>(`SELECT doc FROM ${this.spec.table} WHERE ${this.spec.idColumn} = $1 FOR UPDATE`, [id]);
      if (!row) return null;
      change(row.doc);
      const sets = this.names.slice(1).map((n, i) => `${n} = $${i + 2}${n === 'doc' ? '::jsonb' : ''}`);
      await tx.query(`UPDATE ${this.spec.table} SET ${sets.join(', ')} WHERE ${this.spec.idColumn} = $1`, this.values(row.doc));
      return row.doc;
    });
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.sql.query(`DELETE FROM ${this.spec.table} WHERE ${this.spec.idColumn} = $1 RETURNING 1`, [id]);
    return rows.length === 1;
  }

  /** Records matching `where` (SQL over the indexed columns, `$n` placeholders), in insertion order unless told. */
  async where(where: string, params: unknown[] = [], tail = 'ORDER BY seq'): Promise<T[]> {
    const rows = await this.sql.query<{ doc: T }>(`SELECT doc FROM ${this.spec.table} ${where ? `WHERE ${where}` : ''} ${tail}`, params);
    return rows.map((r) => r.doc);
  }

  async scalar<R extends Row>(select: string, where: string, params: unknown[] = []): Promise<R> {
    const [row] = await this.sql.query<R>(`SELECT ${select} FROM ${this.spec.table} ${where ? `WHERE ${where}` : ''}`, params);
    return row!;
  }
}
