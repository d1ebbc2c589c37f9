// Cost of goods sold of checked media at the published cost basis (deterministic checks; no model runs).
import { COST_RATES } from '../billing/cost-basis.js';

export const COGS_CENTS_PER_MEDIA_MINUTE = COST_RATES.deterministicUsdPerMediaMinute * 100;

export const roundTo = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;

/** Cents, to 4 decimals like the estimate's cent figures. */
export function mediaCogsCents(mediaMinutes: number): number {
  return roundTo(mediaMinutes * COGS_CENTS_PER_MEDIA_MINUTE, 4);
}
