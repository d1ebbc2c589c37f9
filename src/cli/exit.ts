export const EXIT = { ok: 0, block: 1, error: 2 } as const;

/** A usage or output problem the CLI reports in one line (exit 2). */
export class CliError extends Error {}
