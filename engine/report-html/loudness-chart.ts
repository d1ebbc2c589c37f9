// Loudness over time: momentary (400 ms) and short-term (3 s) loudness every 100 ms against the delivery target.
// The plot is a stretched viewBox (lines keep their width via non-scaling strokes); labels sit outside it in pixels
// and percentages so they stay legible at any width.
import type { AudioSignals } from '../types.js';
import { levelTicks, percentOf, timeAxisLabels, timeDomain, timeGridLines, timeTicks } from './axes.js';
import { coord } from './format.js';
import { maxBuckets, type Bucket } from './downsample.js';
import { html, trusted, type SafeHtml } from './html.js';

/** ebur128-style meters report one value per 100 ms; value i covers the window ending at (i + 1) × 100 ms. */
const STEP_SECONDS = 0.1;
const PLOT_TOP = 10;
const PLOT_HEIGHT = 180;
const PLOT_WIDTH = 1000;
const LEVEL_STEPS = [3, 5, 6, 10, 20];
const MAX_LEVEL_TICKS = 6;
const METER_FLOOR_LUFS = -70;

interface LevelRange {
  low: number;
  high: number;
  step: number;
}

function levelRange(values: number[], target: number | null): LevelRange {
  const all = target === null ? values : [...values, target];
  const low = Math.max(METER_FLOOR_LUFS, Math.floor((Math.min(...all) - 2) / 5) * 5);
  const high = Math.ceil((Math.max(...all) + 2) / 5) * 5;
  const step = LEVEL_STEPS.find((s) => (high - low) / s <= MAX_LEVEL_TICKS) ?? 20;
  return { low, high, step };
}

function toY(level: number, range: LevelRange): number {
  const clamped = Math.min(range.high, Math.max(range.low, level));
  return (PLOT_HEIGHT * (range.high - clamped)) / (range.high - range.low);
}

/** Path data with a gap wherever the meter was below its gate (null). */
function seriesPath(points: Bucket[], offsetSeconds: number, span: number, range: LevelRange): string {
  let d = '';
  let penDown = false;
  for (const p of points) {
    if (p.value === null) {
      penDown = false;
      continue;
    }
    const seconds = offsetSeconds + (p.first + p.count / 2 + 0.5) * STEP_SECONDS;
    const x = (PLOT_WIDTH * percentOf(seconds, span)) / 100;
    d += `${penDown ? 'L' : 'M'}${coord(x)} ${coord(toY(p.value, range))}`;
    penDown = true;
  }
  return d;
}

function levelLabel(level: number): string {
  return `${level < 0 ? '−' : ''}${Math.abs(level)}`;
}

export function renderLoudnessChart(audio: AudioSignals | null, durationSeconds: number, targetLufs: number | null): SafeHtml {
  if (!audio) return html`<p class="muted">No audio: no loudness chart.</p>`;
  const { momentary, shortTerm } = audio.loudness;
  const measured = [...momentary, ...shortTerm].filter((v): v is number => v !== null && Number.isFinite(v));
  if (measured.length === 0) return html`<p class="muted">The audio never rises above the meter's −70 LUFS gate: nothing to chart.</p>`;
  const span = timeDomain(durationSeconds, audio.startSeconds + momentary.length * STEP_SECONDS);
  const range = levelRange(measured, targetLufs);
  const ticks = timeTicks(span);
  const plotBottom = PLOT_TOP + PLOT_HEIGHT;
  const height = plotBottom + 38;
  const yOf = (level: number) => PLOT_TOP + toY(level, range);
  const levelLines = levelTicks(range.low, range.high, range.step).map(
    (level) => html`<line class="grid" x1="0" x2="100%" y1="${coord(yOf(level))}" y2="${coord(yOf(level))}"/><text class="axis" x="3" y="${coord(yOf(level) - 3)}">${levelLabel(level)} LUFS</text>`,
  );
  const target =
    targetLufs === null
      ? null
      : html`<line class="target" x1="0" x2="100%" y1="${coord(yOf(targetLufs))}" y2="${coord(yOf(targetLufs))}"/><text class="axis target-label" x="100%" dx="-3" y="${coord(yOf(targetLufs) - 4)}" text-anchor="end">target ${levelLabel(targetLufs)} LUFS</text>`;
  const momentaryPath = seriesPath(maxBuckets(momentary), audio.startSeconds, span, range);
  const shortTermPath = seriesPath(maxBuckets(shortTerm), audio.startSeconds, span, range);
  return html`<figure class="chart loudness">
<svg width="100%" height="${height}" role="img" aria-label="Momentary and short-term loudness in LUFS over time${targetLufs === null ? '' : `, target ${targetLufs} LUFS`}">
${levelLines}
${timeGridLines(ticks, span, PLOT_TOP, plotBottom)}
<svg x="0" y="${PLOT_TOP}" width="100%" height="${PLOT_HEIGHT}" viewBox="0 0 ${PLOT_WIDTH} ${PLOT_HEIGHT}" preserveAspectRatio="none">
<path class="momentary" d="${trusted(momentaryPath)}"/>
<path class="short-term" d="${trusted(shortTermPath)}"/>
</svg>
${target}
${timeAxisLabels(ticks, span, plotBottom + 16)}
<text class="axis axis-title" x="50%" y="${height - 3}" text-anchor="middle">time (m:ss)</text>
</svg>
<figcaption><span class="key momentary">momentary (400 ms)</span> <span class="key short-term">short-term (3 s)</span> <span class="key target">target</span> Loudness in LUFS (BS.1770); gaps are below the −70 LUFS gate.</figcaption>
</figure>`;
}
