// A real S3-protocol server for tests (s3rver from npm, in this process): a bucket on a free loopback port, and the
// environment that points Preflight's object store at a prefix of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  /** PREFLIGHT_OBJECT_STORE_URL (s3://bucket/prefix) and the AWS variables s3rver accepts. */
  env(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startS3rver(bucket: string): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'pf-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: (prefix) => ({
      PREFLIGHT_OBJECT_STORE_URL: `s3://${bucket}/${prefix}`,
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
