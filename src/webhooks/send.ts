// One HTTP attempt through the injected poster, bounded by a timeout whatever the poster does.

/**
 * Posts `body` to `url` with `headers`, resolving with the response status. The HTTP door passes an SSRF-safe poster
 * (address checks after DNS, no redirects followed; e.g. `postJson` of src/ingress/remote.ts); it should honour `signal`,
 * which aborts at the attempt timeout. `bodyText`, when given, is quoted (truncated) in `lastError` of a non-2xx answer.
 */
export type WebhookSender = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options?: { signal: AbortSignal },
) => Promise<{ status: number; bodyText?: string }>;

/** `permanent`: the target itself is refused (not a public address, not https), so retrying cannot help. */
export type AttemptOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string; permanent: boolean };

/** The poster's refusals of the target (remote ingress policy): the URL or what it resolves to is not allowed. */
const TARGET_REFUSALS = new Set(['remote_url_forbidden', 'remote_url_insecure', 'remote_url_invalid']);

const MAX_ERROR_CHARS = 500;
const RESPONSE_EXCERPT_CHARS = 200;

export async function attemptPost(send: WebhookSender, url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptOutcome> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
  });
  try {
    const { status, bodyText } = await Promise.race([send(url, body, headers, { signal: abort.signal }), timeout]);
    if (status >= 200 && status < 300) return { ok: true, status };
    const excerpt = bodyText?.trim().slice(0, RESPONSE_EXCERPT_CHARS);
    return { ok: false, status, error: `receiver answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`, permanent: false };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown } | null)?.code;
    const refused = typeof code === 'string' && TARGET_REFUSALS.has(code);
    return { ok: false, status: null, error: (refused ? `${code}: ${message}` : message).slice(0, MAX_ERROR_CHARS), permanent: refused };
  } finally {
    clearTimeout(timer);
  }
}
