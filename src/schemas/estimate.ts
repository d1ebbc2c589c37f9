// Zod schemas of the QC estimate (docs/billing.md "The estimate", and the `qc_estimate_cost` tool).
import { z } from 'zod';
import { PLAN_IDS } from '../billing/plans.js';
import { AiReviewSecondsInputSchema, CentsInputSchema, DurationSecondsInputSchema, MinutesInputSchema, WholeMinutesInputSchema } from './bounds.js';
import { CostEstimateSchema } from './job.js';
import { ChecksSchema, ProfileSchema } from './profile.js';

export const CostGuardrailSchema = z
  .enum(['downgrade', 'block', 'off'])
  .describe('When requested AI review would break the >95 % gross-margin target: downgrade drops it, block refuses the job, off runs it anyway.');
export type CostGuardrail = z.infer<typeof CostGuardrailSchema>;

export const EstimateActionSchema = z.enum(['proceed', 'downgraded', 'blocked', 'proceed_unsafe']);
export type EstimateAction = z.infer<typeof EstimateActionSchema>;

export const EstimateInputSchema = z.object({
  minutes: MinutesInputSchema.optional().describe('Checked minutes to price; wins over duration_seconds. Rounded up, at least 1.'),
  duration_seconds: DurationSecondsInputSchema.optional().describe('Media duration; minutes = ceil(duration_seconds / 60), at least 1.'),
  profile: ProfileSchema.optional(),
  checks: ChecksSchema.optional(),
  plan_id: z.string().optional().describe(`Plan to price against: ${PLAN_IDS.join(', ')}. Default free.`),
  plan_price_cents: CentsInputSchema.optional().describe('Custom plan price per month, overriding the plan.'),
  included_minutes: WholeMinutesInputSchema.optional().describe('Custom included minutes per month, overriding the plan.'),
  ai_review_seconds: AiReviewSecondsInputSchema.optional()
    .describe('Internal or explicitly authorised model-review seconds. Only adds cost; never changes a verdict.'),
  cost_guardrail: CostGuardrailSchema.default('downgrade'),
});
export type EstimateInput = z.input<typeof EstimateInputSchema>;

export const EstimateOutputSchema = z.object({
  margin_safe: z.boolean().describe('The job as it would run keeps gross margin above the target.'),
  effective_checks: z.array(z.string()).describe('Checks the job would run; ai_review when model review is kept.'),
  removed_checks: z.array(z.string()).describe('Checks the guardrail removed.'),
  cost_estimate: CostEstimateSchema,
  action: EstimateActionSchema,
  minutes: z.number().int().min(1),
  plan_id: z.string(),
  revenue_usd: z.number().describe('What the minutes are worth at the plan’s per-minute price.'),
  cost_basis_version: z.string(),
  explanation: z.string(),
});
export type EstimateOutput = z.infer<typeof EstimateOutputSchema>;
