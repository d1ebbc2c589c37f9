// Inputs of job creation shared by the doors: media source, profile/checks, economics and sidecars (docs/api.md "POST /v1/qc/jobs").
import { z } from 'zod';
import { PLAN_IDS } from '../billing/plans.js';
import { MediaInputSchema } from '../ingress/media.js';
import { boundedJson, SIDECAR_JSON_LIMITS } from './bounded-json.js';
import { AiReviewSecondsInputSchema, CentsInputSchema, DurationSecondsInputSchema, WholeMinutesInputSchema } from './bounds.js';
import { CostGuardrailSchema } from './estimate.js';
import { ChecksSchema, ProfileSchema } from './profile.js';
import { freeObject } from './portable.js';

/** A JSON sidecar given inline: the object, a bare array (of objects or words), or its JSON text; bounded in depth, entries and bytes. */
const jsonSidecar = (what: string, doc: string) =>
  boundedJson(z.union([freeObject(), z.array(z.union([freeObject(), z.string()])), z.string()]).describe(`${what} as JSON: the value itself or its text (${doc}).`), SIDECAR_JSON_LIMITS);
const base64Sidecar = (what: string) => z.string().describe(`${what} file, base64 (UTF-8 text inside).`);
const sidecarFilename = (what: string) => z.string().describe(`File name of the inline ${what}, used to tell its format by extension.`);
const sidecarUrl = (what: string) => z.string().describe(`HTTPS URL of the ${what} (fetched with SSRF protection, size and time caps; never shown back).`);

export const SidecarInputSchema = z.object({
  manifest_path: z.string().optional().describe('Local path of a preflight-manifest/1 JSON file.'),
  transcript_path: z.string().optional().describe('Local path of a transcript: .txt, .json, .srt or .vtt.'),
  watchlist_path: z.string().optional().describe('Local path of a watchlist JSON file.'),
  expected_script_path: z.string().optional().describe('Local path of the expected script (.txt or .json).'),
  sidecar_dir: z.string().optional().describe('Local directory of per-chunk JSON reports (and optional manifest/transcript files).'),
  manifest_json: jsonSidecar('The preflight-manifest/1 manifest', 'docs/sidecars.md').optional(),
  manifest_base64: base64Sidecar('The manifest JSON').optional(),
  manifest_filename: sidecarFilename('manifest').optional(),
  transcript_text: z.string().optional().describe('The transcript as text: plain, SRT or WebVTT (format told by content or transcript_filename).'),
  transcript_json: jsonSidecar('The transcript', 'an object with words or segments, or a bare array of timed words').optional(),
  transcript_base64: base64Sidecar('The transcript (.txt, .json, .srt or .vtt)').optional(),
  transcript_filename: sidecarFilename('transcript').optional(),
  watchlist_json: jsonSidecar('The watchlist', '{ terms: [{ expected, banned }], banned } or a bare array of terms').optional(),
  watchlist_base64: base64Sidecar('The watchlist JSON').optional(),
  watchlist_filename: sidecarFilename('watchlist').optional(),
  expected_script_text: z.string().optional().describe('The script the narration should follow, as plain text.'),
  expected_script_json: jsonSidecar('The expected script', 'an object with text, script or words, or a bare array of words').optional(),
  expected_script_base64: base64Sidecar('The expected script (.txt or .json)').optional(),
  expected_script_filename: sidecarFilename('expected script').optional(),
  chunk_sidecars_json: jsonSidecar('Per-chunk reports', 'an array of chunk reports, or an object of them by name').optional(),
  chunk_sidecars_base64: base64Sidecar('The per-chunk reports JSON').optional(),
  chunk_sidecar_dirname: z.string().optional().describe('Name of the directory the chunk reports came from, shown in flags.'),
  manifest_url: sidecarUrl('manifest').optional(),
  transcript_url: sidecarUrl('transcript').optional(),
  watchlist_url: sidecarUrl('watchlist').optional(),
  expected_script_url: sidecarUrl('expected script').optional(),
  chunk_sidecars_url: sidecarUrl('per-chunk reports JSON').optional(),
});

export const JobOptionsSchema = z.object({
  profile: ProfileSchema.optional(),
  checks: ChecksSchema.optional(),
  plan_id: z.string().optional().describe(`Plan to meter against: ${PLAN_IDS.join(', ')}. Default free.`),
  plan_price_cents: CentsInputSchema.optional().describe('Custom plan price per month in cents, overriding the plan (cost estimate only).'),
  included_minutes: WholeMinutesInputSchema.optional().describe('Custom included minutes per month, overriding the plan (cost estimate only).'),
  ai_review_seconds: AiReviewSecondsInputSchema.optional().describe('Internal model-review seconds: affects cost only, never the verdict.'),
  cost_guardrail: CostGuardrailSchema.optional(),
  idempotency_key: z.string().min(1).max(200).optional().describe('Repeat a create with the same key to get the same job back.'),
  reuse: z
    .boolean()
    .optional()
    .describe('Default true: when a completed job of this workspace checked the same bytes, file name, sidecars, profile, checks and engine, its report is reused (no decode). false checks afresh.'),
  process_async: z.boolean().optional().describe('Queue the job instead of running it now: a queue worker (or a drain) runs it (no inline media or sidecars).'),
  duration_seconds: DurationSecondsInputSchema.optional().describe('Declared duration, for the cost estimate before the media is read.'),
  callback_url: z.string().min(1).max(2048).optional().describe('HTTPS URL that receives the job’s completion as a signed POST (preflight serve only); needs callback_secret.'),
  callback_secret: z
    .string()
    .min(24)
    .max(256)
    .optional()
    .describe('Your secret (24 to 256 characters) that signs the callback_url POST, so your receiver can verify it; stored encrypted, never shown.'),
});

export const CreateJobInputSchema = MediaInputSchema.extend(JobOptionsSchema.shape).extend(SidecarInputSchema.shape);
export type CreateJobInput = z.infer<typeof CreateJobInputSchema>;
