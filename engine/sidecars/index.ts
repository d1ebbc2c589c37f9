// Sidecar inputs as the gates see them: already parsed and validated (the service reads and checks them).
import type { ChunkSidecar } from './formats/chunk-sidecar.js';
import type { ExpectedScript } from './formats/expected-script.js';
import type { Manifest } from './formats/manifest.js';
import type { Transcript } from './formats/transcript.js';
import type { Watchlist } from './formats/watchlist.js';

export type { ChunkSidecar, ExpectedScript, Manifest, Transcript, Watchlist };

/** A contact sheet the manifest names, looked up in the manifest's folder (engine/sidecars/contact-sheets.ts). */
export type ContactSheetFile = 'found' | 'missing' | 'outside';

export interface EngineSidecars {
  manifest?: Manifest;
  transcript?: Transcript;
  watchlist?: Watchlist;
  expectedScript?: ExpectedScript;
  chunkSidecars?: ChunkSidecar[];
  /** Directory of a manifest read from disk, to resolve its relative paths (contact sheets). Never shown. */
  manifestDir?: string;
  /** The manifest's relative contact-sheet references (as written) looked up in manifestDir; set when a check starts. */
  contactSheets?: Record<string, ContactSheetFile>;
}
