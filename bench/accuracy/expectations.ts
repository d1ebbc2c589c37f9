// What a corpus file should get from a check, as data: the flags a careful editor expects (a defect at its gate,
// severity and span; or a WATCH they would agree with), the text in the picture with its style, or the promise that
// the picture holds no text at all. Loudness has no expected figures here: the bench measures the reference at run
// time with independent meters (meters.ts).
import type { Severity } from '../../engine/types.js';

export interface ExpectedFlag {
  gate: string;
  /** The severity the gate's documentation promises for this case. */
  severity: Severity;
  /** Span of the defect, seconds; both omitted for the whole programme (or a still image). */
  start?: number;
  end?: number;
  /**
   * false: a flag an editor accepts but does not demand (a consequence of another defect, such as a true-peak flag on
   * clipped audio): present at this severity or milder it is no false positive, absent it is no miss.
   */
  required: boolean;
  why: string;
}

/** How a line of text in the picture is drawn, for OCR recall per style. */
export type TextStyle = 'outlined' | 'boxed' | 'plain' | 'bold-title' | 'small' | 'faint' | 'badge' | 'screen' | 'lower-third' | 'low-contrast';

export interface TextLine {
  text: string;
  style: TextStyle;
  /** When it is on screen, seconds; omitted for a still image or text shown throughout. */
  start?: number;
  end?: number;
}

export interface Expectations {
  flags: ExpectedFlag[];
  /** Every line of text in the picture (ground truth for OCR recall). */
  text?: TextLine[];
  /** The picture holds no text: every word read is invented. */
  textFree?: boolean;
}

/** Span tolerance for a defect's start and end, seconds (issue 14: ±0.5 s). */
export const SPAN_TOLERANCE_SECONDS = 0.5;

export const expected = (gate: string, severity: Severity, span: [number, number] | null, why: string): ExpectedFlag => ({
  gate,
  severity,
  ...(span ? { start: span[0], end: span[1] } : {}),
  required: true,
  why,
});

export const accepted = (gate: string, severity: Severity, why: string, span?: [number, number]): ExpectedFlag => ({
  gate,
  severity,
  ...(span ? { start: span[0], end: span[1] } : {}),
  required: false,
  why,
});
