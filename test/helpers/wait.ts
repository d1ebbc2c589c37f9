// Waiting on something another process does: poll until it holds, or fail saying what did not happen.
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}
