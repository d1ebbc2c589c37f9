// Calls to a Preflight REST server. The one error body, {"error": {code, message, details}}, becomes the same
// ServiceError local mode throws; network failures name the host. The API key never appears in an error or a log.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../../src/errors.js';
import type { RemoteConfig } from './config.js';

export interface ApiResponse<T> {
  status: number;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

export function cancelledError(): ServiceError {
  return new ServiceError('cancelled', 'The call was cancelled.', {}, 499);
}

export function unreachableError(host: string, err: unknown): ServiceError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const reason = cause?.code ?? cause?.message ?? (err as { code?: string })?.code ?? (err as Error)?.message ?? String(err);
  return new ServiceError('remote_unreachable', `Cannot reach the Preflight server at ${host} (${reason}). Check PREFLIGHT_API_URL and that the server is running.`, { host }, 503);
}

function errorFromBody(host: string, status: number, statusText: string, text: string): ServiceError {
  try {
    const { error } = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
      return new ServiceError(error.code, error.message, details, status);
    }
  } catch {
    /* not the API's error body: a proxy or another server answered */
  }
  return new ServiceError('remote_error', `The server at ${host} answered HTTP ${status}${statusText ? ` ${statusText}` : ''} without a Preflight error body.`, { host, status }, status >= 400 ? status : 502);
}

interface RawResponse {
  status: number;
  statusText: string;
  text: string;
}

/**
 * One request over node:http(s), for what fetch does badly: it has no way to wait longer than 5 minutes for an answer,
 * and it keeps a copy of a streamed request body in memory (undici issue #4058), which a multi-GB upload cannot afford.
 * An answer the server sent before the request body failed (an early 4xx) is preferred over the write error.
 */
function sendRaw(url: URL, opts: { method: string; headers: Record<string, string>; body: string | Readable; signal?: AbortSignal }): Promise<RawResponse> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const failure = (err: unknown) => (opts.signal?.aborted ? cancelledError() : unreachableError(url.host, err));
    const fail = (err: unknown) => {
      if (!answered) reject(failure(err));
    };
    const req = request(url, { method: opts.method, headers: opts.headers, signal: opts.signal }, (res: IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(failure(err)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    if (typeof opts.body === 'string') req.end(opts.body);
    else pipeline(opts.body, req).catch(fail);
  });
}

export class RemoteApi {
  readonly host: string;

  constructor(private readonly config: Pick<RemoteConfig, 'apiUrl' | 'apiKey' | 'host'>) {
    this.host = config.host;
  }

  private url(path: string, query: CallOptions['query'] = {}): URL {
    const url = new URL(`${this.config.apiUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  private headers(withBody: boolean): Record<string, string> {
    return { authorization: `Bearer ${this.config.apiKey}`, accept: 'application/json', ...(withBody ? { 'content-type': 'application/json' } : {}) };
  }

  /** fetch with the error mapping; redirects are refused so the key is only ever sent to PREFLIGHT_API_URL. */
  private async send(method: string, path: string, opts: CallOptions): Promise<Response> {
    const withBody = opts.body !== undefined;
    let res: Response;
    try {
      res = await fetch(this.url(path, opts.query), {
        method,
        headers: this.headers(withBody),
        body: withBody ? JSON.stringify(opts.body) : undefined,
        redirect: 'manual',
        signal: opts.signal,
      });
    } catch (err) {
      throw opts.signal?.aborted ? cancelledError() : unreachableError(this.host, err);
    }
    if (res.status >= 300 && res.status < 400) {
      throw new ServiceError('remote_redirect', `The server at ${this.host} redirected ${method} ${path}; set PREFLIGHT_API_URL to the server's final base URL.`, { host: this.host }, 502);
    }
    if (!res.ok) throw errorFromBody(this.host, res.status, res.statusText, await this.read(res, opts.signal));
    return res;
  }

  private async read(res: Response, signal?: AbortSignal): Promise<string> {
    try {
      return await res.text();
    } catch (err) {
      throw signal?.aborted ? cancelledError() : unreachableError(this.host, err);
    }
  }

  async json<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const res = await this.send(method, path, opts);
    const raw = { status: res.status, statusText: res.statusText, text: await this.read(res, opts.signal) };
    return { status: res.status, body: this.parse<T>(raw, this.host, `${method} ${path}`) };
  }

  async text(path: string, opts: CallOptions = {}): Promise<{ text: string; contentType: string }> {
    const res = await this.send('GET', path, opts);
    const contentType = (res.headers.get('content-type') ?? 'text/plain').split(';')[0].trim();
    return { text: await this.read(res, opts.signal), contentType };
  }

  /**
   * PUTs a stream to a signed upload URL. The token in the URL is the authorisation (no bearer key is sent) and the URL
   * is never put in an error; only its host is.
   */
  async putSigned<T>(signedUrl: string, body: Readable, sizeBytes: number, contentType: string, signal?: AbortSignal): Promise<T> {
    const url = new URL(signedUrl);
    const res = await sendRaw(url, { method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(sizeBytes) }, body, signal });
    return this.parse<T>(res, url.host, 'PUT to the upload URL');
  }

  /**
   * A POST whose answer may come after fetch's 5-minute header timeout: the server runs a synchronous check inside
   * the request and cancels it when the connection drops, so nothing here may time out.
   */
  async postHeld<T>(path: string, body: unknown, signal: AbortSignal): Promise<ApiResponse<T>> {
    const payload = JSON.stringify(body);
    const res = await sendRaw(this.url(path), { method: 'POST', headers: { ...this.headers(true), 'content-length': String(Buffer.byteLength(payload)) }, body: payload, signal });
    return { status: res.status, body: this.parse<T>(res, this.host, `POST ${path}`) };
  }

  private parse<T>(res: RawResponse, host: string, what: string): T {
    if (res.status < 200 || res.status >= 300) throw errorFromBody(host, res.status, res.statusText, res.text);
    try {
      return JSON.parse(res.text) as T;
    } catch {
      throw new ServiceError('remote_error', `The server at ${host} answered ${what} with a body that is not JSON.`, { host }, 502);
    }
  }
}
