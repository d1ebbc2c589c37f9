/** An engine failure a user can act on; `code` is stable, `message` says what to do. */
export class EngineError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
