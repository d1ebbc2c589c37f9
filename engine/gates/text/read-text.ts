// Text read in the picture (OCR tracks from engine/ocr/), as the text gates report it: what was read, each line's
// words, box, time span and contrast.
import type { FlagDraft, GateContext, TextSignals, TextTrack, UnreadText } from '../../types.js';
import { boxText, roundedBox } from '../kit/geometry.js';
import { median, round } from '../kit/stats.js';
import { spanText } from '../kit/wording.js';

export const ratioText = (r: number) => `${round(r, 2).toFixed(2)}:1`;

/** Why a text gate cannot read the picture, or the OCR signals. */
export function textSignals(ctx: GateContext): TextSignals | null {
  return ctx.signals.text ?? null;
}

export const NO_PICTURE = 'needs video/image: no picture was read';

/** Lines listed by text in every text gate's measurements (so a pass shows what was read); the rest are counted. */
const MAX_LISTED_LINES = 40;

export function ocrMeasurements(text: TextSignals): Record<string, unknown> {
  return {
    ocrEngine: text.engine,
    ocrPicture: `${text.pictureWidth}x${text.pictureHeight}`,
    sampleIntervalSeconds: round(text.sampleIntervalSeconds, 2),
    samplesRead: text.samples,
    changeSamples: text.changeSamples,
    wholeReads: text.wholeReads,
    regionReads: text.regionReads,
    unchangedSamples: text.unchangedSamples,
    keptLines: text.keptLines,
    recognitionsSpared: text.recognitionsSpared,
    confirmations: text.confirmations,
    startSearches: text.startSearches,
    unconfirmedLines: text.unconfirmedLines,
    ocrTimeouts: text.timeouts,
    textLines: text.tracks.length,
    unreadTextRegions: text.unreadText.length,
    textRead: text.tracks.slice(0, MAX_LISTED_LINES).map((t) => ({ text: t.text, start: round(t.start, 3), end: round(t.end, 3), box: roundedBox(t.box) })),
    ...(text.tracks.length > MAX_LISTED_LINES ? { textReadNotListed: text.tracks.length - MAX_LISTED_LINES } : {}),
  };
}

/** What a flag says about one read line: its words, box, size and when it was seen. */
export function trackEvidence(track: TextTrack): Record<string, unknown> {
  const first = track.observations[0];
  return {
    text: track.text,
    words: first.words.map((w) => ({ text: w.text, confidence: round(w.confidence, 0), box: roundedBox(w.box) })),
    box: roundedBox(track.box),
    heightFraction: round(track.heightFraction, 4),
    seen: { start: round(track.start, 3), end: round(track.end, 3), samples: track.observations.length },
    confidence: round(track.observations.reduce((s, o) => s + o.confidence, 0) / track.observations.length, 1),
  };
}

export function trackSpan(track: TextTrack, still: boolean): string {
  return still ? 'the image' : spanText(track.start, track.end);
}

export const isStill = (text: TextSignals) => text.sampleIntervalSeconds === 0;

export function trackContrast(track: TextTrack): { ratio: number; textIsLighter: boolean; lighter: number; darker: number } | null {
  const measured = track.observations.flatMap((o) => (o.contrast ? [o.contrast] : []));
  if (measured.length === 0) return null;
  const ratio = median(measured.map((c) => c.ratio));
  const near = [...measured].sort((a, b) => Math.abs(a.ratio - ratio) - Math.abs(b.ratio - ratio))[0];
  return { ratio, textIsLighter: near.textIsLighter, lighter: near.lighterLuminance, darker: near.darkerLuminance };
}

export interface PixelHalf {
  measurements: Record<string, unknown>;
  flags: FlagDraft[];
}

/** Evidence for lettering the detector found and no reading counts for. */
export function unreadEvidence(u: UnreadText): Record<string, unknown> {
  return {
    box: roundedBox(u.box),
    detectionScore: round(u.detectionScore, 2),
    guess: u.guess,
    guessConfidence: round(u.guessConfidence, 1),
    ...(u.contrast ? { contrastRatio: round(u.contrast.ratio, 2), textIs: u.contrast.textIsLighter ? 'lighter' : 'darker' } : {}),
  };
}

export const unreadName = (u: UnreadText) => `The lettering at ${boxText(u.box)}`;
