// The contact sheet: for each picture flag, the still nearest its start as an inline PNG with the flagged region
// outlined over it.
import { formatTimestamp } from '../timecode.js';
import type { VideoSignals } from '../types.js';
import { html, type SafeHtml } from './html.js';
import { encodeGrayPng, pngDataUri } from './png.js';
import { flagRegions, type Region } from './regions.js';
import { MAX_EMBEDDED_STILLS, selectStills, type FlagStill } from './stills.js';

const REGION_NAMES: Record<Region['kind'], string> = { box: 'evidence box', padding: 'canvas padding', frame: 'whole frame' };

function regionOutline(r: Region): SafeHtml {
  return html`<rect class="region region-${r.kind}" x="${r.x.toFixed(2)}" y="${r.y.toFixed(2)}" width="${r.w.toFixed(2)}" height="${r.h.toFixed(2)}" vector-effect="non-scaling-stroke"/>`;
}

function stillCard({ flag, still }: FlagStill, video: VideoSignals, uri: string): SafeHtml {
  const regions = flagRegions(flag.evidence);
  const outlined = [...new Set(regions.map((r) => REGION_NAMES[r.kind]))].join(', ');
  return html`<figure class="still-card sev-${flag.severity.toLowerCase()}" id="still-${flag.id}">
<div class="still"><img src="${uri}" width="${video.width}" height="${video.height}" alt="Frame at ${formatTimestamp(still.atSeconds)} for ${flag.id}"><svg class="overlay" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">${regions.map(regionOutline)}</svg></div>
<figcaption><a href="#flag-${flag.id}"><strong>${flag.id}</strong></a> <span class="badge sev-${flag.severity.toLowerCase()}">${flag.severity}</span> ${flag.gate}<br><span class="muted">flag ${flag.timestamp}, still ${formatTimestamp(still.atSeconds)}; outlined: ${outlined}</span></figcaption>
</figure>`;
}

export function renderContactSheet(flags: Parameters<typeof selectStills>[0], video: VideoSignals | null): SafeHtml {
  if (!video || video.stills.length === 0) return html`<p class="muted">No picture stills in this check (audio-only, an image without stills, or no video analysed).</p>`;
  const { shown, omitted } = selectStills(flags, video);
  if (shown.length === 0) return html`<p class="muted">No flag points at the picture: no stills to show.</p>`;
  const uris = new Map<FlagStill['still'], string>();
  const uriOf = (still: FlagStill['still']) => {
    if (!uris.has(still)) uris.set(still, pngDataUri(encodeGrayPng(video.width, video.height, still.gray)));
    return uris.get(still)!;
  };
  const capNote = omitted
    ? html`<p class="note">Only ${MAX_EMBEDDED_STILLS} stills are embedded to keep this page small (BLOCK flags first, then earlier flags); ${omitted} more picture flag${omitted === 1 ? ' has' : 's have'} no still here.</p>`
    : null;
  return html`${capNote}<div class="contact-sheet">${shown.map((s) => stillCard(s, video, uriOf(s.still)))}</div>
<p class="muted small">Stills are the engine's ${video.width}×${video.height} greyscale analysis frames, the nearest to each flag's start.</p>`;
}
