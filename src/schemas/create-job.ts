// Inputs of job creation shared by the doors: media source, profile/checks, economics and sidecars (SPEC.md "Create job").
import { z } from 'zod';
import { REQUEST_PROFILES } from '../../engine/profiles/index.js';
import { MediaInputSchema } from '../ingress/media.js';
import { boundedJson, SIDECAR_JSON_LIMITS } from './bounded-json.js';
import { AiReviewSecondsInputSchema, CentsInputSchema, DurationSecondsInputSchema, WholeMinutesInputSchema } from './bounds.js';

const jsonish = boundedJson(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.string()]), SIDECAR_JSON_LIMITS);

export const SidecarInputSchema = z.object({
  manifest_path: z.string().optional().describe('Local path of a preflight-manifest/1 JSON file.'),
  transcript_path: z.string().optional().describe('Local path of a transcript: .txt, .json, .srt or .vtt.'),
  watchlist_path: z.string().optional().describe('Local path of a watchlist JSON file.'),
  expected_script_path: z.string().optional().describe('Local path of the expected script (.txt or .json).'),
  sidecar_dir: z.string().optional().describe('Local directory of per-chunk JSON reports (and optional manifest/transcript files).'),
  manifest_json: jsonish.optional(),
  manifest_base64: z.string().optional(),
  manifest_filename: z.string().optional(),
  transcript_text: z.string().optional(),
  transcript_json: jsonish.optional(),
  transcript_base64: z.string().optional(),
  transcript_filename: z.string().optional(),
  watchlist_json: jsonish.optional(),
  watchlist_base64: z.string().optional(),
  watchlist_filename: z.string().optional(),
  expected_script_text: z.string().optional(),
  expected_script_json: jsonish.optional(),
  expected_script_base64: z.string().optional(),
  expected_script_filename: z.string().optional(),
  chunk_sidecars_json: jsonish.optional(),
  chunk_sidecars_base64: z.string().optional(),
  chunk_sidecar_dirname: z.string().optional(),
  manifest_url: z.string().optional().describe('HTTPS URL of the manifest (fetched with SSRF protection; never shown).'),
  transcript_url: z.string().optional(),
  watchlist_url: z.string().optional(),
  expected_script_url: z.string().optional(),
  chunk_sidecars_url: z.string().optional(),
});

export const JobOptionsSchema = z.object({
  profile: z.enum(REQUEST_PROFILES).optional().describe('QC profile; auto (default) infers from the media.'),
  checks: z.string().optional().describe('Comma-separated gate names; overrides the profile defaults.'),
  plan_id: z.string().optional().describe('creator, studio, network or stress_99_5000.'),
  plan_price_cents: CentsInputSchema.optional(),
  included_minutes: WholeMinutesInputSchema.optional(),
  ai_review_seconds: AiReviewSecondsInputSchema.optional().describe('Internal model-review seconds: affects cost only, never the verdict.'),
  cost_guardrail: z.enum(['downgrade', 'block', 'off']).optional(),
  idempotency_key: z.string().min(1).max(200).optional().describe('Repeat a create with the same key to get the same job back.'),
  process_async: z.boolean().optional().describe('Queue the job for drain instead of running it now (no inline media or sidecars).'),
  duration_seconds: DurationSecondsInputSchema.optional().describe('Declared duration, for the cost estimate before the media is read.'),
  callback_url: z.string().min(1).max(2048).optional().describe('HTTPS URL that receives the job’s completion as a signed POST; needs callback_secret.'),
  callback_secret: z
    .string()
    .min(24)
    .max(256)
    .optional()
    .describe('Your secret (24 to 256 characters) that signs the callback_url POST, so your receiver can verify it; stored encrypted, never shown.'),
});

export const CreateJobInputSchema = MediaInputSchema.extend(JobOptionsSchema.shape).extend(SidecarInputSchema.shape);
export type CreateJobInput = z.infer<typeof CreateJobInputSchema>;
