/** A service failure with a stable code; the doors map it to an MCP error result or an HTTP status. */
export class ServiceError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly details: Record<string, unknown> = {},
    public readonly status = 400,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
