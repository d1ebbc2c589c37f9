// The range of every numeric input, in one place: far beyond any real request, far below where floating-point maths
// stops counting whole units (2^53). Both doors validate with these schemas, so an out-of-range number is a 400 over
// REST and an isError result over MCP before any arithmetic runs. docs/api.md "Limits" publishes them.
import { z } from 'zod';

/** Checked minutes a request may name: about 694 days of media, 28 times the largest plan's monthly allowance. */
export const MAX_MINUTES = 1_000_000;
/** A declared media duration: the same span in seconds. */
export const MAX_DURATION_SECONDS = MAX_MINUTES * 60;
/** Model-review seconds a request may ask to be priced: about 116 days. */
export const MAX_AI_REVIEW_SECONDS = 10_000_000;
/** Money in cents (plan prices, overage caps): 1,000,000 USD. */
export const MAX_CENTS = 100_000_000;
/** A declared media size: 1 TiB, 50 times the largest plan's upload limit. */
export const MAX_DECLARED_BYTES = 2 ** 40;

export const MinutesInputSchema = z.number().min(0).max(MAX_MINUTES);
export const WholeMinutesInputSchema = z.number().int().min(0).max(MAX_MINUTES);
export const DurationSecondsInputSchema = z.number().min(0).max(MAX_DURATION_SECONDS);
export const AiReviewSecondsInputSchema = z.number().min(0).max(MAX_AI_REVIEW_SECONDS);
export const CentsInputSchema = z.number().int().min(0).max(MAX_CENTS);
export const DeclaredBytesInputSchema = z.number().int().min(0).max(MAX_DECLARED_BYTES);

/** Bounds of every input range above, by field name, for documents that publish them. */
export const NUMERIC_INPUT_RANGES = {
  minutes: { min: 0, max: MAX_MINUTES, integer: false },
  duration_seconds: { min: 0, max: MAX_DURATION_SECONDS, integer: false },
  ai_review_seconds: { min: 0, max: MAX_AI_REVIEW_SECONDS, integer: false },
  included_minutes: { min: 0, max: MAX_MINUTES, integer: true },
  plan_price_cents: { min: 0, max: MAX_CENTS, integer: true },
  overage_cap_cents: { min: 0, max: MAX_CENTS, integer: true },
  size_bytes: { min: 0, max: MAX_DECLARED_BYTES, integer: true },
} as const;
