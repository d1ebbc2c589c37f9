// One HTTP attempt through the injected poster, bounded by a timeout whatever the poster does.

/**
 * Posts `body` to `url` with `headers`, resolving with the response status. The HTTP door passes an SSRF-safe poster
 * (address checks after DNS and on redirects); it should honour `signal`, which aborts at the attempt timeout.
 */
export type WebhookSender = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options?: { signal: AbortSignal },
) => Promise<{ status: number }>;

export type AttemptOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const MAX_ERROR_CHARS = 500;

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
    const { status } = await Promise.race([send(url, body, headers, { signal: abort.signal }), timeout]);
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: `receiver answered HTTP ${status}` };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, status: null, error: message.slice(0, MAX_ERROR_CHARS) };
  } finally {
    clearTimeout(timer);
  }
}
