// Webhook endpoints and their deliveries. A delivery is claimed with a conditional UPDATE, so two workers never send it
// twice at once.
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/records.js';
import type { SqlClient } from '../sql.js';
import { DocTable } from './doc-table.js';

export class WebhooksRepository {
  private readonly endpoints: DocTable<WebhookEndpointRecord>;
  private readonly deliveries: DocTable<WebhookDeliveryRecord>;

  constructor(private readonly sql: SqlClient) {
    this.endpoints = new DocTable<WebhookEndpointRecord>(sql, {
      table: 'webhooks',
      id: 'webhookId',
      idColumn: 'webhook_id',
      columns: { workspace_id: (w) => w.workspaceId },
    });
    this.deliveries = new DocTable<WebhookDeliveryRecord>(sql, {
      table: 'webhook_deliveries',
      id: 'deliveryId',
      idColumn: 'delivery_id',
      columns: {
        webhook_id: (d) => d.webhookId,
        job_id: (d) => d.jobId,
        event_type: (d) => d.eventType,
        workspace_id: (d) => d.workspaceId,
        status: (d) => d.status,
        next_attempt_at: (d) => d.nextAttemptAt,
        created_at: (d) => d.createdAt,
      },
    });
  }

  // ---------------------------------------------------------------- endpoints

  insertEndpoint(record: WebhookEndpointRecord): Promise<void> {
    return this.endpoints.insert(record);
  }

  insertEndpoints(records: readonly WebhookEndpointRecord[]): Promise<void> {
    return this.endpoints.insertMany(records);
  }

  getEndpoint(webhookId: string): Promise<WebhookEndpointRecord | null> {
    return this.endpoints.get(webhookId);
  }

  /** A workspace's endpoints, or every endpoint (operator). */
  listEndpoints(workspaceId?: string): Promise<WebhookEndpointRecord[]> {
    return workspaceId === undefined ? this.endpoints.where('') : this.endpoints.where('workspace_id = $1', [workspaceId]);
  }

  async countEndpoints(workspaceId: string | null): Promise<number> {
    return (await this.endpoints.scalar<{ n: number }>('count(*)::int AS n', 'workspace_id IS NOT DISTINCT FROM $1::text', [workspaceId])).n;
  }

  deleteEndpoint(webhookId: string): Promise<boolean> {
    return this.endpoints.delete(webhookId);
  }

  // ---------------------------------------------------------------- deliveries

  /** Fails the pending deliveries of a deleted endpoint (except those being attempted right now). */
  async failPendingOf(webhookId: string, reason: string, inFlight: readonly string[] = []): Promise<number> {
    const rows = await this.sql.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
         doc = doc || jsonb_build_object('status', 'failed', 'nextAttemptAt', NULL, 'lastError', $2::text)
       WHERE webhook_id = $1 AND status = 'pending' AND NOT (delivery_id = ANY($3::text[])) RETURNING 1`,
      [webhookId, reason, inFlight],
    );
    return rows.length;
  }

  insertDeliveries(records: readonly WebhookDeliveryRecord[]): Promise<void> {
    return this.deliveries.insertMany(records);
  }

  getDelivery(deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    return this.deliveries.get(deliveryId);
  }

  updateDelivery(deliveryId: string, change: (record: WebhookDeliveryRecord) => void): Promise<WebhookDeliveryRecord | null> {
    return this.deliveries.update(deliveryId, change);
  }

  /** Whether this event of this job was already queued for this endpoint (or, for a callback, this URL). */
  async hasDelivery(jobId: string, eventType: string, webhookId: string | null, url: string): Promise<boolean> {
    const row = await this.deliveries.scalar<{ n: number }>(
      'count(*)::int AS n',
      `job_id = $1 AND event_type = $2 AND webhook_id IS NOT DISTINCT FROM $3::text AND ($3::text IS NOT NULL OR doc->>'url' = $4)`,
      [jobId, eventType, webhookId, url],
    );
    return row.n > 0;
  }

  /** Newest first: a workspace's deliveries (or all), optionally of one endpoint or one status. */
  listDeliveries(filter: { workspaceId?: string; webhookId?: string; status?: WebhookDeliveryRecord['status']; limit: number }): Promise<WebhookDeliveryRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.workspaceId !== undefined) where.push(`workspace_id = $${params.push(filter.workspaceId)}`);
    if (filter.webhookId !== undefined) where.push(`webhook_id = $${params.push(filter.webhookId)}`);
    if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
    params.push(filter.limit);
    return this.deliveries.where(where.join(' AND '), params, `ORDER BY seq DESC LIMIT $${params.length}`);
  }

  /** Pending deliveries due at `at` (of one workspace, or all), longest waiting first. */
  due(at: Date, limit: number, workspaceId?: string): Promise<WebhookDeliveryRecord[]> {
    const mine = workspaceId === undefined ? '' : ' AND workspace_id = $3';
    return this.deliveries.where(
      `status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= $1)${mine}`,
      workspaceId === undefined ? [at.toISOString(), limit] : [at.toISOString(), limit, workspaceId],
      'ORDER BY next_attempt_at NULLS FIRST, seq LIMIT $2',
    );
  }

  /**
   * Takes a due delivery for one attempt: pushes its next attempt `leaseMs` ahead so no other worker takes it
   * meanwhile. Null when it is not pending and due any more.
   */
  async claimDelivery(deliveryId: string, leaseMs: number, at = new Date()): Promise<WebhookDeliveryRecord | null> {
    const next = new Date(at.getTime() + leaseMs).toISOString();
    const [row] = await this.sql.query<{ doc: WebhookDeliveryRecord }>(
      `UPDATE webhook_deliveries SET next_attempt_at = $3::timestamptz, doc = jsonb_set(doc, '{nextAttemptAt}', to_jsonb($3::text))
       WHERE delivery_id = $1 AND status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= $2) RETURNING doc`,
      [deliveryId, at.toISOString(), next],
    );
    return row?.doc ?? null;
  }
}
