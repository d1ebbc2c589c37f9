// A client's own gate verdict, imported beside Preflight's (POST /v1/qc/jobs/{job_id}/gate-verdict): kept as a claim.
import { z } from 'zod';
import { boundedJson, STORED_JSON_LIMITS } from './bounded-json.js';

const GateNamesSchema = z.array(z.string().min(1).max(100)).max(200);

export const GateVerdictInputSchema = z.object({
  verdict: z.enum(['SHIP-OK', 'BLOCK', 'PASS']),
  blocked: GateNamesSchema.optional(),
  skipped: GateNamesSchema.optional(),
  per_check: boundedJson(z.record(z.string(), z.unknown()), STORED_JSON_LIMITS).optional().describe('The client’s per-check details, kept as given.'),
});
export type GateVerdictInput = z.infer<typeof GateVerdictInputSchema>;
