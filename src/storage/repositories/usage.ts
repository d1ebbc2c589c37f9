// The usage ledger: append-only, one entry per finished job. Sums are computed by the database, not by scanning.
import type { UsageEntry } from '../../billing/ledger.js';
import type { SqlClient } from '../sql.js';
import { DocTable } from './doc-table.js';

export class UsageRepository {
  private readonly table: DocTable<UsageEntry>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<UsageEntry>(sql, {
      table: 'usage_entries',
      id: 'entryId',
      idColumn: 'entry_id',
      columns: {
        workspace_id: (e) => e.workspaceId,
        job_id: (e) => e.jobId,
        billing_period: (e) => e.billingPeriod,
        sha256: (e) => e.sha256,
        minutes_metered: (e) => e.minutesMetered,
        media_minutes: (e) => e.mediaMinutes,
      },
    });
  }

  append(entry: UsageEntry): Promise<void> {
    return this.table.insert(entry);
  }

  appendMany(entries: readonly UsageEntry[]): Promise<void> {
    return this.table.insertMany(entries);
  }

  /** Entries of one workspace (or all) and one billing period (or all), oldest first. */
  list(filter: { workspaceId?: string; billingPeriod?: string } = {}): Promise<UsageEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.workspaceId !== undefined) where.push(`workspace_id = $${params.push(filter.workspaceId)}`);
    if (filter.billingPeriod !== undefined) where.push(`billing_period = $${params.push(filter.billingPeriod)}`);
    return this.table.where(where.join(' AND '), params);
  }

  /** The newest `limit` entries of a workspace (or of all), newest first (GET /v1/usage). */
  latest(filter: { workspaceId?: string; limit: number }): Promise<UsageEntry[]> {
    return filter.workspaceId === undefined
      ? this.table.where('', [filter.limit], 'ORDER BY seq DESC LIMIT $1')
      : this.table.where('workspace_id = $1', [filter.workspaceId, filter.limit], 'ORDER BY seq DESC LIMIT $2');
  }

  /** Minutes charged in a period, to one workspace or to all (the usage totals). */
  async totalMinutes(filter: { billingPeriod: string; workspaceId?: string }): Promise<number> {
    const row =
      filter.workspaceId === undefined
        ? await this.table.scalar<{ n: number }>('coalesce(sum(minutes_metered), 0)::int AS n', 'billing_period = $1', [filter.billingPeriod])
        : await this.table.scalar<{ n: number }>('coalesce(sum(minutes_metered), 0)::int AS n', 'workspace_id = $1 AND billing_period = $2', [filter.workspaceId, filter.billingPeriod]);
    return row.n;
  }

  /** Minutes charged to a workspace in a period (ledger.minutesUsed). */
  async minutesUsed(workspaceId: string, billingPeriod: string): Promise<number> {
    const row = await this.table.scalar<{ n: number }>('coalesce(sum(minutes_metered), 0)::int AS n', 'workspace_id = $1 AND billing_period = $2', [workspaceId, billingPeriod]);
    return row.n;
  }

  /** Minutes of media a workspace checked in a period, charged or not (spend alerts). */
  async mediaMinutes(workspaceId: string, billingPeriod: string): Promise<number> {
    const row = await this.table.scalar<{ n: number }>('coalesce(sum(media_minutes), 0)::int AS n', 'workspace_id = $1 AND billing_period = $2', [workspaceId, billingPeriod]);
    return row.n;
  }

  /** The entries meterJob needs to apply the free re-check rule: this workspace's, this period's, for these bytes. */
  forMedia(workspaceId: string, billingPeriod: string, sha256: string): Promise<UsageEntry[]> {
    return this.table.where('workspace_id = $1 AND billing_period = $2 AND sha256 = $3', [workspaceId, billingPeriod, sha256]);
  }
}
