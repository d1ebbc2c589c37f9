// Remote mode of the MCP door: the tool operations over the REST API of a `preflight serve` (PREFLIGHT_API_URL), as
// the workspace of PREFLIGHT_API_KEY. Same tools, schemas and output shapes as local mode; the principal argument is
// ignored because the key decides what is visible.
import { sha256File, type Receipt } from '../engine/receipt.js';
import type { Report } from '../engine/report.js';
import { ServiceError } from '../src/errors.js';
import type { CreateJobInput } from '../src/schemas/create-job.js';
import type { EstimateInput, EstimateOutput } from '../src/schemas/estimate.js';
import type { ListJobsQuery, QcJob } from '../src/schemas/job.js';
import { artifactByFile } from '../src/jobs/artifact-table.js';
import { type Artifact, type JobEvent, type OpContext, type Principal } from '../src/service.js';
import { checkReceipt } from '../src/receipts.js';
import type { CreateUploadInput, Upload } from '../src/uploads.js';
import type { ReceiptVerifyOptions, ToolBackend, ToolVerification } from './definitions.js';
import { RemoteApi } from './remote/api.js';
import type { RemoteConfig } from './remote/config.js';
import { createRemoteJob, type CreatedJob } from './remote/create-job.js';

export { remoteConfigFromEnv, RemoteConfigError, type RemoteConfig } from './remote/config.js';

// Job ids are `job_<hex>`; anything else could walk out of /v1/qc/jobs/{id} (a `..` segment), so it is simply unknown.
const JOB_ID = /^[A-Za-z0-9_-]{1,200}$/;

export class RemoteBackend implements ToolBackend {
  private readonly api: RemoteApi;

  constructor(config: Pick<RemoteConfig, 'apiUrl' | 'apiKey' | 'host'>) {
    this.api = new RemoteApi(config);
  }

  private jobPath(jobId: string, sub = ''): string {
    if (!JOB_ID.test(jobId)) throw new ServiceError('job_not_found', `No job ${jobId}.`, { jobId }, 404);
    return `/v1/qc/jobs/${jobId}${sub ? `/${sub}` : ''}`;
  }

  private async get<T>(path: string): Promise<T> {
    return (await this.api.json<T>('GET', path)).body;
  }

  createJob(_principal: Principal, input: CreateJobInput, ctx: OpContext = {}, opts: { waitMs?: number } = {}): Promise<CreatedJob> {
    return createRemoteJob(this.api, input, ctx, opts.waitMs);
  }

  async estimate(_principal: Principal, input: EstimateInput): Promise<EstimateOutput> {
    return (await this.api.json<EstimateOutput>('POST', '/v1/qc/estimate', { body: input })).body;
  }

  getJob(_principal: Principal, jobId: string): Promise<QcJob & { stage: string | null }> {
    return this.get(this.jobPath(jobId));
  }

  async listJobs(_principal: Principal, query: ListJobsQuery): Promise<QcJob[]> {
    return (await this.api.json<{ jobs: QcJob[] }>('GET', '/v1/qc/jobs', { query })).body.jobs;
  }

  getReport(_principal: Principal, jobId: string): Promise<Report> {
    return this.get(this.jobPath(jobId, 'report'));
  }

  getReceipt(_principal: Principal, jobId: string): Promise<Receipt> {
    return this.get(this.jobPath(jobId, 'receipt'));
  }

  async getMarkerCsv(_principal: Principal, jobId: string): Promise<string> {
    return (await this.api.text(this.jobPath(jobId, 'artifacts/markers'))).text;
  }

  async getEvents(_principal: Principal, jobId: string): Promise<JobEvent[]> {
    return (await this.get<{ events: JobEvent[] }>(this.jobPath(jobId, 'events'))).events;
  }

  async getArtifacts(_principal: Principal, jobId: string): Promise<Artifact[]> {
    return (await this.get<{ artifacts: Artifact[] }>(this.jobPath(jobId, 'artifacts'))).artifacts;
  }

  async getArtifactContent(_principal: Principal, jobId: string, file: string): Promise<{ content: string; contentType: string }> {
    const sub = artifactByFile(file)?.restPath;
    if (!sub) throw new ServiceError('artifact_not_found', `Job ${jobId} has no artifact ${file}.`, { jobId, file }, 404);
    const { text, contentType } = await this.api.text(this.jobPath(jobId, sub));
    // JSON documents come back compact; store them as local mode does, indented.
    return { content: contentType === 'application/json' ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text, contentType };
  }

  /**
   * With the issuer's key document the receipt is verified here, offline (only those keys are trusted). Otherwise the
   * server verifies it with its own keys; a local file is hashed here and only its sha256 is sent.
   */
  async verifyReceipt(receipt: unknown, opts: ReceiptVerifyOptions = {}): Promise<ToolVerification> {
    if (opts.publicKeys !== undefined) {
      return checkReceipt(receipt, { fileSha256: opts.fileSha256, filePath: opts.filePath, publicKeys: opts.publicKeys });
    }
    const sha256 = opts.fileSha256 ?? (opts.filePath ? await sha256File(opts.filePath) : undefined);
    return (await this.api.json<ToolVerification>('POST', '/v1/public/receipts/verify', { body: { receipt, ...(sha256 === undefined ? {} : { sha256 }) } })).body;
  }

  async createUpload(_principal: Principal, input: CreateUploadInput): Promise<{ upload: Upload }> {
    return { upload: (await this.api.json<Upload>('POST', '/v1/uploads', { body: input })).body };
  }
}
