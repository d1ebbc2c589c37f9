// The report (preflight-report/1) as a zod schema: exactly what the engine produces, declared once. The engine's
// types for flags, gate results and the report are inferred from it; doors derive MCP output schemas and the OpenAPI
// document from it, and the test suite parses every report it makes with it.
import { z } from 'zod';

export const SeveritySchema = z.enum(['BLOCK', 'WATCH']);
export const VerdictSchema = z.enum(['PASS', 'WATCH', 'BLOCK']);
export const GateStatusSchema = z.enum(['pass', 'watch', 'block', 'skipped', 'error', 'unmeasured']);
export const MediaKindSchema = z.enum(['video', 'audio', 'image']);
export type MediaKind = z.infer<typeof MediaKindSchema>;

// Spelled so every MCP client accepts the JSON Schema (the MCP Inspector's --strict portability check): an open object
// says `additionalProperties: true` rather than `{}`, and a nullable value is two `anyOf` branches, not a `type` array.
const openObject = (description: string) => z.record(z.string(), z.unknown()).meta({ description, additionalProperties: true });
const orNull = <T extends z.ZodType>(schema: T, whenNull: string) => z.union([schema, z.null().meta({ description: whenNull })]);

export const RepairSchema = z
  .strictObject({
    action: z.string().meta({ description: 'What kind of fix, e.g. re_render_span, normalize_loudness, trim_head.' }),
    instruction: z.string().meta({ description: 'The fix in words, with timestamps, measured values, targets and, where one exists, a ready command on <input>/<output>.' }),
    verify: z.string().meta({ description: 'How to confirm the fix: which check to re-run and what to expect.' }),
    reachable: z.boolean().meta({ description: 'False when the fix needs the source or a re-render rather than an edit of this file.' }),
  })
  .meta({ description: 'How to repair what the flag is about.' });

const draftShape = {
  severity: SeveritySchema,
  start: z.number().meta({ description: 'Start of the flagged span, seconds of media time.' }),
  end: z.number().meta({ description: 'End of the flagged span, seconds of media time.' }),
  summary: z.string(),
  evidence: openObject('What was measured against which threshold; the keys depend on the gate.'),
  repair: RepairSchema,
};

/** What a gate emits; the report gives it an id, its gate, a timestamp, a timecode and a frame. */
export const FlagDraftSchema = z.strictObject(draftShape);

export const FlagSchema = z
  .strictObject({
    id: z.string().meta({ description: 'f_0001, f_0002, … in report order.' }),
    gate: z.string(),
    severity: draftShape.severity,
    timestamp: z.string().meta({ description: 'Start as HH:MM:SS.mmm.' }),
    start: draftShape.start,
    end: draftShape.end,
    timecode: z.string().meta({ description: 'Start as HH:MM:SS:FF at the media frame rate (25 for audio and images).' }),
    frame: z.number().int().nonnegative().meta({ description: 'Frame index of the start.' }),
    summary: draftShape.summary,
    evidence: draftShape.evidence,
    repair: RepairSchema,
  })
  .meta({ description: 'One finding: a timestamped span, its evidence and its repair.' });

const gateShape = {
  gate: z.string(),
  status: GateStatusSchema,
  reason: z.string().optional().meta({ description: 'Why the gate was skipped, failed or could not measure what it judges (unmeasured: it ran, found nothing to measure on, and raised no flag).' }),
  measurements: openObject('What the gate measured; the keys depend on the gate.'),
};

/** What a gate returns to the engine. */
export const GateResultSchema = z.strictObject({ ...gateShape, flags: z.array(FlagDraftSchema) });

/** A gate in the report: its result without the flags, which the report lists together. */
export const GateSummarySchema = z.strictObject({ ...gateShape, flagCount: z.number().int().nonnegative() });

const VideoSummarySchema = z.strictObject({
  codec: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  displayWidth: z.number().int(),
  displayHeight: z.number().int(),
  rotation: z.number(),
  fps: z.number(),
  variableFrameRate: z.boolean(),
  pixelFormat: orNull(z.string(), 'the stream names none'),
  hdr: z.boolean(),
});

const AudioSummarySchema = z.strictObject({
  codec: z.string(),
  sampleRate: z.number().int(),
  channels: z.number().int(),
  channelLayout: orNull(z.string(), 'the stream names none'),
});

export const MediaSummarySchema = z.strictObject({
  fileName: z.string().meta({ description: 'The file name, never a path; empty for a sidecar-only check.' }),
  kind: MediaKindSchema,
  container: z.string(),
  durationSeconds: z.number(),
  sizeBytes: z.number().int().nonnegative(),
  video: VideoSummarySchema.nullable(),
  audio: AudioSummarySchema.nullable(),
  streams: z.strictObject({ video: z.number().int(), audio: z.number().int(), subtitle: z.number().int(), other: z.number().int() }),
  sha256: z.string().meta({ description: 'SHA-256 of the file; empty for a sidecar-only check.' }),
});

/** The kinds of media a delivery requirement tells apart: a video without sound needs no audio gate. */
export const MEDIA_SHAPES = ['video', 'silent_video', 'audio', 'image'] as const;
export const SIDECAR_NAMES = ['manifest', 'transcript', 'watchlist', 'expectedScript', 'chunkSidecars'] as const;

export const CheckCoverageSchema = z
  .strictObject({
    deliveryProfile: z.string().meta({ description: 'The delivery profile a receipt would name.' }),
    media: z.enum(MEDIA_SHAPES).nullable().meta({ description: 'null for a sidecar-only check: no media, no receipt.' }),
    sidecars: z.array(z.enum(SIDECAR_NAMES)),
    narrowed: z.boolean().meta({ description: 'Explicit checks narrowed the gates: a repair step.' }),
    required: z.array(z.string()).meta({ description: 'Gates the profile requires of this media and these sidecars.' }),
    missing: z.array(z.string()).meta({ description: 'Required gates that did not run: not selected, or (media gates) skipped.' }),
    errored: z.array(z.string()).meta({ description: 'Gates that failed with an error.' }),
    complete: z.boolean().meta({ description: 'Every required gate ran and none errored: the only checks a receipt is issued for.' }),
  })
  .meta({ description: 'Whether the check covered everything its delivery profile requires: only a complete check gets a receipt.' });

export const REPORT_SCHEMA_VERSION = 'preflight-report/1';

export const ReportSchema = z
  .strictObject({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    verdict: VerdictSchema.meta({ description: 'BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS.' }),
    profile: z.string().meta({ description: 'The pipeline profile the check ran.' }),
    requestedProfile: z.string(),
    deliveryProfile: z.string().meta({ description: 'The delivery profile whose targets the gates applied.' }),
    profileResolution: z.enum(['explicit', 'alias', 'auto', 'delivery']),
    media: MediaSummarySchema,
    engine: z.strictObject({
      name: z.literal('preflight'),
      version: z.string(),
      profilesVersion: z.string(),
      ffmpeg: z.strictObject({ version: z.string(), source: z.string() }),
    }),
    summary: z.strictObject({
      block: z.number().int().nonnegative(),
      watch: z.number().int().nonnegative(),
      gatesRun: z.number().int().nonnegative(),
      gatesSkipped: z.number().int().nonnegative(),
      gatesErrored: z.number().int().nonnegative(),
    }),
    gates: z.array(GateSummarySchema),
    coverage: CheckCoverageSchema,
    flags: z.array(FlagSchema).meta({ description: 'Every flag of every gate, by start time, then gate.' }),
    warnings: z.array(z.string()),
    usage: orNull(openObject('Filled by the service that ran the check (metering is not the engine’s business).'), 'the engine ran without a service'),
    costEstimate: orNull(openObject('Filled by the service that ran the check.'), 'the engine ran without a service'),
    timings: z.strictObject({ probeMs: z.number(), analysisMs: z.number(), gatesMs: z.number(), totalMs: z.number() }),
    createdAt: z.iso.datetime().meta({ description: 'ISO 8601 time the report was made.' }),
  })
  .meta({ title: 'Preflight report (preflight-report/1)', description: 'The result of one check: verdict, every gate with its measurements, and timestamped, repairable flags.' });

export type Severity = z.infer<typeof SeveritySchema>;
export type Verdict = z.infer<typeof VerdictSchema>;
export type GateStatus = z.infer<typeof GateStatusSchema>;
export type Repair = z.infer<typeof RepairSchema>;
export type FlagDraft = z.infer<typeof FlagDraftSchema>;
export type Flag = z.infer<typeof FlagSchema>;
export type GateResult = z.infer<typeof GateResultSchema>;
export type GateSummary = z.infer<typeof GateSummarySchema>;
export type MediaSummary = z.infer<typeof MediaSummarySchema>;
export type Report = z.infer<typeof ReportSchema>;
