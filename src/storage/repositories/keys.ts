// API keys: found by the SHA-256 of the presented token (unique), never by the token itself.
import type { ApiKeyRecord } from '../../store/records.js';
import type { SqlClient } from '../sql.js';
import { DocTable } from './doc-table.js';

export class KeysRepository {
  readonly table: DocTable<ApiKeyRecord>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<ApiKeyRecord>(sql, {
      table: 'api_keys',
      id: 'keyId',
      idColumn: 'key_id',
      columns: { workspace_id: (k) => k.workspaceId, token_sha256: (k) => k.tokenSha256, provisioning_id: (k) => k.provisioningId, active: (k) => k.active },
    });
  }

  insert(record: ApiKeyRecord): Promise<void> {
    return this.table.insert(record);
  }

  insertMany(records: readonly ApiKeyRecord[]): Promise<void> {
    return this.table.insertMany(records);
  }

  get(keyId: string): Promise<ApiKeyRecord | null> {
    return this.table.get(keyId);
  }

  async findByTokenSha256(tokenSha256: string): Promise<ApiKeyRecord | null> {
    const [key] = await this.table.where('token_sha256 = $1', [tokenSha256]);
    return key ?? null;
  }

  /**
   * The key a checkout provisioning created. Provisioning ids are unique in the table, so of two concurrent
   * provisionings with one id the second insert fails and its caller replays this key.
   */
  async findByProvisioningId(provisioningId: string): Promise<ApiKeyRecord | null> {
    const [key] = await this.table.where('provisioning_id = $1', [provisioningId]);
    return key ?? null;
  }

  /** A workspace's keys, or every key (operator), oldest first. */
  list(workspaceId?: string): Promise<ApiKeyRecord[]> {
    return workspaceId === undefined ? this.table.where('') : this.table.where('workspace_id = $1', [workspaceId]);
  }

  update(keyId: string, change: (record: ApiKeyRecord) => void): Promise<ApiKeyRecord | null> {
    return this.table.update(keyId, change);
  }

  async touch(keyId: string, at = new Date()): Promise<void> {
    await this.table.sql.query(`UPDATE api_keys SET doc = jsonb_set(doc, '{lastUsedAt}', to_jsonb($2::text)) WHERE key_id = $1`, [keyId, at.toISOString()]);
  }

  async anyActive(): Promise<boolean> {
    return (await this.table.scalar<{ n: number }>('count(*)::int AS n', 'active')).n > 0;
  }

  /** Active keys holding a scope (the last active operator key may not be revoked). */
  async countActiveWithScope(scope: string): Promise<number> {
    return (await this.table.scalar<{ n: number }>('count(*)::int AS n', `active AND doc->'scopes' ? $1`, [scope])).n;
  }
}
