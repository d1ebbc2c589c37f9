// /v1/qc: estimate, jobs, reports, events, artifacts, markers, receipts, gate-verdict imports.
import { z } from 'zod';
import { ReceiptSchema } from '../../engine/receipt.js';
import { ReportSchema } from '../../engine/report-schema.js';
import { ServiceError } from '../../src/errors.js';
import { DeclaredBytesInputSchema } from '../../src/schemas/bounds.js';
import { CreateJobInputSchema } from '../../src/schemas/create-job.js';
import { GateVerdictInputSchema } from '../../src/schemas/gate-verdict.js';
import { EstimateInputSchema, EstimateOutputSchema } from '../../src/schemas/estimate.js';
import { ArtifactSchema, JobEventSchema, ListJobsQuerySchema, QcJobSchema } from '../../src/schemas/job.js';
import { ARTIFACTS, type ArtifactKind } from '../../src/jobs/artifact-table.js';
import type { PreflightService } from '../../src/service.js';
import { newRouter, registerRoute, type Authenticator, type RouteGroup } from '../route.js';

const LOCAL_PATH_FIELDS = ['file_path', 'manifest_path', 'transcript_path', 'watchlist_path', 'expected_script_path', 'sidecar_dir'] as const;

export const CreateJobBodySchema = CreateJobInputSchema.omit({
  file_path: true,
  manifest_path: true,
  transcript_path: true,
  watchlist_path: true,
  expected_script_path: true,
  sidecar_dir: true,
})
  .extend({
    size_bytes: DeclaredBytesInputSchema.optional().describe('Declared size of the media in bytes, checked against the upload limit before it is read.'),
    // Declared so the route can name them in its refusal; every other unknown field is dropped before the service.
    ...Object.fromEntries(LOCAL_PATH_FIELDS.map((f) => [f, z.unknown().optional().describe('Not accepted over HTTP: 400 local_paths_not_accepted.')])),
  });

const JobIdParams = z.object({ job_id: z.string().min(1) });
const EventsSchema = z.object({ events: z.array(JobEventSchema) });
const ArtifactsSchema = z.object({ artifacts: z.array(ArtifactSchema) });
const GateVerdictResultSchema = z.object({
  importId: z.string(),
  jobId: z.string(),
  claimedVerdict: z.string(),
  verdict: z.string().nullable().describe('Preflight’s own verdict, unchanged by the import.'),
  disagrees: z.boolean(),
  note: z.string(),
});

export function jobRoutes(auth: Authenticator, service: PreflightService): RouteGroup {
  const app = newRouter();
  registerRoute(app, auth, {
    method: 'post', path: '/estimate', tag: 'QC', auth: 'jobs:read', summary: 'Estimate checked minutes, cost and the guardrail outcome',
    body: EstimateInputSchema, responses: { 200: { description: 'Cost estimate with the effective guardrail behaviour', schema: EstimateOutputSchema } },
  }, async ({ principal, body }) => ({ status: 200, body: await service.estimate(principal!, body) }));

  registerRoute(app, auth, {
    method: 'post', path: '/jobs', tag: 'QC', auth: 'jobs:write', summary: 'Create a QC job',
    description: 'Runs the check in the request (201), queues it with process_async (202), or returns the existing job for a repeated idempotency_key (200). Local server paths are not accepted over HTTP.',
    body: CreateJobBodySchema,
    responses: {
      201: { description: 'Job created and run', schema: QcJobSchema },
      200: { description: 'Existing job for this idempotency key', schema: QcJobSchema },
      202: { description: 'Job queued for a worker (or a drain)', schema: QcJobSchema },
      413: { description: 'Duration or upload size over the abuse limit' },
      429: { description: 'Active-job or usage limit exceeded' },
    },
  }, async ({ principal, body, c }) => {
    const paths = LOCAL_PATH_FIELDS.filter((f) => (body as Record<string, unknown>)[f] !== undefined);
    if (paths.length) throw new ServiceError('local_paths_not_accepted', `${paths.join(', ')} are not accepted over HTTP: upload the media (POST /v1/uploads) or give a URL.`, { fields: paths }, 400);
    const { job, replay, queued } = await service.createJob(principal!, body, { signal: c.req.raw.signal });
    // The request decides the status, not how far the background worker got with the job meanwhile.
    return { status: replay ? 200 : queued ? 202 : 201, body: job };
  });

  registerRoute(app, auth, {
    method: 'get', path: '/jobs', tag: 'QC', auth: 'jobs:read', summary: 'List recent jobs',
    query: ListJobsQuerySchema,
    responses: { 200: { description: 'Recent jobs, newest first', schema: z.object({ jobs: z.array(QcJobSchema) }) } },
  }, async ({ principal, query }) => ({ status: 200, body: { jobs: await service.listJobs(principal!, query) } }));

  registerRoute(app, auth, {
    method: 'post', path: '/jobs/drain', tag: 'QC', auth: 'jobs:write', summary: 'Process queued jobs',
    description: 'Workspace keys drain only their own workspace’s queued jobs; operator keys drain globally.',
    body: z.object({ limit: z.number().int().min(1).max(25).optional() }),
    responses: { 200: { description: 'Queued jobs processed', schema: z.object({ processed: z.number().int(), jobs: z.array(QcJobSchema) }) } },
  }, async ({ principal, body }) => ({ status: 200, body: await service.drain(principal!, body) }));

  registerRoute(app, auth, {
    method: 'get', path: '/jobs/{job_id}', tag: 'QC', auth: 'jobs:read', summary: 'Job status', params: JobIdParams,
    responses: { 200: { description: 'The job', schema: QcJobSchema.extend({ stage: z.string().nullable() }) } },
  }, async ({ principal, params }) => ({ status: 200, body: await service.getJob(principal!, params.job_id) }));

  registerRoute(app, auth, {
    method: 'get', path: '/jobs/{job_id}/report', tag: 'QC', auth: 'reports:read', summary: 'Timestamped report', params: JobIdParams,
    responses: { 200: { description: 'The report', schema: ReportSchema }, 409: { description: 'The job is not completed' } },
  }, async ({ principal, params }) => ({ status: 200, body: await service.getReport(principal!, params.job_id) }));

  registerRoute(app, auth, {
    method: 'get', path: '/jobs/{job_id}/events', tag: 'QC', auth: 'jobs:read', summary: 'Lifecycle events', params: JobIdParams,
    responses: { 200: { description: 'Events in order', schema: EventsSchema } },
  }, async ({ principal, params }) => ({ status: 200, body: { events: await service.getEvents(principal!, params.job_id) } }));

  registerRoute(app, auth, {
    method: 'get', path: '/jobs/{job_id}/artifacts', tag: 'QC', auth: 'reports:read', summary: 'Artifact list', params: JobIdParams,
    responses: { 200: { description: 'Artifacts with URLs', schema: ArtifactsSchema } },
  }, async ({ principal, params }) => ({ status: 200, body: { artifacts: await service.getArtifacts(principal!, params.job_id) } }));

  // The text artifacts, from the artifact table: the report and the receipt above and below are JSON with schemas.
  const DESCRIPTIONS: Partial<Record<ArtifactKind, string>> = {
    report_html: 'Verdict, flag timeline, contact sheet with outlined regions, loudness chart, waveform, gates and receipt. No external requests.',
  };
  for (const artifact of ARTIFACTS.filter((a) => a.kind !== 'report_json' && a.kind !== 'receipt')) {
    registerRoute(app, auth, {
      method: 'get', path: `/jobs/{job_id}/${artifact.restPath}`, tag: 'QC', auth: 'reports:read', summary: artifact.title, params: JobIdParams,
      description: DESCRIPTIONS[artifact.kind],
      responses: { 200: { description: artifact.title, schema: z.string(), contentType: artifact.contentType } },
    }, async ({ principal, params }) => ({
      status: 200,
      // getMarkerCsv answers 409 for a job not completed yet, as the report does.
      body: artifact.kind === 'markers_csv' ? await service.getMarkerCsv(principal!, params.job_id) : (await service.getArtifactContent(principal!, params.job_id, artifact.file)).content,
      contentType: `${artifact.contentType}; charset=utf-8`,
    }));
  }

  registerRoute(app, auth, {
    method: 'get', path: '/jobs/{job_id}/receipt', tag: 'QC', auth: 'reports:read', summary: 'Signed receipt', params: JobIdParams,
    description: 'A BLOCK receipt lists the failed gates in `blocked`. Verify it publicly with POST /v1/public/receipts/verify.',
    responses: { 200: { description: 'The receipt', schema: ReceiptSchema }, 409: { description: 'The job is not completed' } },
  }, async ({ principal, params }) => ({ status: 200, body: await service.getReceipt(principal!, params.job_id) }));

  registerRoute(app, auth, {
    method: 'post', path: '/jobs/{job_id}/gate-verdict', tag: 'QC', auth: 'jobs:write', summary: 'Import a client gate verdict (recorded as a claim)',
    description: 'Never turns a BLOCK into PASS: the import is kept beside Preflight’s verdict, and receipts always carry Preflight’s own.',
    params: JobIdParams, body: GateVerdictInputSchema,
    responses: { 200: { description: 'Gate verdict imported', schema: GateVerdictResultSchema } },
  }, async ({ principal, params, body }) => ({ status: 200, body: await service.importGateVerdict(principal!, params.job_id, body) }));
  return { base: '/v1/qc', routes: app };
}
