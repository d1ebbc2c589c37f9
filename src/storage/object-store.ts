// Objects apart from records: reports, events exports, artifacts and uploaded media. The local filesystem under
// PREFLIGHT_HOME by default (keys map to the same paths today's data dir uses: jobs/<id>/<file>, uploads/<id>/…), or
// any S3-compatible storage with PREFLIGHT_OBJECT_STORE_URL=s3://bucket/prefix, so workers on other machines read
// uploads and write artifacts there.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';

export type StorageMode = 'durable_filesystem' | 'object_storage';

export interface StoredObject {
  key: string;
  bytes: number;
  modifiedAt: Date;
}

export interface ObjectStore {
  readonly mode: StorageMode;
  put(key: string, body: Buffer | string, contentType?: string): Promise<{ bytes: number }>;
  /** Streams `bytes` bytes into the object; it appears only once complete. */
  putStream(key: string, body: Readable, bytes: number, contentType?: string): Promise<{ bytes: number }>;
  get(key: string): Promise<Buffer | null>;
  getStream(key: string): Promise<Readable | null>;
  /** Every object under `prefix` (a folder: ends with '/' or is ''), in pages, never all in memory. */
  list(prefix: string): AsyncGenerator<StoredObject>;
  delete(key: string): Promise<void>;
  /** Removes every object under `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Where the object lives, for records (`objectUrl`): a file path or s3://bucket/key. */
  url(key: string): string;
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Keys are made by Preflight (ids and fixed names), never by clients; anything else is refused. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..') || key.length > 512) {
    throw new Error(`invalid object key ${JSON.stringify(key)}`);
  }
  return key;
}

function checkPrefix(prefix: string): string {
  if (prefix !== '' && (!prefix.endsWith('/') || !KEY.test(prefix.slice(0, -1)))) throw new Error(`invalid object prefix ${JSON.stringify(prefix)}`);
  return prefix;
}

const notFound = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalObjectStore implements ObjectStore {
  readonly mode = 'durable_filesystem' as const;

  constructor(readonly root: string) {}

  private path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  private async atomically(key: string, write: (temp: string) => Promise<void>): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await write(temp);
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async put(key: string, body: Buffer | string): Promise<{ bytes: number }> {
    await this.atomically(key, (temp) => writeFile(temp, body, { mode: 0o600 }));
    return { bytes: Buffer.byteLength(body) };
  }

  async putStream(key: string, body: Readable, bytes: number): Promise<{ bytes: number }> {
    let written = 0;
    await this.atomically(key, async (temp) => {
      body.on('data', (chunk: Buffer) => (written += chunk.length));
      await pipeline(body, createWriteStream(temp, { mode: 0o600 }));
      if (written !== bytes) throw new Error(`object ${key}: received ${written} bytes, expected ${bytes}`);
    });
    return { bytes: written };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    const path = this.path(key);
    try {
      await stat(path);
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
    return createReadStream(path);
  }

  async *list(prefix: string): AsyncGenerator<StoredObject> {
    const start = join(this.root, ...checkPrefix(prefix).split('/').filter(Boolean));
    const walk = async function* (dir: string, root: string): AsyncGenerator<StoredObject> {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (notFound(err)) return;
        throw err;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(path, root);
        else if (entry.isFile() && !entry.name.endsWith('.tmp')) {
          const info = await stat(path);
          yield { key: relative(root, path).split(sep).join('/'), bytes: info.size, modifiedAt: info.mtime };
        }
      }
    };
    yield* walk(start, this.root);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    for await (const object of this.list(prefix)) {
      await this.delete(object.key);
      count++;
    }
    if (prefix !== '') await rm(join(this.root, ...prefix.split('/').filter(Boolean)), { recursive: true, force: true });
    return count;
  }

  url(key: string): string {
    return this.path(key);
  }
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

export interface S3Location {
  bucket: string;
  /** '' or ends with '/'. */
  prefix: string;
}

export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!match) throw new Error(`PREFLIGHT_OBJECT_STORE_URL must look like s3://bucket/prefix, got ${JSON.stringify(url)}`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '') checkKey(prefix);
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

export class S3ObjectStore implements ObjectStore {
  readonly mode = 'object_storage' as const;
  private connection: Promise<{ client: S3Client; sdk: S3Sdk }> | null = null;

  constructor(
    private readonly config: S3ClientConfig,
    private readonly location: S3Location,
  ) {}

  /** The SDK (about 180 ms of module loading) is loaded by the first call, not by every process that opens a store. */
  private connect(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({ client: new sdk.S3Client(this.config), sdk }));
    return this.connection;
  }

  private name(key: string): string {
    return `${this.location.prefix}${checkKey(key)}`;
  }

  async put(key: string, body: Buffer | string, contentType?: string): Promise<{ bytes: number }> {
    const { client, sdk } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.location.bucket, Key: this.name(key), Body: body, ContentType: contentType }));
    return { bytes: Buffer.byteLength(body) };
  }

  async putStream(key: string, body: Readable, bytes: number, contentType?: string): Promise<{ bytes: number }> {
    const { client, sdk } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.location.bucket, Key: this.name(key), Body: body, ContentLength: bytes, ContentType: contentType }));
    return { bytes };
  }

  async getStream(key: string): Promise<Readable | null> {
    const { client, sdk } = await this.connect();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: this.name(key) }));
      return out.Body as Readable;
    } catch (err) {
      if (err instanceof sdk.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.getStream(key);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async *list(prefix: string): AsyncGenerator<StoredObject> {
    const { client, sdk } = await this.connect();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: `${this.location.prefix}${checkPrefix(prefix)}`, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        yield { key: item.Key.slice(this.location.prefix.length), bytes: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    await this.deleteKeys([this.name(key)]);
  }

  private async deleteKeys(names: string[]): Promise<void> {
    if (names.length === 0) return;
    const { client, sdk } = await this.connect();
    const out = await client.send(new sdk.DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: names.map((Key) => ({ Key })), Quiet: true } }));
    if (out.Errors?.length) throw new Error(`could not delete ${out.Errors.length} object(s): ${out.Errors[0]?.Message ?? 'unknown error'}`);
  }

  async deletePrefix(prefix: string): Promise<number> {
    let batch: string[] = [];
    let count = 0;
    for await (const object of this.list(prefix)) {
      batch.push(this.name(object.key));
      count++;
      if (batch.length === 1000) {
        await this.deleteKeys(batch);
        batch = [];
      }
    }
    await this.deleteKeys(batch);
    return count;
  }

  url(key: string): string {
    return `s3://${this.location.bucket}/${this.name(key)}`;
  }
}

/**
 * The object store for a data dir and an environment: S3 when PREFLIGHT_OBJECT_STORE_URL is set (endpoint from
 * PREFLIGHT_OBJECT_STORE_ENDPOINT, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, path-style addressing with a custom
 * endpoint; credentials and region the standard AWS way), else the local filesystem under `home`.
 */
export function openObjectStore(home: string, env: NodeJS.ProcessEnv = process.env): ObjectStore {
  const url = env.PREFLIGHT_OBJECT_STORE_URL?.trim();
  if (!url) return new LocalObjectStore(home);
  const endpoint = env.PREFLIGHT_OBJECT_STORE_ENDPOINT?.trim() || env.AWS_ENDPOINT_URL_S3?.trim() || env.AWS_ENDPOINT_URL?.trim() || undefined;
  const config: S3ClientConfig = {
    region: env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1',
    // A custom endpoint is an S3-compatible server: path-style addresses, and no aws-chunked streaming checksums, which
    // several such servers store as part of the object instead of decoding.
    ...(endpoint
      ? { endpoint, forcePathStyle: env.PREFLIGHT_OBJECT_STORE_PATH_STYLE !== 'false', requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined } }
      : {}),
  };
  return new S3ObjectStore(config, parseS3Url(url));
}
