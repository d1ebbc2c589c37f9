// Independent loudness meters: ffmpeg's ebur128 filter and loudgain (libebur128, Debian's package). The corpus
// builder masters its programmes with the first; the accuracy bench compares the engine's own meter with both.
import { runTool } from '../../engine/ffmpeg/run.js';
import { ffmpegPath } from '../../engine/ffmpeg/binaries.js';

export interface MeterReading {
  integratedLufs: number | null;
  loudnessRangeLu: number | null;
  truePeakDbtp: number | null;
}

const TIMEOUT_MS = 5 * 60_000;
const toDb = (linear: number) => (linear > 0 ? 20 * Math.log10(linear) : -Infinity);
const finite = (n: number) => (Number.isFinite(n) ? n : null);

/**
 * ffmpeg `ebur128=peak=true` with per-frame metadata (three decimals, where the log summary rounds to one): the last
 * frame's integrated loudness and range, the highest true peak of any channel. `dualMono` measures a mono file as
 * heard on two speakers (+3.01 LU), as the engine does.
 */
export async function ffmpegEbur128(path: string, dualMono = false): Promise<MeterReading> {
  const filter = `ebur128=peak=true:metadata=1${dualMono ? ':dualmono=true' : ''},ametadata=mode=print:file=-`;
  const r = await runTool(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', path, '-map', '0:a:0', '-af', filter, '-f', 'null', '-'], { timeoutMs: TIMEOUT_MS, maxBuffer: 512 * 1024 * 1024 });
  if (r.exitCode !== 0) throw new Error(`ffmpeg ebur128 failed on ${path}: ${r.stderr.trim().split('\n').pop()}`);
  let integrated = NaN;
  let range = NaN;
  let peak = 0;
  for (const line of r.stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (!line.startsWith('lavfi.r128.') || eq < 0) continue;
    const key = line.slice('lavfi.r128.'.length, eq);
    const value = Number(line.slice(eq + 1));
    if (key === 'I') integrated = value;
    else if (key === 'LRA') range = value;
    else if (key.startsWith('true_peaks_ch')) peak = Math.max(peak, value);
  }
  return { integratedLufs: finite(integrated), loudnessRangeLu: finite(range), truePeakDbtp: finite(toDb(peak)) };
}

/** loudgain's tab-separated report (-O): loudness, range, true peak. A mono file is reported as mono (see `dualMono`). */
export async function loudgainReading(binary: string, path: string, mono: boolean): Promise<MeterReading> {
  const r = await runTool(binary, ['-q', '-O', path], { timeoutMs: TIMEOUT_MS });
  const row = r.stdout.trim().split('\n').find((l) => l.startsWith(path));
  if (r.exitCode !== 0 || !row) throw new Error(`loudgain failed on ${path}: ${(r.stderr || r.stdout).trim().split('\n').pop()}`);
  const cells = row.slice(path.length + 1).split('\t');
  const num = (cell: string | undefined) => finite(Number.parseFloat(cell ?? ''));
  const integrated = num(cells[0]);
  // libebur128 in loudgain measures a mono file as one channel; the engine (and BS.1770 practice) measures dual-mono.
  return { integratedLufs: integrated === null ? null : mono ? integrated + 10 * Math.log10(2) : integrated, loudnessRangeLu: num(cells[1]), truePeakDbtp: num(cells[3]) };
}
