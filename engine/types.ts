// Shared engine contracts: media description, signals, gates, flags, reports.
// The engine is pure media QC: nothing here knows about HTTP, MCP, keys or billing.

/** Flags, gate results and the report are declared once, as zod schemas (engine/report-schema.ts). */
export type { Flag, FlagDraft, GateResult, GateStatus, MediaKind, Repair, Severity, Verdict } from './report-schema.js';
import type { GateResult, MediaKind } from './report-schema.js';

export type Confidence = 'primary' | 'secondary' | 'unconfirmed' | 'house';

export interface VideoStreamInfo {
  index: number;
  codec: string;
  profile: string | null;
  /** Coded size. */
  width: number;
  height: number;
  /** Display size after SAR and rotation (what a viewer sees). */
  displayWidth: number;
  displayHeight: number;
  sampleAspectRatio: string | null;
  displayAspectRatio: string | null;
  rotation: number;
  pixelFormat: string | null;
  bitDepth: number;
  colorRange: 'tv' | 'pc' | null;
  colorSpace: string | null;
  colorTransfer: string | null;
  colorPrimaries: string | null;
  /** True when transfer is PQ or HLG. */
  hdr: boolean;
  fieldOrder: string | null;
  /** Nominal frame rate (r_frame_rate) and average rate, frames per second. */
  fps: number;
  avgFps: number;
  /** Set by the probe from packet timing: true when frame intervals vary. */
  variableFrameRate: boolean;
  startSeconds: number;
  durationSeconds: number | null;
  frameCount: number | null;
  attachedPicture: boolean;
}

export interface AudioStreamInfo {
  index: number;
  codec: string;
  sampleRate: number;
  channels: number;
  /** ffmpeg layout name, e.g. "stereo", "5.1(side)", "mono". */
  channelLayout: string | null;
  /** ffmpeg channel names in stream order, e.g. ["FL","FR","FC","LFE","SL","SR"]. */
  channelNames: string[];
  sampleFormat: string | null;
  bitRate: number | null;
  startSeconds: number;
  durationSeconds: number | null;
}

export interface MediaInfo {
  path: string;
  kind: MediaKind;
  container: string;
  formatLongName: string | null;
  sizeBytes: number;
  durationSeconds: number;
  bitRate: number | null;
  startSeconds: number;
  video: VideoStreamInfo | null;
  audio: AudioStreamInfo | null;
  videoStreamCount: number;
  audioStreamCount: number;
  subtitleStreamCount: number;
  /** Streams ignored by the analysis (data, attachments, unsupported codecs), described for the report. */
  otherStreams: { index: number; type: string; codec: string | null }[];
}

/** Per-analysis-frame statistics of the downscaled luma picture. */
export interface VideoFrameStats {
  /** Mean luma normalised to 0..1 (0 = reference black, 1 = reference white). */
  mean: number;
  /** Fraction of pixels at or below the black pixel threshold. */
  darkFraction: number;
  /** Mean absolute difference to the previous frame, 0..1 (0 for the first frame). */
  diff: number;
  /** Largest mean absolute difference of any cell (about 12×12 analysis pixels) to the previous frame, code values 0..255. */
  peakChange: number;
  /** Share of cells that changed at all since the previous frame, 0..1: broad (camera, zoom, fade) versus local change. */
  changedShare: number;
}

/**
 * Every analysis frame's statistics, one column per measure (`diff[i]` is frame i's): 40 bytes a frame, where an
 * object a frame costs about 100 and an hour at 30 fps has 108,000 frames.
 */
export type VideoFrameSeries = { readonly [K in keyof VideoFrameStats]: Float64Array } & { readonly length: number };

export interface VideoSignals {
  /** Analysis frame rate (constant after the engine's fps filter). */
  fps: number;
  /** Media time of analysis frame 0, seconds. */
  startSeconds: number;
  frameCount: number;
  /** Analysis picture size (downscaled luma). */
  width: number;
  height: number;
  frames: VideoFrameSeries;
  /** Luma stills sampled evenly through the programme (at most 240), for contact sheets in the visual report. */
  stills: { atSeconds: number; gray: Uint8Array }[];
  /** Repeated (looped) sequences found during the pass, above the engine's detection floor (engine/video/loops.ts). */
  repeats: { sourceFrame: number; repeatFrame: number; frames: number }[];
  /** Canvas analysis aggregated over content frames. */
  canvas: CanvasSignals;
  /** R103 legal levels on sparse samples, null when not computed. */
  legalLevels: LegalLevelSignals | null;
}

export interface CanvasSignals {
  /** Frames that had enough picture (not black, not fade) to judge the canvas. */
  framesConsidered: number;
  /** Median fraction of the picture height covered by uniform dark bars, top and bottom. */
  barTopFraction: number;
  barBottomFraction: number;
  barLeftFraction: number;
  barRightFraction: number;
  /** Median fraction of width on each side that is blurred padding (low detail vs centre). */
  blurLeftFraction: number;
  blurRightFraction: number;
  blurTopFraction: number;
  blurBottomFraction: number;
  /** Share of considered frames where bars/blur were present. */
  barFramesShare: number;
  blurFramesShare: number;
}

export interface LegalLevelSignals {
  samples: number;
  /** Worst sample: percentage of pixels with any RGB component outside R103 −5 %..105 %. */
  worstOutOfRangePct: number;
  worstAtSeconds: number;
  /** Samples whose out-of-range area exceeds the 1 % allowance. */
  samplesOverAllowance: { atSeconds: number; outOfRangePct: number }[];
  /** Seconds between samples (set by the decode pass), which bounds the shot a sample speaks for. */
  intervalSeconds?: number;
}

export interface LoudnessMeasurements {
  integratedLufs: number | null;
  loudnessRangeLu: number | null;
  truePeakDbtp: number | null;
  samplePeakDbfs: number | null;
  maxMomentaryLufs: number | null;
  maxShortTermLufs: number | null;
  /** Time (s, from audio start) of the loudest momentary and short-term values. */
  maxMomentaryAtSeconds: number | null;
  maxShortTermAtSeconds: number | null;
  /** Momentary and short-term loudness sampled every 100 ms (for charts and spans); -Infinity as null. */
  momentary: (number | null)[];
  shortTerm: (number | null)[];
}

export interface AudioSignals {
  sampleRate: number;
  channels: number;
  channelNames: string[];
  startSeconds: number;
  durationSeconds: number;
  loudness: LoudnessMeasurements;
  /** Other audio statistics computed from the same PCM (clipping, silence, per-channel stats, beeps). */
  stats: AudioStats;
}

/** Clipping, silence, per-channel and beep statistics: defined by engine/audio/stats.ts. */
export type { AudioStats } from './audio/stats.js';
import type { AudioStats } from './audio/stats.js';
import type { FrameBox } from './gates/kit/geometry.js';
import type { EngineSidecars } from './sidecars/index.js';
import type { DeliveryProfileId } from './profiles/index.js';

/** One reading of a text line at one sample, confirmed by the neighbouring sample of the same pass. */
export interface TextObservation {
  atSeconds: number;
  text: string;
  /** Line box, fractions of the frame. */
  box: FrameBox;
  /** The same line in the confirming sample (half a second later), null for a still picture, or for a line that
   * persisted from the previous sample and was gone by this sample's confirming frame. */
  confirmBox: FrameBox | null;
  confirmAtSeconds: number | null;
  /** What the confirming sample read (a letter may differ: OCR misreads), null for a still picture. */
  confirmText: string | null;
  /** Mean OCR confidence of the line's words, 0..100. */
  confidence: number;
  /** The stream frame before this sample already showed the line (its start lies there or before). */
  seenFromSeconds?: number;
  words: { text: string; confidence: number; box: FrameBox }[];
  /** WCAG contrast of the text against its local background, null when the box was too small to measure. */
  contrast: { ratio: number; lighterLuminance: number; darkerLuminance: number; textIsLighter: boolean } | null;
}

/** A text line followed through the samples that read it. */
export interface TextTrack {
  text: string;
  /** First and last sample that read it, seconds (the last one's confirming sample included). */
  start: number;
  end: number;
  /** Every position it was read at, united; fractions of the frame. */
  box: FrameBox;
  /** Median line height, fraction of the frame height. */
  heightFraction: number;
  observations: TextObservation[];
}

export interface TextSignals {
  engine: string;
  /** Size of the picture OCR read (the frame scaled to at most OCR_LONG_SIDE px). */
  pictureWidth: number;
  pictureHeight: number;
  /** Seconds between fixed-rate samples (0 for a still picture). */
  sampleIntervalSeconds: number;
  /** Frames sampled: fixed-rate samples plus samples taken at picture changes. */
  samples: number;
  changeSamples: number;
  /** Whole-picture OCR calls (a sample where much of the picture changed since it was read). */
  wholeReads: number;
  /** OCR calls on the regions of a sample that changed since they were read (engine/ocr/changes.ts). */
  regionReads: number;
  /** Samples where nothing changed since it was read: their lines were kept without an OCR call. */
  unchangedSamples: number;
  /** Lines samples kept from the sample before (their pixels unchanged) instead of reading them again. */
  keptLines: number;
  /** Detected lines given the words two readings of the same glyphs in the same place read alike, instead of being
   * recognised again (engine/ocr/known-lines.ts). */
  recognitionsSpared: number;
  /** Crop OCR calls confirming the candidates of a sample on the next frame. */
  confirmations: number;
  /** Crop OCR calls on the frame before a sample, looking for lines that sample was the first to read (their start). */
  startSearches: number;
  /** Candidate lines a confirming sample did not read again (noise, flashes). */
  unconfirmedLines: number;
  timeouts: number;
  ocrMs: number;
  tracks: TextTrack[];
  /** Still pictures: lettering the detector found that no reading counts for (engine/ocr/unread.ts). */
  unreadText: UnreadText[];
}

export interface UnreadText {
  /** Where the detector found it, fractions of the frame. */
  box: FrameBox;
  /** The detector's mean text probability, 0..1. */
  detectionScore: number;
  /** What the recogniser made of it, and how sure it was (0..100): too unsure to count as text. */
  guess: string;
  guessConfidence: number;
  contrast: TextObservation['contrast'];
}

export interface Signals {
  video: VideoSignals | null;
  audio: AudioSignals | null;
  /** Text read in the picture by OCR; absent when no selected gate needs it. */
  text?: TextSignals | null;
  /** Wall-clock of the analysis pass, ms. */
  analysisMs: number;
  /** Set when ffmpeg stopped with an error after decoding part of the file (truncated or damaged media). */
  decodeWarning?: string;
}

export interface ThresholdValue {
  value: number | string | boolean | number[] | string[];
  unit?: string;
  source: string;
  confidence: Confidence;
}

export type GateThresholds = Record<string, ThresholdValue>;

export interface DeliveryProfile {
  id: string;
  label: string;
  description: string;
}

export interface GateContext {
  media: MediaInfo;
  signals: Signals;
  /** Parsed sidecars ({} when none were given). */
  sidecars: EngineSidecars;
  /** Thresholds of this gate under the effective profile. */
  thresholds: GateThresholds;
  profileId: string;
  deliveryProfile: DeliveryProfile;
  /** Frame rate used for timecodes (video fps, or 25 for audio/image). */
  timecodeFps: number;
}

/** Signals a gate needs from the single decode pass. */
export type SignalNeed = 'video' | 'audio' | 'legal_levels' | 'text';

/** A sidecar, as a gate's input names it. */
export type SidecarName = 'manifest' | 'transcript' | 'watchlist' | 'expected script' | 'sidecar directory';

/** A sidecar a gate cannot run without; `part` says what of it the gate reads (e.g. the manifest's "mix metadata"). */
export type SidecarNeed = SidecarName | { sidecar: SidecarName; part: string };

/** What a gate reads. Its input wording, the signals a check computes for it and its docs all follow from this. */
export interface GateRequirements {
  /** Media kinds the gate judges: a file of another kind skips it. */
  kinds: MediaKind[];
  /** Signals of the decode pass it reads. */
  signals: SignalNeed[];
  /** Sidecars it cannot run without, all of them. A gate that reads sidecars also runs in a sidecar-only check. */
  sidecars: SidecarNeed[];
  /** A sidecar that stands in for the picture: without a picture to read, the gate judges what this sidecar declares. */
  orSidecar?: SidecarName;
}

export type GateArea = 'visual' | 'audio' | 'text' | 'structure' | 'transcript';

export interface GateDefinition {
  id: string;
  area: GateArea;
  /** One line, for catalogues. */
  title: string;
  /** The algorithm in words, published in docs/gates.md. */
  algorithm: string;
  requires: GateRequirements;
  /** What the gate reads, in words, derived from `requires` (e.g. "audio/video", "transcript + watchlist", "video/image or manifest"). */
  input: string;
  /** The gate's thresholds, with their sources, under a delivery profile; {} for a gate without thresholds. */
  thresholds(delivery: DeliveryProfileId): GateThresholds;
  run(ctx: GateContext): GateResult;
}
