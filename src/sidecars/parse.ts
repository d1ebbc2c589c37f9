// Content of one sidecar → its parsed form, with the format chosen by field, file name or content.
import { invalidSidecar, withOrigin } from './errors.js';
import { expectedScriptFromJson, expectedScriptFromText, type ExpectedScript } from '../../engine/sidecars/formats/expected-script.js';
import { SidecarFormatError } from '../../engine/sidecars/formats/format-error.js';
import { parseJsonText } from '../../engine/sidecars/formats/json-text.js';
import { jsonLimitBreach, SIDECAR_JSON_LIMITS } from '../schemas/bounded-json.js';
import { manifestFromJson, type Manifest } from '../../engine/sidecars/formats/manifest.js';
import { isBlank } from '../../engine/sidecars/formats/plain-text.js';
import { detectTextFormat } from '../../engine/sidecars/formats/sniff.js';
import { transcriptFromJson, transcriptFromSrt, transcriptFromText, transcriptFromWebVtt, type Transcript } from '../../engine/sidecars/formats/transcript.js';
import { watchlistFromJson, type Watchlist } from '../../engine/sidecars/formats/watchlist.js';
import type { SidecarOrigin } from './origin.js';
import type { SingleSidecarKind } from './sidecar-dir.js';
import type { SidecarContent } from './sources.js';

export interface SingleSidecars {
  manifest: Manifest;
  transcript: Transcript;
  watchlist: Watchlist;
  expectedScript: ExpectedScript;
}

type Parser<T> = (content: SidecarContent, origin: SidecarOrigin) => T;

const PARSERS: { [K in SingleSidecarKind]: Parser<SingleSidecars[K]> } = {
  manifest: (content) => manifestFromJson(jsonValue(content)),
  watchlist: (content) => watchlistFromJson(jsonValue(content)),
  transcript: (content, origin) => {
    if (content.type === 'json') return transcriptFromJson(content.value);
    const format = detectTextFormat(content.text, { filename: origin.filename, allowed: ['text', 'json', 'srt', 'vtt'], mayBeJson: content.mayBeJson });
    if (format === 'json') return transcriptFromJson(boundedJsonText(content.text));
    if (format === 'srt') return transcriptFromSrt(content.text);
    if (format === 'vtt') return transcriptFromWebVtt(content.text);
    return transcriptFromText(content.text);
  },
  expectedScript: (content, origin) => {
    if (content.type === 'json') return expectedScriptFromJson(content.value);
    const format = detectTextFormat(content.text, { filename: origin.filename, allowed: ['text', 'json'], mayBeJson: content.mayBeJson });
    return format === 'json' ? expectedScriptFromJson(boundedJsonText(content.text)) : expectedScriptFromText(content.text);
  },
};

export function parseSidecar<K extends SingleSidecarKind>(kind: K, content: SidecarContent, origin: SidecarOrigin): SingleSidecars[K] {
  refuseEmpty(content, origin);
  return withOrigin(origin, () => PARSERS[kind](content, origin));
}

export function jsonValue(content: SidecarContent): unknown {
  return content.type === 'json' ? withinSidecarLimits(content.value) : boundedJsonText(content.text);
}

/** Parsed sidecar JSON, refused (as a format error) when deeper, wider or larger than SIDECAR_JSON_LIMITS. */
export function withinSidecarLimits<T>(value: T): T {
  const breach = jsonLimitBreach(value, SIDECAR_JSON_LIMITS);
  if (breach) throw new SidecarFormatError(`the JSON ${breach}`);
  return value;
}

export function boundedJsonText(text: string): unknown {
  return withinSidecarLimits(parseJsonText(text));
}

/** An empty file or string is refused: it is far more often a failed export than a deliberately empty sidecar. */
export function refuseEmpty(content: SidecarContent, origin: SidecarOrigin): void {
  if (content.type === 'text' && isBlank(content.text)) throw invalidSidecar(origin, 'is empty');
}
