// The flag timeline: one bar over the programme, each flag's span in its severity colour, in lanes so overlapping
// flags stay visible. Positions are percentages of an SVG without a viewBox, so labels keep their size on a phone.
import type { Flag } from '../types.js';
import { percentOf, timeAxisLabels, timeDomain, timeGridLines, timeTicks } from './axes.js';
import { html, type SafeHtml } from './html.js';

const LANE_HEIGHT = 22;
const BAR_HEIGHT = 18;
const MAX_LANES = 8;
const TOP = 4;
/** Room a label needs after its bar starts, as a share of the width (an id is about 40 px on a 360 px phone). */
const LABEL_PERCENT = 14;
const MIN_BAR_PERCENT = 0.8;

interface PlacedFlag {
  flag: Flag;
  lane: number;
  startPct: number;
  widthPct: number;
  labelled: boolean;
}

/** Greedy lane packing: each flag takes the first lane free at its start, counting its label as occupied room. */
function placeFlags(flags: readonly Flag[], duration: number): PlacedFlag[] {
  const laneEnds: number[] = [];
  return flags.map((flag) => {
    const startPct = Math.min(percentOf(flag.start, duration), 100 - MIN_BAR_PERCENT);
    const endPct = Math.max(percentOf(flag.end, duration), startPct + MIN_BAR_PERCENT);
    const occupiedTo = Math.max(endPct, startPct + LABEL_PERCENT);
    let lane = laneEnds.findIndex((end) => end <= startPct);
    let labelled = true;
    if (lane < 0 && laneEnds.length < MAX_LANES) lane = laneEnds.length;
    if (lane < 0) {
      // Every lane is busy: share the one that frees first and rely on the tooltip and the list for the id.
      lane = laneEnds.indexOf(Math.min(...laneEnds));
      labelled = false;
    }
    laneEnds[lane] = Math.max(laneEnds[lane] ?? 0, occupiedTo);
    return { flag, lane, startPct, widthPct: endPct - startPct, labelled };
  });
}

function flagTooltip(f: Flag): string {
  return `${f.id} ${f.severity} ${f.gate} ${f.timestamp}: ${f.summary}`;
}

function flagBar(p: PlacedFlag): SafeHtml {
  const y = TOP + p.lane * LANE_HEIGHT;
  const nearRightEdge = p.startPct > 100 - LABEL_PERCENT;
  const label = p.labelled
    ? html`<text class="bar-label" x="${(nearRightEdge ? p.startPct + p.widthPct : p.startPct).toFixed(2)}%" dx="${nearRightEdge ? -4 : 4}" y="${y + 13}" text-anchor="${nearRightEdge ? 'end' : 'start'}">${p.flag.id}</text>`
    : null;
  return html`<a href="#flag-${p.flag.id}"><g class="sev-${p.flag.severity.toLowerCase()}"><title>${flagTooltip(p.flag)}</title><rect class="bar" x="${p.startPct.toFixed(2)}%" y="${y}" width="${p.widthPct.toFixed(2)}%" height="${BAR_HEIGHT}" rx="3"/>${label}</g></a>`;
}

export function renderTimeline(flags: readonly Flag[], duration: number): SafeHtml {
  const span = timeDomain(duration, Math.max(0, ...flags.map((f) => f.end)));
  const placed = placeFlags(flags, span);
  const lanes = Math.max(1, ...placed.map((p) => p.lane + 1));
  const barsBottom = TOP + lanes * LANE_HEIGHT;
  const height = barsBottom + 20;
  const ticks = timeTicks(span);
  const description = flags.length
    ? `Timeline of ${flags.length} flag${flags.length === 1 ? '' : 's'} over ${span.toFixed(1)} s`
    : `No flags over ${span.toFixed(1)} s`;
  return html`<figure class="chart timeline">
<svg class="timeline-svg" width="100%" height="${height}" role="img" aria-label="${description}">
<rect class="track" x="0" y="${TOP - 2}" width="100%" height="${barsBottom - TOP + 2}" rx="4"/>
${timeGridLines(ticks, span, TOP - 2, barsBottom)}
${placed.map(flagBar)}
${timeAxisLabels(ticks, span, height - 5)}
</svg>
<figcaption><span class="key sev-block">BLOCK</span> <span class="key sev-watch">WATCH</span> Time in m:ss; tap a bar for its flag.</figcaption>
</figure>`;
}
