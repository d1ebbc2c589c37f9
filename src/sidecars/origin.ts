import type { SidecarKind } from '../schemas/job.js';

/** Where one sidecar comes from, as error messages and ingress name it. */
export interface SidecarOrigin {
  kind: SidecarKind;
  /** Prefix of every message about it: `transcript_path /abs/t.json`, `manifest_json`, `transcript_base64 (captions.srt)`. */
  label: string;
  /** The local file (absolute) or the inline filename, for error details. */
  file?: string;
  /** Extension and format hint. */
  filename?: string;
  /** Read from the local file system (ingress `local_files`) rather than given inline. */
  local: boolean;
}
