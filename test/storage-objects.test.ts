// The object store on the local filesystem and on a real S3-protocol server (s3rver, started here): the same
// put/get/list/delete and streaming behaviour on both.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectStore, openObjectStore, parseS3Url, type ObjectStore } from '../src/storage/object-store.js';
import { startS3rver, type RunningS3 } from './helpers/s3rver.js';

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), name));
  dirs.push(dir);
  return dir;
};

let s3: RunningS3;

beforeAll(async () => {
  s3 = await startS3rver('preflight-test');
});

afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const s3Env = () => s3.env('deploy-a');

const stores: [string, () => ObjectStore][] = [
  ['local filesystem', () => openObjectStore(tempDir('pf-objects-'), {})],
  ['S3 (s3rver)', () => openObjectStore('/unused', s3Env())],
];

describe.each(stores)('object store on %s', (name, open) => {
  let store: ObjectStore;
  beforeAll(() => {
    store = open();
  });

  it('reports its storage mode', () => {
    expect(store.mode).toBe(name.startsWith('S3') ? 'object_storage' : 'durable_filesystem');
    expect(store.url('jobs/job_1/report.json')).toMatch(name.startsWith('S3') ? /^s3:\/\/preflight-test\/deploy-a\/jobs\/job_1\/report\.json$/ : /jobs\/job_1\/report\.json$/);
  });

  it('puts, gets, lists and deletes objects', async () => {
    await store.put('jobs/job_1/report.json', '{"verdict":"PASS"}', 'application/json');
    await store.put('jobs/job_1/markers.csv', Buffer.from('a,b\n'));
    await store.put('jobs/job_2/report.json', '{}');
    expect((await store.get('jobs/job_1/report.json'))?.toString()).toBe('{"verdict":"PASS"}');
    expect(await store.get('jobs/job_9/report.json')).toBeNull();
    expect(await store.getStream('jobs/job_9/report.json')).toBeNull();
    const listed = [];
    for await (const o of store.list('jobs/job_1/')) listed.push([o.key, o.bytes]);
    expect(listed.sort()).toEqual([
      ['jobs/job_1/markers.csv', 4],
      ['jobs/job_1/report.json', 18],
    ]);
    await store.delete('jobs/job_1/markers.csv');
    await store.delete('jobs/job_1/markers.csv');
    expect(await store.get('jobs/job_1/markers.csv')).toBeNull();
    expect(await store.deletePrefix('jobs/')).toBe(2);
    const left = [];
    for await (const o of store.list('')) left.push(o.key);
    expect(left).toEqual([]);
  });

  it('streams a large object in and out intact', async () => {
    const body = randomBytes(6 * 1024 * 1024 + 17);
    const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));
    await store.putStream('uploads/upl_1/media.mp4', Readable.from(chunks), body.length, 'video/mp4');
    const stream = await store.getStream('uploads/upl_1/media.mp4');
    const hash = createHash('sha256');
    for await (const chunk of stream!) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    await store.deletePrefix('uploads/upl_1/');
  });

  it('refuses keys that could leave their folder', async () => {
    await expect(store.put('../etc/passwd', 'x')).rejects.toThrow(/invalid object key/);
    await expect(store.put('jobs//x', 'x')).rejects.toThrow(/invalid object key/);
    expect(() => store.list('jobs')).not.toThrow();
  });
});

describe('object store configuration', () => {
  it('parses s3://bucket/prefix and keeps the local store where today’s files are', async () => {
    expect(parseS3Url('s3://my-bucket/a/b/')).toEqual({ bucket: 'my-bucket', prefix: 'a/b/' });
    expect(parseS3Url('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
    expect(() => parseS3Url('https://x/y')).toThrow(/s3:\/\/bucket/);
    const home = tempDir('pf-home-');
    const local = openObjectStore(home, {});
    expect(local).toBeInstanceOf(LocalObjectStore);
    await local.put('jobs/job_x/report.json', '{}');
    expect(existsSync(join(home, 'jobs', 'job_x', 'report.json'))).toBe(true);
  });

  it('a local stream that ends short of its announced size leaves no object', async () => {
    const store = openObjectStore(tempDir('pf-short-'), {});
    await expect(store.putStream('uploads/u/media', Readable.from([Buffer.alloc(10)]), 20)).rejects.toThrow(/received 10 bytes/);
    expect(await store.get('uploads/u/media')).toBeNull();
  });
});
