// One check: probe → analyse (one decode) → gates (pure) → verdict → report.
import { analyse } from './analyse.js';
import { checkCoverage, isDeliveryProfile, mediaShapeOf, requiredGates, sidecarsGiven, type MediaShape, type SidecarName } from './delivery-requirements.js';
import { EngineError } from './errors.js';
import { ffmpegPath } from './ffmpeg/binaries.js';
import { ffmpegIdentity } from './ffmpeg/capabilities.js';
import { readsSidecars } from './gates/define.js';
import { gateById, parseChecks } from './gates/index.js';
import { skippedGate } from './gates/kit/result.js';
import { probe } from './probe.js';
import { classifyAudioContent } from './audio/content-kind.js';
import { needsLegalLevels, PROFILES_VERSION, refineAutoForMusic, resolveProfile, type DeliveryProfileId, type ResolvedProfile } from './profiles/index.js';
import { sha256File } from './receipt.js';
import { REPORT_SCHEMA_VERSION, countStatuses, finaliseFlags, gateSummaries, mediaSummary, verdictOf, type Report } from './report.js';
import { withSidecarFiles } from './sidecars/contact-sheets.js';
import type { EngineSidecars } from './sidecars/index.js';
import type { GateDefinition, GateResult, MediaInfo, SignalNeed, Signals } from './types.js';
import { ENGINE_VERSION, PACKAGE_NAME } from './version.js';

export interface CheckOptions {
  profile?: string;
  checks?: string | string[];
  signal?: AbortSignal;
  /** 0..100 with the stage running. */
  onProgress?: (pct: number, stage: CheckStage) => void;
  /** Parsed sidecars for the gates that read them. */
  sidecars?: EngineSidecars;
  /** Called after the probe, before the decode: may throw to refuse the media (e.g. a duration limit). */
  afterProbe?: (media: MediaInfo) => void | Promise<void>;
  /** sha256 of the file's bytes when the caller has just read them (the service hashes for limits and reuse). */
  sha256?: string;
  /** Filled by the service (metering and cost are not the engine's business). */
  usage?: (media: MediaInfo) => Record<string, unknown> | null;
  costEstimate?: Record<string, unknown> | null;
}

export type CheckStage = 'probe' | 'analyse' | 'gates' | 'report';

export interface CheckResult {
  report: Report;
  media: MediaInfo;
  signals: Signals;
  resolved: ResolvedProfile;
}

export { ENGINE_VERSION, PACKAGE_NAME };

/**
 * The gates a check runs: explicit checks replace the defaults (a repair step); otherwise the pipeline profile's
 * gates plus any gate the delivery profile requires of this media and these sidecars that the pipeline lacks
 * (e.g. `shorts_format` when a landscape video is checked against `video_site_shorts`).
 */
export function selectGates(resolved: ResolvedProfile, checks: string[] | null, media: MediaShape | null = null, sidecars: readonly SidecarName[] = []): GateDefinition[] {
  const delivery = resolved.deliveryProfile.id;
  const required = media && isDeliveryProfile(delivery) ? requiredGates(delivery, media, sidecars) : [];
  const ids = checks ?? [...new Set([...resolved.profile.gates, ...required])];
  return ids.map((id) => gateById(id)).filter((g): g is GateDefinition => Boolean(g));
}

/** Why a gate cannot run on this media, or null when it can. */
function runnable(gate: GateDefinition, media: MediaInfo): string | null {
  if (media.container === SIDECARS_ONLY) return readsSidecars(gate) ? null : `needs ${gate.input}: this check has sidecars only`;
  if (!gate.requires.kinds.includes(media.kind)) return `needs ${gate.input}: this file is ${media.kind === 'image' ? 'an image' : media.kind}`;
  return null;
}

function signalNeeds(gates: GateDefinition[], media: MediaInfo, delivery: DeliveryProfileId): Set<SignalNeed> {
  const needs = new Set<SignalNeed>();
  for (const g of gates) {
    if (runnable(g, media)) continue;
    for (const n of g.requires.signals) if (n !== 'legal_levels' || needsLegalLevels(delivery)) needs.add(n);
  }
  return needs;
}

/** The profile a check of `media` resolves to and the gates it runs (`hasMedia` false: a sidecar-only check). */
function plannedGates(media: MediaInfo, opts: Pick<CheckOptions, 'profile' | 'sidecars'>, checks: string[] | null, hasMedia: boolean) {
  const autoResolved = resolveProfile(opts.profile, media);
  const shape = hasMedia ? mediaShapeOf(media) : null;
  const sidecarNames = sidecarsGiven(opts.sidecars);
  return { autoResolved, shape, sidecarNames, gates: selectGates(autoResolved, checks, shape, sidecarNames) };
}

/** What a check of `media` with these options asks of its decode pass (npm run bench times that pass alone). */
export function decodeNeeds(media: MediaInfo, opts: Pick<CheckOptions, 'profile' | 'checks' | 'sidecars'> = {}): Set<SignalNeed> {
  const { autoResolved, gates } = plannedGates(media, opts, parseChecks(opts.checks), true);
  return signalNeeds(gates, media, autoResolved.deliveryProfile.id as DeliveryProfileId);
}

function runGate(gate: GateDefinition, media: MediaInfo, signals: Signals, sidecars: EngineSidecars, resolved: ResolvedProfile, timecodeFps: number): GateResult {
  const reason = runnable(gate, media);
  if (reason) return skippedGate(gate.id, reason);
  try {
    return gate.run({
      media,
      signals,
      sidecars,
      thresholds: gate.thresholds(resolved.deliveryProfile.id as DeliveryProfileId),
      profileId: resolved.profile.id,
      deliveryProfile: resolved.deliveryProfile,
      timecodeFps,
    });
  } catch (err) {
    return { gate: gate.id, status: 'error', reason: `gate failed: ${(err as Error).message}`, measurements: {}, flags: [] };
  }
}

export function timecodeFpsOf(media: MediaInfo): number {
  const fps = media.video && media.kind === 'video' ? media.video.fps || media.video.avgFps : 0;
  return fps > 0 && fps <= 240 ? fps : 25;
}

const SIDECARS_ONLY = 'sidecars-only';

/** The timeline of a check without media: as long as the manifest or transcript says. */
function sidecarOnlyMedia(sidecars: EngineSidecars): MediaInfo {
  const ends = [
    ...(sidecars.manifest?.segments.map((s) => s.end) ?? []),
    ...(sidecars.transcript?.words?.map((w) => w.end) ?? []),
    ...(sidecars.transcript?.segments?.map((s) => s.end) ?? []),
  ];
  return {
    path: '',
    kind: 'video',
    container: SIDECARS_ONLY,
    formatLongName: null,
    sizeBytes: 0,
    durationSeconds: ends.length ? Math.max(...ends) : 0,
    bitRate: null,
    startSeconds: 0,
    video: null,
    audio: null,
    videoStreamCount: 0,
    audioStreamCount: 0,
    subtitleStreamCount: 0,
    otherStreams: [],
  };
}

function hasSidecars(s: EngineSidecars | undefined): boolean {
  return Boolean(s && (s.manifest || s.transcript || s.watchlist || s.expectedScript || s.chunkSidecars));
}

/**
 * Runs a check. `path` null checks sidecars alone: only the gates that read sidecars run, the rest are skipped with
 * the reason, and the report has no media hash (no receipt can be made for it).
 */
export async function runCheck(path: string | null, opts: CheckOptions = {}): Promise<CheckResult> {
  const t0 = performance.now();
  const progress = opts.onProgress ?? (() => {});
  const checks = parseChecks(opts.checks);
  if (path === null && !hasSidecars(opts.sidecars)) {
    throw new EngineError('missing_media', 'Give a media file, or sidecars (manifest, transcript, watchlist, expected script, sidecar dir) for a sidecar-only check.');
  }
  progress(0, 'probe');
  // A missing ffmpeg fails here. Its version is for the report: asked for once the decode has started, whose start its
  // spawn would otherwise delay.
  if (path !== null) ffmpegPath();
  const media = path === null ? sidecarOnlyMedia(opts.sidecars!) : await probe(path, opts.signal);
  await opts.afterProbe?.(media);
  const { autoResolved, shape, sidecarNames, gates } = plannedGates(media, opts, checks, path !== null);
  const tProbe = performance.now();

  progress(5, 'analyse');
  const needs = signalNeeds(gates, media, autoResolved.deliveryProfile.id as DeliveryProfileId);
  const noSignals: Signals = { video: null, audio: null, analysisMs: 0 };
  const analysed = path === null ? noSignals : analyse(media, { needs, signal: opts.signal, onProgress: (f) => progress(5 + Math.floor(f * 90), 'analyse') });
  const [signals, sha256, ffmpegUsed] = await Promise.all([analysed, path === null ? '' : (opts.sha256 ?? sha256File(path)), ffmpegIdentity()]);
  if (opts.signal?.aborted) throw new EngineError('cancelled', 'The check was cancelled.');
  const tAnalyse = performance.now();
  const audioContent = signals.audio ? classifyAudioContent(signals.audio.stats.envelope) : null;
  const resolved = refineAutoForMusic(autoResolved, media, audioContent?.kind === 'music');

  progress(95, 'gates');
  const timecodeFps = timecodeFpsOf(media);
  const sidecars = withSidecarFiles(opts.sidecars ?? {});
  const results = gates.map((g) => runGate(g, media, signals, sidecars, resolved, timecodeFps));
  const flags = finaliseFlags(results, timecodeFps);
  const tGates = performance.now();

  const warnings: string[] = [];
  if (path === null) warnings.push('Sidecar-only check: no media was analysed; gates that need the media are skipped and no receipt can be signed.');
  if (resolved !== autoResolved) warnings.push(`auto: the audio is music (no speech pauses, ${(100 * audioContent!.pauseShare).toFixed(1)} % quiet blocks), so it is judged against ${resolved.deliveryProfile.id} streaming loudness rather than podcast delivery; pass --profile audio to judge it as a podcast.`);
  if (signals.decodeWarning) warnings.push(`ffmpeg reported a decode error; the file may be truncated or damaged: ${signals.decodeWarning}`);
  if (media.otherStreams.length) warnings.push(`${media.otherStreams.length} stream(s) not analysed: ${media.otherStreams.map((s) => `#${s.index} ${s.type}${s.codec ? ` (${s.codec})` : ''}`).join(', ')}`);

  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    verdict: verdictOf(flags),
    profile: resolved.profile.id,
    requestedProfile: resolved.requestedProfile,
    deliveryProfile: resolved.deliveryProfile.id,
    profileResolution: resolved.resolution,
    media: { ...mediaSummary(media), sha256 },
    engine: { name: 'preflight', version: ENGINE_VERSION, profilesVersion: PROFILES_VERSION, ffmpeg: ffmpegUsed },
    summary: {
      block: flags.filter((f) => f.severity === 'BLOCK').length,
      watch: flags.filter((f) => f.severity === 'WATCH').length,
      gatesRun: results.length - countStatuses(results, 'skipped'),
      gatesSkipped: countStatuses(results, 'skipped'),
      gatesErrored: countStatuses(results, 'error'),
    },
    gates: gateSummaries(results),
    coverage: checkCoverage({ deliveryProfile: resolved.deliveryProfile.id, media: shape, sidecars: sidecarNames, narrowed: checks !== null, results }),
    flags,
    warnings,
    usage: opts.usage ? opts.usage(media) : null,
    costEstimate: opts.costEstimate ?? null,
    timings: {
      probeMs: Math.round(tProbe - t0),
      analysisMs: Math.round(tAnalyse - tProbe),
      gatesMs: Math.round(tGates - tAnalyse),
      totalMs: Math.round(performance.now() - t0),
    },
    createdAt: new Date().toISOString(),
  };
  progress(100, 'report');
  return { report, media, signals, resolved };
}

