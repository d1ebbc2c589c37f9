// The service on S3-compatible storage (a real s3rver started here): an upload's bytes go to the object store
// (storageMode object_storage, objectKey/objectUrl), a job reads them back from there and writes its report and
// artifacts there, and nothing of the job lands in the data dir.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PreflightService, type Principal } from '../src/service.js';
import { openObjectStore } from '../src/storage/object-store.js';
import * as fx from './helpers/fixtures.js';
import { startS3rver, type RunningS3 } from './helpers/s3rver.js';

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), name));
  dirs.push(dir);
  return dir;
};

let s3: RunningS3;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  s3 = await startS3rver('preflight-svc');
  env = { PREFLIGHT_SIGNING_KEY: 'object-store-signing-key-0123456789', ...s3.env('deploy-b') };
});

afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const alice: Principal = { workspaceId: 'ws_alice', scopes: ['*'], operator: false };

it('stores an upload in the object store, and a job reads it from there and writes its artifacts there', async () => {
  const home = tempDir('pf-svc-s3-');
  const svc = await PreflightService.open({ home, env });
  try {
    svc.attachHttp('http://127.0.0.1:9');
    const file = await fx.clean();
    const bytes = readFileSync(file);
    const { upload, token } = await svc.createUpload(alice, { filename: 'clean.mp4', content_type: 'video/mp4', size_bytes: bytes.length });
    expect(upload.storageMode).toBe('object_storage');
    const stored = await svc.storeUploadContent(upload.uploadId, token, Readable.from([bytes]));
    expect(stored).toMatchObject({
      status: 'uploaded',
      storageMode: 'object_storage',
      bytesReceived: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      objectKey: `uploads/${upload.uploadId}/content`,
      objectUrl: `s3://preflight-svc/deploy-b/uploads/${upload.uploadId}/content`,
    });
    expect(existsSync(join(home, 'uploads'))).toBe(false);

    const { job } = await svc.createJob(alice, { upload_id: upload.uploadId });
    expect(job).toMatchObject({ status: 'completed', verdict: 'PASS', mediaIngress: { mode: 'signed_upload', storageMode: 'object_storage' } });
    expect(existsSync(join(home, 'jobs'))).toBe(false);

    // What the job wrote is in the bucket: read it with a store of its own, as a worker on another machine would.
    const objects = openObjectStore(tempDir('pf-unused-'), env);
    const report = JSON.parse((await objects.get(`jobs/${job.jobId}/report.json`))!.toString('utf8'));
    expect(report.media.sha256).toBe(stored.sha256);
    expect((await svc.getReport(alice, job.jobId)).verdict).toBe('PASS');
    const names: string[] = [];
    for await (const o of objects.list(`jobs/${job.jobId}/`)) names.push(o.key.split('/').at(-1)!);
    expect(names.sort()).toEqual(['markers-avid.txt', 'markers-premiere.xml', 'markers.csv', 'markers.edl', 'markers.fcpxml', 'receipt.json', 'report.html', 'report.json']);
  } finally {
    await svc.close();
  }
}, 600_000);
