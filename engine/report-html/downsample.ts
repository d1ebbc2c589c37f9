// Series reduction for charts: at most `maxPoints` buckets, each keeping its loudest value so short peaks survive.

export interface Bucket {
  /** Index of the bucket's first sample in the source series. */
  first: number;
  /** Samples in the bucket. */
  count: number;
  value: number | null;
}

export const MAX_CHART_POINTS = 2000;

/** Splits `length` samples into at most `maxPoints` equal runs and reduces each with `reduce`. */
export function buckets(length: number, maxPoints: number, reduce: (first: number, end: number) => number | null): Bucket[] {
  const size = Math.max(1, Math.ceil(length / maxPoints));
  const out: Bucket[] = [];
  for (let first = 0; first < length; first += size) {
    const end = Math.min(length, first + size);
    out.push({ first, count: end - first, value: reduce(first, end) });
  }
  return out;
}

/** Loudest non-null value per bucket (null when the whole bucket is null, i.e. below the meter's −70 LUFS gate). */
export function maxBuckets(values: ArrayLike<number | null>, maxPoints = MAX_CHART_POINTS): Bucket[] {
  return buckets(values.length, maxPoints, (first, end) => {
    let best: number | null = null;
    for (let i = first; i < end; i++) {
      const v = values[i];
      if (v !== null && Number.isFinite(v) && (best === null || v > best)) best = v;
    }
    return best;
  });
}

/** Mean power of dB values per bucket (for RMS levels, where the loudest block would overstate the level). */
export function powerMeanBuckets(valuesDb: ArrayLike<number>, maxPoints = MAX_CHART_POINTS): Bucket[] {
  return buckets(valuesDb.length, maxPoints, (first, end) => {
    let sum = 0;
    for (let i = first; i < end; i++) sum += 10 ** (valuesDb[i] / 10);
    return 10 * Math.log10(sum / (end - first));
  });
}
