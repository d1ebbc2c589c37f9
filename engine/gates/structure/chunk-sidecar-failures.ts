// chunk_sidecar_failures: the per-chunk reports of a rendering pipeline: failed, unfinished or not-passed chunks.
import { houseList } from '../../profiles/threshold-values.js';
import type { ChunkSidecar } from '../../sidecars/formats/chunk-sidecar.js';
import { quote, type TimeSpan } from '../../text/timeline.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Repair } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { thresholdList } from '../kit/thresholds.js';
import { located } from '../transcript/transcript-evidence.js';

function chunkSidecarFailuresThresholds(): GateThresholds {
  return {
    doneStatuses: houseList(
      ['ok', 'done', 'pass', 'passed', 'success', 'succeeded', 'complete', 'completed', 'finished', 'rendered'],
      'statuses that mean the chunk finished; any other status (running, pending, queued, …) is WATCH; failed statuses are BLOCK',
    ),
    passVerdicts: houseList(['PASS', 'OK'], 'verdicts that mean the chunk passed its own QC; WATCH or an unknown verdict is WATCH; failed verdicts are BLOCK'),
  };
}

type ChunkState = 'failed' | 'no_status' | 'unfinished' | 'verdict_watch' | 'passed';

function chunkState(chunk: ChunkSidecar, doneStatuses: ReadonlySet<string>, passVerdicts: ReadonlySet<string>): ChunkState {
  if (chunk.failed) return 'failed';
  if (chunk.status === null && chunk.verdict === null) return 'no_status';
  if (chunk.status !== null && !doneStatuses.has(chunk.status.trim().toLowerCase())) return 'unfinished';
  if (chunk.verdict !== null && !passVerdicts.has(chunk.verdict.trim().toUpperCase())) return 'verdict_watch';
  return 'passed';
}

/** A report's own start/end (seconds), when it gives valid ones; else the whole programme. */
function chunkTime(ctx: GateContext, chunk: ChunkSidecar): TimeSpan {
  const { start, end } = chunk.report;
  if (typeof start === 'number' && typeof end === 'number' && Number.isFinite(start) && Number.isFinite(end) && start >= 0 && end >= start) return { start, end };
  return { start: 0, end: Math.max(0, ctx.media.durationSeconds || 0) };
}

function chunkMessage(chunk: ChunkSidecar): string | null {
  for (const key of ['error', 'message', 'reason']) {
    const value = chunk.report[key];
    if (typeof value === 'string' && value.trim() !== '') return quote(value, 0, value.length);
  }
  return null;
}

function describeChunk(chunk: ChunkSidecar): string {
  const parts = [chunk.status !== null ? `status "${chunk.status}"` : null, chunk.verdict !== null ? `verdict "${chunk.verdict}"` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no status or verdict';
}

function chunkRepair(chunk: ChunkSidecar, state: Exclude<ChunkState, 'passed'>, message: string | null): Pick<Repair, 'action' | 'instruction'> {
  const report = `${chunk.source}${message ? `: "${message}"` : ''}`;
  switch (state) {
    case 'failed':
      return { action: 're_render_chunk', instruction: `Re-render chunk ${chunk.id} (${report}), re-assemble the programme from the new chunk and check it again with the new chunk report.` };
    case 'no_status':
      return { action: 'report_chunk_status', instruction: `Chunk ${chunk.id}'s report (${report}) says neither status nor verdict: make the renderer write them (e.g. "status": "done", "verdict": "PASS"), or re-render the chunk.` };
    case 'unfinished':
      return { action: 'wait_for_chunk', instruction: `Chunk ${chunk.id} is still "${chunk.status}" (${report}): let it finish (or re-run it) and assemble the programme only from finished chunks.` };
    case 'verdict_watch':
      return { action: 'review_chunk', instruction: `Chunk ${chunk.id}'s own QC says "${chunk.verdict}" (${report}): review that report before delivery and re-render the chunk if it needs fixing.` };
  }
}

const CHUNK_SUMMARY: Record<Exclude<ChunkState, 'passed'>, string> = {
  failed: 'failed',
  no_status: 'has no status or verdict',
  unfinished: 'is not finished',
  verdict_watch: 'did not pass its own QC',
};

function chunkFlag(ctx: GateContext, chunk: ChunkSidecar, state: Exclude<ChunkState, 'passed'>): FlagDraft {
  const time = chunkTime(ctx, chunk);
  const message = chunkMessage(chunk);
  return {
    severity: state === 'failed' ? 'BLOCK' : 'WATCH',
    start: time.start,
    end: time.end,
    summary: `Chunk ${chunk.id} ${CHUNK_SUMMARY[state]} (${describeChunk(chunk)})${message ? `: "${message}"` : ''}`,
    evidence: { chunk: chunk.id, status: chunk.status, verdict: chunk.verdict, source: chunk.source, ...(message ? { message } : {}), state, ...located(time) },
    repair: { ...chunkRepair(chunk, state, message), reachable: false, verify: `Re-run the check with checks=chunk_sidecar_failures and the new chunk reports; expect no flag for chunk ${chunk.id}.` },
  };
}

function judgeChunkSidecarFailures(ctx: GateContext): GateResult {
  const chunks = ctx.sidecars.chunkSidecars;
  if (!chunks) return skippedGate('chunk_sidecar_failures', 'needs chunk sidecars');
  if (chunks.length === 0) return skippedGate('chunk_sidecar_failures', 'needs chunk sidecars: none were given');
  const done = new Set(thresholdList(ctx.thresholds, 'doneStatuses').map((s) => s.toLowerCase()));
  const pass = new Set(thresholdList(ctx.thresholds, 'passVerdicts').map((s) => s.toUpperCase()));
  const states = chunks.map((chunk) => ({ chunk, state: chunkState(chunk, done, pass) }));
  const count = (state: ChunkState) => states.filter((s) => s.state === state).length;
  const flags = states.flatMap(({ chunk, state }) => (state === 'passed' ? [] : [chunkFlag(ctx, chunk, state)]));
  return gateResultAtMs(
    'chunk_sidecar_failures',
    {
      chunks: chunks.length,
      passed: count('passed'),
      failed: count('failed'),
      unfinished: count('unfinished'),
      noStatus: count('no_status'),
      verdictNotPass: count('verdict_watch'),
      failedChunks: states.filter((s) => s.state === 'failed').map((s) => s.chunk.id),
    },
    flags.sort((x, y) => x.start - y.start),
  );
}

export const chunkSidecarFailuresGate = defineGate({
  id: 'chunk_sidecar_failures',
  area: 'structure',
  title: 'Chunk sidecars report failures',
  algorithm:
    'One line per chunk report. A chunk whose status or verdict marks it failed (docs/sidecars.md) is BLOCK, named with its status, verdict, source and any ' +
      'error, message or reason text. A chunk with neither status nor verdict, with a status not in doneStatuses (running, pending, …), or with a verdict ' +
      'not in passVerdicts (e.g. WATCH) is WATCH. A report with numeric start and end (seconds) places its flag there; otherwise the flag spans the programme. ' +
      'All chunks finished and passed: pass, with the counts.',
  requires: { kinds: ['video', 'audio'], sidecars: ['sidecar directory'] },
  thresholds: chunkSidecarFailuresThresholds,
  run: judgeChunkSidecarFailures,
});
