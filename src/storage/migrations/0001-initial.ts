// Version 1: one table per aggregate. Each row keeps the whole record as `doc` (the shape the service already uses)
// beside the columns that are filtered, ordered or claimed on, so no query scans documents.
export const version = 1;
export const name = 'initial';
export const sql = `
CREATE TABLE jobs (
  job_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  source_url_sha256 text,
  claimed_by text,
  lease_until timestamptz,
  objects_removed_at timestamptz,
  doc jsonb NOT NULL
);
CREATE INDEX jobs_workspace_seq ON jobs (workspace_id, seq DESC);
CREATE INDEX jobs_status_seq ON jobs (status, seq);
CREATE INDEX jobs_source_url ON jobs (source_url_sha256) WHERE source_url_sha256 IS NOT NULL;
CREATE INDEX jobs_retention ON jobs (completed_at) WHERE objects_removed_at IS NULL;

CREATE TABLE idempotency (
  workspace_id text NOT NULL,
  key text NOT NULL,
  job_id text NOT NULL,
  request_sha256 text,
  PRIMARY KEY (workspace_id, key)
);

CREATE TABLE job_events (
  job_id text NOT NULL,
  seq bigserial,
  created_at timestamptz NOT NULL,
  event jsonb NOT NULL,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX job_events_created_at ON job_events (created_at);

CREATE TABLE usage_entries (
  entry_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text NOT NULL,
  job_id text NOT NULL,
  billing_period text NOT NULL,
  sha256 text,
  minutes_metered integer NOT NULL,
  media_minutes integer NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX usage_workspace_period ON usage_entries (workspace_id, billing_period);
CREATE INDEX usage_period ON usage_entries (billing_period);

CREATE TABLE uploads (
  upload_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text,
  created_at timestamptz NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX uploads_created_at ON uploads (created_at);

CREATE TABLE api_keys (
  key_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text NOT NULL,
  token_sha256 text NOT NULL UNIQUE,
  provisioning_id text UNIQUE,
  active boolean NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

CREATE TABLE abuse_events (
  event_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text,
  doc jsonb NOT NULL
);
CREATE INDEX abuse_events_workspace ON abuse_events (workspace_id);

CREATE TABLE spend_alerts (
  alert_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text,
  billing_period text,
  doc jsonb NOT NULL
);
CREATE INDEX spend_alerts_workspace_period ON spend_alerts (workspace_id, billing_period);

CREATE TABLE webhooks (
  webhook_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  workspace_id text,
  doc jsonb NOT NULL
);
CREATE INDEX webhooks_workspace ON webhooks (workspace_id);

CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  webhook_id text,
  job_id text NOT NULL,
  event_type text NOT NULL,
  workspace_id text,
  status text NOT NULL,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX deliveries_job ON webhook_deliveries (job_id, event_type);
CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_workspace ON webhook_deliveries (workspace_id, seq DESC);

CREATE TABLE gate_verdicts (
  import_id text PRIMARY KEY,
  seq bigserial UNIQUE,
  job_id text NOT NULL,
  workspace_id text NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX gate_verdicts_job ON gate_verdicts (job_id);

CREATE TABLE store_imports (
  source_sha256 text PRIMARY KEY,
  source_path text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  counts jsonb NOT NULL
);
`;
