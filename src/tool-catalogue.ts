// The agent tools as data (names, titles, what they are for, who may call them): the MCP door registers them, the
// public documents (llms.txt, mcp-install.json, agent manifest) list them. Schemas and handlers live with each tool in tools/.
import type { Scope } from './accounts/scopes.js';

export interface ToolInfo {
  name: string;
  title: string;
  /** Written for an agent: when to call it and what comes next. */
  description: string;
  readOnly: boolean;
  /** The API-key scope a caller needs, as on the matching /v1 route; null for what the public routes give anyone. */
  scope: Scope | null;
  /** Reads files of the machine the server runs on: offered only where the caller is on that machine (stdio). */
  localFilesOnly?: true;
}

export const TOOL_CATALOGUE: readonly ToolInfo[] = [
  {
    name: 'qc_run_local_file',
    title: 'Check a local media file',
    description:
      'Run the deterministic QC gates on a video, audio or image file on this machine and get a verdict (PASS, WATCH or BLOCK). ' +
      'Call it on the final export before calling the asset upload-ready. Pass sidecar paths (manifest, transcript, watchlist, expected script, sidecar dir) when you have them. ' +
      'Returns the job with its verdict; next call qc_get_report for every flag with timestamps and repair instructions. ' +
      'If status is still running (long files), poll qc_get_job until completed. After repairing, call this again: a re-check of the same file is free. ' +
      'An unchanged re-check (same bytes, sidecars, profile, checks) reuses the earlier job\'s report without decoding (reused_from); reuse: false checks afresh.',
    readOnly: false,
    scope: 'jobs:write',
    localFilesOnly: true,
  },
  {
    name: 'qc_run_video',
    title: 'Check media from a URL or inline data',
    description:
      'Run QC on media uploaded with qc_create_upload_url (upload_id), fetched from an HTTPS URL (signed_url), given inline (video_base64, audio_base64, ' +
      'media_base64 with media_content_type, or a data_url; small files only) or a platform video URL (youtube_url / platform_video_url, needs yt-dlp). ' +
      'For files on the machine that runs this server use qc_run_local_file instead. Returns the job; then call qc_get_report.',
    readOnly: false,
    scope: 'jobs:write',
  },
  {
    name: 'qc_estimate_cost',
    title: 'Estimate checked minutes and cost',
    description:
      'Estimate the checked minutes, cost and gross-margin guardrail outcome of a check before running it (minutes or duration_seconds, profile, checks, plan). ' +
      'Deterministic QC is always margin-safe; ai_review_seconds only affects cost. Call before large batches; no job is created.',
    readOnly: true,
    scope: 'jobs:read',
  },
  {
    name: 'qc_get_job',
    title: 'Job status',
    description: 'Poll a job: status (queued, running, completed, failed), stage, progress, verdict and metered minutes. When completed, call qc_get_report.',
    readOnly: true,
    scope: 'jobs:read',
  },
  {
    name: 'qc_get_report',
    title: 'Report with every flag',
    description:
      'The full QC report of a completed job: verdict and every BLOCK and WATCH flag with its timestamp, evidence and repair {action, instruction, verify, reachable}. ' +
      'Show the user every flag with its timestamp; repair the reachable ones, give the rest as source/render instructions, then re-run the check. ' +
      'The asset is not upload-ready while any BLOCK flag remains.',
    readOnly: true,
    scope: 'reports:read',
  },
  {
    name: 'qc_get_receipt',
    title: 'Signed receipt',
    description:
      'The signed receipt of a completed job that ran its whole delivery profile (verdict PASS or BLOCK, sha256 of the file, profile, gates, blocked gates), ' +
      'signed with HMAC-SHA256 and with Ed25519 so anyone can verify it offline with the issuer\'s public keys (preflight verify --public-key). ' +
      'A narrowed run (checks) is a repair step and has no receipt (receipt_incomplete_check): run the full profile, free for the same file within the month. ' +
      'Keep the receipt with the published asset; publish only on verdict PASS, never on the summary.',
    readOnly: true,
    scope: 'reports:read',
  },
  {
    name: 'qc_verify_receipt',
    title: 'Verify a receipt',
    description:
      'Check that a receipt is authentic and unaltered, that a file (file_path or sha256) is the one it describes, and that it covers its whole profile ' +
      '(coverage). Publish only when upload_ready is true. For a receipt from another issuer, pass its public key document as public_keys.',
    readOnly: true,
    scope: null,
  },
  {
    name: 'qc_get_events',
    title: 'Job lifecycle events',
    description: 'The lifecycle events of a job (created, started, each stage, artifacts, receipt, usage, completed or failed) with their times.',
    readOnly: true,
    scope: 'jobs:read',
  },
  {
    name: 'qc_get_artifacts',
    title: 'Job artifacts',
    description:
      'The artifacts of a completed job, eight for a run of the whole profile: report JSON, visual report HTML, the signed receipt (full runs only), and the flags as editor markers (CSV, DaVinci Resolve EDL, ' +
      'Final Cut Pro FCPXML, Avid Media Composer, Premiere Pro XML), each with a URL: an MCP resource on a local server, a /v1 URL (same API key) on preflight serve.',
    readOnly: true,
    scope: 'reports:read',
  },
  {
    name: 'qc_get_marker_csv',
    title: 'Marker CSV for editors',
    description: 'The flags of a completed job as a marker CSV (timecode, start/end seconds, severity, gate, summary, instruction) to import into an editor.',
    readOnly: true,
    scope: 'reports:read',
  },
  {
    name: 'qc_list_jobs',
    title: 'Recent jobs',
    description: 'List recent jobs of this workspace, newest first, optionally filtered by status.',
    readOnly: true,
    scope: 'jobs:read',
  },
  {
    name: 'qc_create_upload_url',
    title: 'Reserve an upload URL',
    description:
      'Reserve a signed PUT URL for media bytes, PUT the file there, then check it with qc_run_video and upload_id. Works over MCP at /mcp of preflight serve; ' +
      'a local stdio server needs its upload port (preflight mcp --upload-port <port>). For files on the machine that runs this server use qc_run_local_file instead.',
    readOnly: false,
    scope: 'uploads:write',
  },
  {
    name: 'qc_get_cost_basis',
    title: 'Published cost basis',
    description: 'The published cost basis the estimate uses: compute, storage and model-review prices with their sources, plans and the margin target.',
    readOnly: true,
    scope: null,
  },
  {
    name: 'qc_get_pipeline_recipes',
    title: 'Pipeline recipes',
    description: 'Ready recipes for wiring Preflight into render pipelines: which profile, which sidecars and which tool calls for each kind of output.',
    readOnly: true,
    scope: null,
  },
  {
    name: 'qc_get_npo_pipeline_handoff',
    title: 'Podcast/audio pipeline handoff',
    description: 'The handoff document for the podcast/audio pipeline (npo_podcast_or_audio): targets, gates, sidecars and the repair loop for audio programmes.',
    readOnly: true,
    scope: null,
  },
];
