// Media time → human timestamps, frame indices and SMPTE timecodes.
//
// Conventions:
// - NTSC rates given approximately (23.976, 29.97, 59.94, …) are read as the exact n×1000/1001 rate,
//   so 29.97 and 30000/1001 give the same frame indices.
// - 29.97 and 59.94 use drop-frame timecode (";" before the frames, SMPTE ST 12-1 numbering);
//   every other rate, including 23.976, is non-drop with ":" throughout.
// - Rates without a SMPTE timecode (e.g. 12.5) count frames at the given rate and split them by round(fps).
// - Hours are not wrapped at 24 here; negative times clamp to 0.

const FRAME_EPSILON = 1e-6;
const NTSC_NOMINAL_RATES = [24, 30, 48, 60, 120];
const NTSC_TOLERANCE = 0.005;
const DROP_FRAME_NOMINAL_RATES = [30, 60];

export interface TimecodeRate {
  /** Exact frames per second used to count frames. */
  exact: number;
  /** Integer frame count per timecode second. */
  nominal: number;
  /** Frame numbers skipped at each minute not divisible by ten (0 for non-drop). */
  dropPerMinute: number;
}

function assertFps(fps: number): void {
  if (!Number.isFinite(fps) || fps <= 0) throw new RangeError(`fps must be a positive number, got ${fps}`);
}

function assertSeconds(seconds: number): void {
  if (!Number.isFinite(seconds)) throw new RangeError(`seconds must be a finite number, got ${seconds}`);
}

function ntscNominalRate(fps: number): number | undefined {
  return NTSC_NOMINAL_RATES.find((n) => Math.abs(fps - (n * 1000) / 1001) < NTSC_TOLERANCE);
}

/** How a frame rate counts frames and labels them in timecode. */
export function timecodeRate(fps: number): TimecodeRate {
  assertFps(fps);
  const ntscNominal = ntscNominalRate(fps);
  if (ntscNominal === undefined) return { exact: fps, nominal: Math.max(1, Math.round(fps)), dropPerMinute: 0 };
  const dropFrame = DROP_FRAME_NOMINAL_RATES.includes(ntscNominal);
  return { exact: (ntscNominal * 1000) / 1001, nominal: ntscNominal, dropPerMinute: dropFrame ? ntscNominal / 15 : 0 };
}

export function isDropFrame(fps: number): boolean {
  return timecodeRate(fps).dropPerMinute > 0;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** "HH:MM:SS.mmm", rounded to the millisecond before splitting (59.9995 s is "00:01:00.000"). */
export function formatTimestamp(seconds: number): string {
  assertSeconds(seconds);
  const totalMs = Math.round(Math.max(0, seconds) * 1000);
  const ms = totalMs % 1000;
  const totalSeconds = (totalMs - ms) / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  return `${pad(hours)}:${pad(minutes)}:${pad(totalSeconds % 60)}.${pad(ms, 3)}`;
}

/** Index of the frame on screen at `seconds` (frame 0 starts at 0 s). */
export function frameIndex(seconds: number, fps: number): number {
  assertSeconds(seconds);
  const { exact } = timecodeRate(fps);
  return Math.max(0, Math.floor(Math.max(0, seconds) * exact + FRAME_EPSILON));
}

/** Frame numbers as labelled by drop-frame timecode (real frame count plus the skipped labels). */
function dropFrameLabelNumber(frames: number, rate: TimecodeRate): number {
  const drop = rate.dropPerMinute;
  const framesPerMinute = rate.nominal * 60 - drop;
  const framesPerTenMinutes = framesPerMinute * 10 + drop;
  const tens = Math.floor(frames / framesPerTenMinutes);
  const rest = frames % framesPerTenMinutes;
  const minutesIntoTen = rest < drop ? 0 : Math.floor((rest - drop) / framesPerMinute);
  return frames + drop * 9 * tens + drop * minutesIntoTen;
}

/** SMPTE timecode of a frame count: "HH:MM:SS:FF", or "HH:MM:SS;FF" for drop-frame rates. */
export function framesToTimecode(frames: number, fps: number): string {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`frames must be a non-negative integer, got ${frames}`);
  const rate = timecodeRate(fps);
  const label = rate.dropPerMinute > 0 ? dropFrameLabelNumber(frames, rate) : frames;
  const ff = label % rate.nominal;
  const totalSeconds = (label - ff) / rate.nominal;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const separator = rate.dropPerMinute > 0 ? ';' : ':';
  return `${pad(hours)}:${pad(minutes)}:${pad(totalSeconds % 60)}${separator}${pad(ff)}`;
}

/** SMPTE timecode of the frame on screen at `seconds`. */
export function formatTimecode(seconds: number, fps: number): string {
  return framesToTimecode(frameIndex(seconds, fps), fps);
}

const TIMECODE_PATTERN = /^(\d{2}):(\d{2}):(\d{2})[:;.](\d{2})$/;

/**
 * Frame count of a SMPTE timecode at `fps` (the inverse of framesToTimecode). Accepts ":" or ";" before the
 * frames; drop-frame counting follows the rate, not the separator. Throws RangeError on an invalid timecode.
 */
export function parseTimecode(timecode: string, fps: number): number {
  const rate = timecodeRate(fps);
  const match = TIMECODE_PATTERN.exec(timecode.trim());
  if (!match) throw new RangeError(`timecode must look like HH:MM:SS:FF, got "${timecode}"`);
  const [hours, minutes, seconds, frames] = match.slice(1).map(Number);
  if (minutes > 59 || seconds > 59 || frames >= rate.nominal) {
    throw new RangeError(`timecode "${timecode}" is out of range at ${fps} fps`);
  }
  const totalMinutes = hours * 60 + minutes;
  const droppedLabel = rate.dropPerMinute > 0 && seconds === 0 && minutes % 10 !== 0 && frames < rate.dropPerMinute;
  if (droppedLabel) throw new RangeError(`timecode "${timecode}" does not exist in drop-frame counting`);
  const labelNumber = (totalMinutes * 60 + seconds) * rate.nominal + frames;
  const skipped = rate.dropPerMinute * (totalMinutes - Math.floor(totalMinutes / 10));
  return labelNumber - skipped;
}
