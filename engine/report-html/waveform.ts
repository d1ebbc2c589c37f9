// The waveform: per-10 ms peak level of the loudest channel as a mirrored area, with RMS inside it. Levels are drawn
// on a dB scale (−60 dBFS at the centre line) so quiet passages, dropouts and silence stay visible.
import type { AudioSignals } from '../types.js';
import { percentOf, timeAxisLabels, timeDomain, timeGridLines, timeTicks } from './axes.js';
import { coord } from './format.js';
import { maxBuckets, powerMeanBuckets, type Bucket } from './downsample.js';
import { html, trusted, type SafeHtml } from './html.js';

const FLOOR_DB = -60;
const PLOT_TOP = 6;
const PLOT_HEIGHT = 120;
const PLOT_WIDTH = 1000;

function halfHeight(db: number | null): number {
  if (db === null || !Number.isFinite(db)) return 0;
  const share = Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB));
  return (share * PLOT_HEIGHT) / 2;
}

/** A closed area mirrored around the centre line: the top edge left to right, then the bottom edge back. */
function mirroredArea(points: Bucket[], blockSeconds: number, offsetSeconds: number, span: number): string {
  if (points.length === 0) return '';
  const centre = PLOT_HEIGHT / 2;
  const xs = points.map((p) => (PLOT_WIDTH * percentOf(offsetSeconds + (p.first + p.count / 2) * blockSeconds, span)) / 100);
  const hs = points.map((p) => halfHeight(p.value));
  const top = xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${coord(x)} ${coord(centre - hs[i])}`).join('');
  const bottom = xs.map((_, i) => xs.length - 1 - i).map((i) => `L${coord(xs[i])} ${coord(centre + hs[i])}`).join('');
  return `${top}${bottom}Z`;
}

export function renderWaveform(audio: AudioSignals | null, durationSeconds: number): SafeHtml {
  const envelope = audio?.stats?.envelope;
  if (!audio || !envelope || envelope.peakDbfs.length === 0) return html`<p class="muted">No audio: no waveform.</p>`;
  const span = timeDomain(durationSeconds, audio.startSeconds + envelope.peakDbfs.length * envelope.blockSeconds);
  const ticks = timeTicks(span);
  const plotBottom = PLOT_TOP + PLOT_HEIGHT;
  const height = plotBottom + 22;
  const peak = mirroredArea(maxBuckets(envelope.peakDbfs), envelope.blockSeconds, audio.startSeconds, span);
  const rms = mirroredArea(powerMeanBuckets(envelope.rmsDbfs), envelope.blockSeconds, audio.startSeconds, span);
  return html`<figure class="chart waveform">
<svg width="100%" height="${height}" role="img" aria-label="Waveform: peak and RMS level per 10 ms, dB scale">
${timeGridLines(ticks, span, PLOT_TOP, plotBottom)}
<svg x="0" y="${PLOT_TOP}" width="100%" height="${PLOT_HEIGHT}" viewBox="0 0 ${PLOT_WIDTH} ${PLOT_HEIGHT}" preserveAspectRatio="none">
<path class="wave-peak" d="${trusted(peak)}"/>
<path class="wave-rms" d="${trusted(rms)}"/>
<line class="grid" x1="0" x2="${PLOT_WIDTH}" y1="${PLOT_HEIGHT / 2}" y2="${PLOT_HEIGHT / 2}"/>
</svg>
<text class="axis" x="3" y="${PLOT_TOP + 10}">0 dBFS</text>
<text class="axis" x="3" y="${PLOT_TOP + PLOT_HEIGHT / 2 - 3}">−${-FLOOR_DB} dBFS</text>
${timeAxisLabels(ticks, span, height - 5)}
</svg>
<figcaption><span class="key wave-peak">peak</span> <span class="key wave-rms">RMS</span> Loudest channel per 10 ms on a dB scale (centre line −60 dBFS); time in m:ss.</figcaption>
</figure>`;
}
