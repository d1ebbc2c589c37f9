// What `preflight check` needs of the batch before it knows whether it runs one: the output formats its --help lists
// and the usage error it reports; the batch itself loads only when a batch runs.
export const BATCH_FORMATS = ['text', 'json', 'junit', 'github'] as const;
export type BatchFormat = (typeof BATCH_FORMATS)[number];

export class BatchUsageError extends Error {}
