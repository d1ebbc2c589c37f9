// /sample-reports/index.json: where reports are and how they read. It carries no figures of this server's jobs: public
// documents show configuration, never business figures.
import { REPORT_SCHEMA_VERSION } from '../../engine/report.js';

export function sampleReportsIndex() {
  return {
    schema: 'preflight-sample-reports/1',
    reportSchemaVersion: REPORT_SCHEMA_VERSION,
    note: 'Reports are per job and need a workspace key (GET /v1/qc/jobs/{job_id}/report). The format is documented in docs/gates.md and docs/service.md.',
    verdictRule: 'BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS',
  };
}
