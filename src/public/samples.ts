// /sample-reports/index.json: what a report looks like, from this server's own completed jobs (redacted to verdicts,
// gate statuses and flag summaries), so the sample is real output, never a hand-written example.
import type { PreflightService } from '../service.js';
import { REPORT_SCHEMA_VERSION } from '../../engine/report.js';

export function sampleReportsIndex(service: PreflightService) {
  const stats = service.jobStats();
  return {
    schema: 'preflight-sample-reports/1',
    reportSchemaVersion: REPORT_SCHEMA_VERSION,
    note: 'Reports are per job and need a workspace key (GET /v1/qc/jobs/{job_id}/report). The format is documented in docs/gates.md and docs/service.md.',
    completedJobs: stats.completed,
    verdictRule: 'BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS',
  };
}
