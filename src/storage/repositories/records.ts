// The append-only records of the accounts side: abuse events, spend alerts, imported gate verdicts.
import type { AbuseEventRecord, GateVerdictRecord, SpendAlertRecord } from '../../store/records.js';
import type { SqlClient } from '../sql.js';
import { DocTable } from './doc-table.js';

export class AbuseEventsRepository {
  private readonly table: DocTable<AbuseEventRecord>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<AbuseEventRecord>(sql, { table: 'abuse_events', id: 'eventId', idColumn: 'event_id', columns: { workspace_id: (e) => e.workspaceId } });
  }

  insert(record: AbuseEventRecord): Promise<void> {
    return this.table.insert(record);
  }

  insertMany(records: readonly AbuseEventRecord[]): Promise<void> {
    return this.table.insertMany(records);
  }

  list(workspaceId?: string): Promise<AbuseEventRecord[]> {
    return workspaceId === undefined ? this.table.where('') : this.table.where('workspace_id = $1', [workspaceId]);
  }
}

export class SpendAlertsRepository {
  private readonly table: DocTable<SpendAlertRecord>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<SpendAlertRecord>(sql, {
      table: 'spend_alerts',
      id: 'alertId',
      idColumn: 'alert_id',
      columns: { workspace_id: (a) => a.workspaceId, billing_period: (a) => a.billingPeriod },
    });
  }

  insert(record: SpendAlertRecord): Promise<void> {
    return this.table.insert(record);
  }

  insertMany(records: readonly SpendAlertRecord[]): Promise<void> {
    return this.table.insertMany(records);
  }

  async alreadyAlerted(workspaceId: string, billingPeriod: string): Promise<boolean> {
    return (await this.table.scalar<{ n: number }>('count(*)::int AS n', 'workspace_id = $1 AND billing_period = $2', [workspaceId, billingPeriod])).n > 0;
  }

  list(workspaceId?: string): Promise<SpendAlertRecord[]> {
    return workspaceId === undefined ? this.table.where('') : this.table.where('workspace_id = $1', [workspaceId]);
  }
}

export class GateVerdictsRepository {
  private readonly table: DocTable<GateVerdictRecord>;

  constructor(sql: SqlClient) {
    this.table = new DocTable<GateVerdictRecord>(sql, {
      table: 'gate_verdicts',
      id: 'importId',
      idColumn: 'import_id',
      columns: { job_id: (g) => g.jobId, workspace_id: (g) => g.workspaceId },
    });
  }

  insert(record: GateVerdictRecord): Promise<void> {
    return this.table.insert(record);
  }

  insertMany(records: readonly GateVerdictRecord[]): Promise<void> {
    return this.table.insertMany(records);
  }

  listForJob(jobId: string): Promise<GateVerdictRecord[]> {
    return this.table.where('job_id = $1', [jobId]);
  }
}
