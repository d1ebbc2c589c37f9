// Manifest sidecar (`preflight-manifest/1`): the edit's timeline as the producing pipeline declares it. Every field
// has an explicit name and type (no keyword guessing); unknown fields are kept and ignored.
import { z } from 'zod';
import { failAt, parseWithSchema } from './format-error.js';
import { jsonPath } from './json-path.js';
import { MAX_TIMELINE_SECONDS } from './limits.js';
import { describeType, isPlainObject } from './value-type.js';

export const MANIFEST_SCHEMA_ID = 'preflight-manifest/1';

const seconds = (description: string) =>
  z
    .number()
    .min(0, 'must be ≥ 0 (seconds from the start of the media)')
    .max(MAX_TIMELINE_SECONDS, `must be ≤ ${MAX_TIMELINE_SECONDS} (24 h); times are seconds, not milliseconds`)
    .meta({ description });

const fraction = (description: string) =>
  z.number().min(0, 'must be a fraction of the frame, 0 to 1').max(1, 'must be a fraction of the frame, 0 to 1').meta({ description });

const names = (description: string) => z.array(z.string()).meta({ description });

export const TextBoxSchema = z
  .object({
    x: fraction('Left edge, as a fraction of the frame width.'),
    y: fraction('Top edge, as a fraction of the frame height.'),
    w: fraction('Width, as a fraction of the frame width.'),
    h: fraction('Height, as a fraction of the frame height.'),
  })
  .loose()
  .meta({ description: 'Where the text sits, in fractions of the frame (0,0 is the top-left corner).' });

export const OnScreenTextSchema = z
  .object({
    text: z.string().meta({ description: 'The text as it should read on screen.' }),
    box: TextBoxSchema.optional(),
    approved: z.boolean().optional().meta({ description: 'True when this text is meant to be there (e.g. approved lettering in a generated plate).' }),
  })
  .loose();

export const SEGMENT_KINDS = ['talking_head', 'b_roll', 'generated_plate', 'screen_recording', 'title_card', 'graphic', 'other'] as const;
export const SegmentKindSchema = z.enum(SEGMENT_KINDS).meta({ description: 'What the picture is.' });

export const MARKERS = ['hook', 'rehook', 'cta'] as const;
export const MarkerSchema = z.enum(MARKERS);

export const MixSchema = z
  .object({
    voiceDb: z.number().optional().meta({ description: 'Intended voice level in dB (LUFS or dBFS, as the pipeline mixes).' }),
    musicDb: z.number().optional().meta({ description: 'Intended music level in dB, on the same scale as voiceDb.' }),
  })
  .loose()
  .meta({ description: 'Declared mix levels of the segment.' });

export const SourceScrubSchema = z
  .object({ status: z.string().regex(/\S/, 'must not be blank').meta({ description: 'Scrub status, e.g. clean, pending or failed.' }) })
  .loose()
  .meta({ description: 'Whether the source of this segment was scrubbed (watermarks, burnt-in text, logos).' });

export const SegmentSchema = z
  .object({
    start: seconds('Start in seconds from the start of the media.'),
    end: seconds('End in seconds; greater than start.'),
    kind: SegmentKindSchema.optional(),
    visualFile: z.string().optional().meta({ description: 'The visual asset used (file name or path relative to the manifest).' }),
    sourceFamily: z.string().optional().meta({ description: 'Where the visual comes from (e.g. a generator, a stock library, a shoot).' }),
    description: z.string().optional().meta({ description: 'What the picture shows.' }),
    subjects: names('Subjects visible in the picture.').optional(),
    onScreenCharacter: z.string().nullable().optional().meta({ description: 'The character or person on screen; null when nobody is.' }),
    speaker: z.string().nullable().optional().meta({ description: 'Who speaks during the segment; null for no speech.' }),
    narration: z.string().optional().meta({ description: 'The narration spoken over the segment.' }),
    namedEntities: names('People, places, products and organisations the narration names.').optional(),
    onScreenText: z.array(OnScreenTextSchema).optional().meta({ description: 'Text shown on screen during the segment.' }),
    markers: z.array(MarkerSchema).optional().meta({ description: 'Structural markers: hook, rehook, cta (call to action).' }),
    intendedPause: z.boolean().optional().meta({ description: 'True when silence here is deliberate.' }),
    intendedStatic: z.boolean().optional().meta({ description: 'True when a still or static picture here is deliberate.' }),
    mix: MixSchema.optional(),
    contactSheet: z.string().optional().meta({ description: 'Contact-sheet image for the segment (path relative to the manifest).' }),
    sourceScrub: SourceScrubSchema.optional(),
  })
  .loose();

export const AssetTriageSchema = z
  .object({
    reused: names('Assets deliberately reused across segments.').default([]),
    rejected: names('Assets rejected in triage, which must not appear.').default([]),
  })
  .loose()
  .meta({ description: 'The asset triage outcome.' });

export const ManifestSchema = z
  .object({
    schema: z.literal(MANIFEST_SCHEMA_ID).optional().meta({ description: `Format identifier; when present it must be ${MANIFEST_SCHEMA_ID}.` }),
    title: z.string().optional().meta({ description: 'Title of the video.' }),
    thumbnailText: z.string().optional().meta({ description: 'Text on the thumbnail.' }),
    segments: z.array(SegmentSchema).meta({ description: 'The timeline in order: starts never decrease; each end is after its start. May be empty.' }),
    assetTriage: AssetTriageSchema.optional(),
  })
  .loose()
  .meta({
    title: 'Preflight manifest (preflight-manifest/1)',
    description: 'The timeline of an edit as its pipeline declares it. Times are seconds. Unknown fields are kept and ignored.',
  });

export type Manifest = z.output<typeof ManifestSchema>;
export type ManifestSegment = z.output<typeof SegmentSchema>;
export type OnScreenText = z.output<typeof OnScreenTextSchema>;
export type TextBox = z.output<typeof TextBoxSchema>;
export type SegmentKind = z.output<typeof SegmentKindSchema>;
export type Marker = z.output<typeof MarkerSchema>;

export function manifestFromJson(value: unknown): Manifest {
  if (!isPlainObject(value)) return failAt('', `expected a manifest object, received ${describeType(value)}`);
  const manifest = parseWithSchema(ManifestSchema, value);
  manifest.segments.forEach((segment, index) => {
    if (segment.end <= segment.start) failAt(jsonPath(['segments', index, 'end']), `must be greater than start (${segment.end} ≤ ${segment.start})`);
    const previous = manifest.segments[index - 1];
    if (previous && segment.start < previous.start) {
      failAt(
        jsonPath(['segments', index, 'start']),
        `must be ≥ the previous segment's start (${segment.start} < ${previous.start}); segments are listed in timeline order`,
      );
    }
  });
  return manifest;
}
