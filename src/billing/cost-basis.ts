// The published cost basis (served as /cost-basis.json): every figure the estimate and the cost guardrail use,
// with its unit, source and confidence. The rates below are derived from these figures, never typed in twice.

export const COST_BASIS_VERSION = '2026-11-22';

/** The guardrail keeps gross margin above this (docs/billing.md "The cost guardrail"). */
export const GROSS_MARGIN_TARGET_PCT = 95;

/** measured: our own benchmark; house: our stated assumption; derived: computed from the figures above it. */
export type CostConfidence = 'measured' | 'house' | 'derived';

export interface CostFigure {
  value: number;
  unit: string;
  source: string;
  confidence: CostConfidence;
}

function figure(value: number, unit: string, source: string, confidence: CostConfidence): CostFigure {
  return { value, unit, source, confidence };
}

const BENCHMARK_SOURCE = 'Preflight benchmark (npm run bench): a full default check, OCR included, of a 10-minute 1080p30 H.264 file with burned-in captions on 2 cores';

const INPUTS = {
  benchmarkMediaMinutes: figure(10, 'media minutes', BENCHMARK_SOURCE, 'measured'),
  benchmarkWallSeconds: figure(110.7, 's wall', BENCHMARK_SOURCE, 'measured'),
  benchmarkCores: figure(2, 'cores', BENCHMARK_SOURCE, 'measured'),
  machineUsdPerHour: figure(
    0.1,
    'USD/hour',
    'Assumption: an on-demand 2 vCPU / 8 GB general-purpose cloud VM (the benchmark machine shape) at about 0.10 USD/hour list price',
    'house',
  ),
  machineUtilisation: figure(
    0.5,
    'fraction of paid hours busy',
    'Assumption: the machine is busy checking half the time it is paid for; idle time is charged to the minutes checked',
    'house',
  ),
  storedGbPerMediaMinute: figure(0.1, 'GB per media minute', 'Assumption: a creator export at about 13 Mbit/s (1080p, generous)', 'house'),
  storageRetentionDays: figure(1, 'days', 'Assumption: uploaded media is kept at most a day; reports and artifacts are small', 'house'),
  storageUsdPerGbMonth: figure(0.023, 'USD/GB-month', 'Assumption: standard object storage list price', 'house'),
  egressGbPerMediaMinute: figure(0.001, 'GB per media minute', 'Assumption: reports, marker CSV, EDL and receipt served back, about 1 MB per media minute', 'house'),
  egressUsdPerGb: figure(0.09, 'USD/GB', 'Assumption: internet egress list price', 'house'),
  modelReviewUsdPerSecond: figure(
    0.0005,
    'USD per second of model review',
    'Hypothetical internal model reviewer. No model runs in Preflight; this price only feeds the cost guardrail for ai_review_seconds and never the verdict',
    'house',
  ),
} as const;

const HOURS_PER_SECOND = 1 / 3600;
const DAYS_PER_MONTH = 30;

// Twelve significant digits drop binary noise (7.040000000000001) from the published figures the code also uses.
const tidy = (value: number) => Number(value.toPrecision(12));

function deriveRates(inputs: typeof INPUTS) {
  const wallSecondsPerMediaMinute = inputs.benchmarkWallSeconds.value / inputs.benchmarkMediaMinutes.value;
  const coreSecondsPerMediaMinute = wallSecondsPerMediaMinute * inputs.benchmarkCores.value;
  const computeUsdPerMediaMinute =
    (wallSecondsPerMediaMinute * HOURS_PER_SECOND * inputs.machineUsdPerHour.value) / inputs.machineUtilisation.value;
  const storageUsdPerMediaMinute =
    (inputs.storedGbPerMediaMinute.value * inputs.storageUsdPerGbMonth.value * inputs.storageRetentionDays.value) / DAYS_PER_MONTH;
  const egressUsdPerMediaMinute = inputs.egressGbPerMediaMinute.value * inputs.egressUsdPerGb.value;
  return {
    wallSecondsPerMediaMinute: tidy(wallSecondsPerMediaMinute),
    coreSecondsPerMediaMinute: tidy(coreSecondsPerMediaMinute),
    computeUsdPerMediaMinute: tidy(computeUsdPerMediaMinute),
    storageUsdPerMediaMinute: tidy(storageUsdPerMediaMinute),
    egressUsdPerMediaMinute: tidy(egressUsdPerMediaMinute),
    deterministicUsdPerMediaMinute: tidy(computeUsdPerMediaMinute + storageUsdPerMediaMinute + egressUsdPerMediaMinute),
    modelReviewUsdPerSecond: inputs.modelReviewUsdPerSecond.value,
  };
}

export type CostRates = ReturnType<typeof deriveRates>;

/** The rates the estimate uses, derived from the published figures. */
export const COST_RATES: Readonly<CostRates> = Object.freeze(deriveRates(INPUTS));

function derivedFigures(rates: CostRates): Record<string, CostFigure> {
  const from = (what: string) => `Derived: ${what}`;
  return {
    wallSecondsPerMediaMinute: figure(rates.wallSecondsPerMediaMinute, 's wall per media minute', from('benchmarkWallSeconds / benchmarkMediaMinutes'), 'derived'),
    coreSecondsPerMediaMinute: figure(rates.coreSecondsPerMediaMinute, 'core-s per media minute', from('wallSecondsPerMediaMinute × benchmarkCores'), 'derived'),
    computeUsdPerMediaMinute: figure(
      rates.computeUsdPerMediaMinute,
      'USD per media minute',
      from('wallSecondsPerMediaMinute / 3600 × machineUsdPerHour / machineUtilisation'),
      'derived',
    ),
    storageUsdPerMediaMinute: figure(
      rates.storageUsdPerMediaMinute,
      'USD per media minute',
      from('storedGbPerMediaMinute × storageUsdPerGbMonth × storageRetentionDays / 30'),
      'derived',
    ),
    egressUsdPerMediaMinute: figure(rates.egressUsdPerMediaMinute, 'USD per media minute', from('egressGbPerMediaMinute × egressUsdPerGb'), 'derived'),
    deterministicUsdPerMediaMinute: figure(
      rates.deterministicUsdPerMediaMinute,
      'USD per media minute',
      from('compute + storage + egress: the cost of one checked minute without model review'),
      'derived',
    ),
  };
}

export interface CostBasis {
  version: string;
  currency: 'USD';
  grossMarginTargetPct: number;
  notes: string[];
  inputs: Record<string, CostFigure>;
  derived: Record<string, CostFigure>;
}

/** The published cost basis as a JSON-able object. */
export function costBasis(): CostBasis {
  return {
    version: COST_BASIS_VERSION,
    currency: 'USD',
    grossMarginTargetPct: GROSS_MARGIN_TARGET_PCT,
    notes: [
      'Costs are for the hosted service. Run locally, the compute is your own machine.',
      'Every checked minute is costed at the full default check of 1080p30 video, the heaviest measured case; shorter, smaller or audio-only media costs less.',
      'Gross margin = 1 − COGS / revenue. The cost guardrail keeps it above the target; ai_review_seconds only ever adds cost, never changes a verdict.',
    ],
    inputs: structuredClone(INPUTS),
    derived: derivedFigures(COST_RATES),
  };
}
