// One HTTP(S) request to a checked target. The socket connects only to the addresses target.ts checked: a custom
// `lookup` hands them back instead of asking DNS again, which closes the DNS-rebinding window. TLS still verifies
// the certificate against the host name (SNI and Host stay the name, not the address).
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { CheckedTarget } from './target.js';

export interface RequestSpec {
  method: 'GET' | 'POST';
  signal: AbortSignal;
  headers?: OutgoingHttpHeaders;
  body?: string;
  ca?: string | Buffer;
}

const DEFAULT_HEADERS: OutgoingHttpHeaders = {
  'user-agent': 'preflight-remote-ingress/0.1',
  // We hash and cap the bytes as stored; a compressed body would be neither the file nor the size the caller meant.
  'accept-encoding': 'identity',
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that only ever returns the pre-checked addresses. */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const usable = wanted.length ? wanted : addresses;
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
}

function trustedCa(extra: string | Buffer | undefined): { ca?: Array<string | Buffer> } {
  return extra ? { ca: [...rootCertificates, extra] } : {};
}

/** Sends the request and resolves with the response head; the body is left for the caller to consume or destroy. */
export function sendRequest(target: CheckedTarget, spec: RequestSpec): Promise<IncomingMessage> {
  const isHttps = target.url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (isHttps ? https : http).request(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: spec.method,
        headers: { ...DEFAULT_HEADERS, ...spec.headers },
        // A fresh socket per request: a pooled one could have been opened for an address checked under another policy.
        agent: false,
        lookup: pinnedLookup(target.addresses),
        signal: spec.signal,
        ...(isHttps ? trustedCa(spec.ca) : {}),
      },
      resolve,
    );
    request.on('error', reject);
    request.end(spec.body);
  });
}
