// Tick positions for time and level axes: a few round values that fit a phone-wide chart.
import { clockLabel } from './format.js';
import { html, type SafeHtml } from './html.js';

const TIME_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400];

export interface Tick {
  value: number;
  label: string;
}

/** At most `maxTicks` + 1 round times from 0 to `duration`. */
export function timeTicks(duration: number, maxTicks = 5): Tick[] {
  if (!(duration > 0)) return [{ value: 0, label: clockLabel(0) }];
  const step = TIME_STEPS.find((s) => duration / s <= maxTicks) ?? Math.ceil(duration / maxTicks / 3600) * 3600;
  const ticks: Tick[] = [];
  for (let i = 0; i * step <= duration + 1e-9; i++) ticks.push({ value: i * step, label: clockLabel(i * step, step < 1) });
  return ticks;
}

/** Multiples of `step` covering [low, high]. */
export function levelTicks(low: number, high: number, step: number): number[] {
  const ticks: number[] = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) ticks.push(v);
  return ticks;
}

/** The time domain shared by the timeline and the charts, so they line up: the programme, else what the data covers. */
export function timeDomain(durationSeconds: number, dataEndSeconds: number): number {
  return durationSeconds > 0 ? durationSeconds : Math.max(0, dataEndSeconds);
}

/** Percentage of the way from 0 to `span`, clamped to the chart. */
export function percentOf(value: number, span: number): number {
  if (!(span > 0)) return 0;
  return Math.min(100, Math.max(0, (100 * value) / span));
}

/** The x-axis labels of a full-width chart, as SVG text with percentage positions (no viewBox scaling of text). */
export function timeAxisLabels(ticks: Tick[], duration: number, y: number): SafeHtml[] {
  return ticks.map((t, i) => {
    const x = percentOf(t.value, duration);
    const anchor = i === 0 ? 'start' : x > 92 ? 'end' : 'middle';
    return html`<text class="axis" x="${x.toFixed(2)}%" y="${y}" text-anchor="${anchor}">${t.label}</text>`;
  });
}

/** Vertical grid lines at the ticks, across a band of the chart. */
export function timeGridLines(ticks: Tick[], duration: number, top: number, bottom: number): SafeHtml[] {
  return ticks.map((t) => {
    const x = `${percentOf(t.value, duration).toFixed(2)}%`;
    return html`<line class="grid" x1="${x}" x2="${x}" y1="${top}" y2="${bottom}"/>`;
  });
}
