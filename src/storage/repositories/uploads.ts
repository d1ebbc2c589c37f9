// Reserved and received uploads (the bytes themselves live in the object store).
import type { UploadRecord } from '../../uploads.js';
import type { SqlClient } from '../sql.js';
import { DocTable } from './doc-table.js';

export class UploadsRepository {
  private readonly table: DocTable<UploadRecord>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<UploadRecord>(sql, {
      table: 'uploads',
      id: 'uploadId',
      idColumn: 'upload_id',
      columns: { workspace_id: (u) => u.workspaceId, created_at: (u) => u.createdAt },
    });
  }

  insert(record: UploadRecord): Promise<void> {
    return this.table.insert(record);
  }

  insertMany(records: readonly UploadRecord[]): Promise<void> {
    return this.table.insertMany(records);
  }

  get(uploadId: string): Promise<UploadRecord | null> {
    return this.table.get(uploadId);
  }

  update(uploadId: string, change: (record: UploadRecord) => void): Promise<UploadRecord | null> {
    return this.table.update(uploadId, change);
  }

  delete(uploadId: string): Promise<boolean> {
    return this.table.delete(uploadId);
  }

  /** Uploads created before `cutoff`, oldest first (retention). */
  createdBefore(cutoff: Date, limit: number): Promise<UploadRecord[]> {
    return this.table.where('created_at < $1', [cutoff, limit], 'ORDER BY created_at LIMIT $2');
  }
}
