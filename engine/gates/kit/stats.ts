// Numbers and series: rounding for reports, the engine's one median and one percentile, runs of consecutive indices.

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The middle value, or the mean of the two middle values of an even count; NaN for no values. The caller's array keeps its order. */
export function median(values: ArrayLike<number>): number {
  // A typed array sorts numerically in native code, with no comparator called per pair (the canvas vote takes two
  // medians of every analysed frame).
  return sortedMedian(Float64Array.from(values).sort());
}

/** The median of values already sorted ascending (the mean of the two middle ones for an even count); NaN for none. */
export function sortedMedian(sorted: ArrayLike<number>): number {
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nearest-rank percentile `p` (0..100) of values sorted ascending: the element at round((n − 1) · p / 100), EBU Tech 3342's rule. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(((sorted.length - 1) * p) / 100)))];
}

export interface IndexSpan {
  first: number;
  last: number;
}

/** Maximal runs of consecutive indices (frames, audio blocks) for which `test` holds. */
export function runsOf(count: number, test: (i: number) => boolean): IndexSpan[] {
  const out: IndexSpan[] = [];
  let first = -1;
  for (let i = 0; i <= count; i++) {
    const on = i < count && test(i);
    if (on && first < 0) first = i;
    if (!on && first >= 0) {
      out.push({ first, last: i - 1 });
      first = -1;
    }
  }
  return out;
}
