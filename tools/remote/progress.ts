// Progress of a remote run as one 0..100 scale: the upload fills the first part, the server's job progress the rest.
// MCP wants progress values that only increase, so repeats and steps back are dropped.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpContext } from '../../src/service.js';
import type { JobStatus } from '../../src/schemas/job.js';

const UPLOAD_SHARE_PCT = 10;
/**
 * The SDK client handles a notification one microtask after it reads it, but a response at once: a progress
 * notification read together with the tool result finds its handler gone and is dropped. This gap keeps them apart.
 */
const DELIVERY_GAP_MS = 50;

export class RunProgress {
  private last = -1;
  private lastSentAt = 0;

  constructor(private readonly report: OpContext['progress']) {}

  upload(sentBytes: number, totalBytes: number): void {
    const pct = totalBytes > 0 ? Math.floor((100 * sentBytes) / totalBytes) : 100;
    this.send((UPLOAD_SHARE_PCT * pct) / 100, `upload ${pct} %`);
  }

  job(job: { status: JobStatus; progressPct: number; stage?: string | null }): void {
    if (job.status === 'completed') return this.send(100, 'completed');
    if (job.status === 'failed') return;
    this.send(UPLOAD_SHARE_PCT + ((100 - UPLOAD_SHARE_PCT) * job.progressPct) / 100, job.stage ?? job.status);
  }

  /** Resolves once the last notification can reach the client ahead of the result. */
  async delivered(): Promise<void> {
    const wait = this.lastSentAt + DELIVERY_GAP_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }

  private send(value: number, message: string): void {
    if (!this.report || value <= this.last) return;
    this.last = value;
    this.lastSentAt = Date.now();
    this.report(value, message);
  }
}
