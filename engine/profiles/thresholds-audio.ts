// Thresholds of the audio gates (loudness, clipping, dead_air, channel_balance) per delivery profile, with sources.
// Where a band (WATCH vs BLOCK) is our decision rather than a published number, `source` says why.
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { t, VERTICAL_DELIVERIES } from './threshold-values.js';

const R128 = 'EBU R 128 (2020, rev. 3) via EBU Tech 3343-2023 §5/§11';
const APPLE_PODCASTS = 'Apple Podcasts audio requirements (podcasters.apple.com/support/893-audio-requirements, as quoted by upliftorch.com)';
const PLATFORM_NOTE = 'YouTube, TikTok and Instagram publish no loudness number; ≈ −14 LUFS is derived from YouTube "Stats for nerds" and Spotify\'s documented −14 LUFS reference';

// ---------------------------------------------------------------- loudness

function broadcastLoudness(): GateThresholds {
  return {
    targetLufs: t(-23, 'LUFS', `${R128}: Programme Loudness −23.0 LUFS (BS.1770 gated integrated loudness)`, 'primary'),
    watchToleranceLu: t(0.2, 'LU', `${R128}: general tolerance ±0.2 LU (revision 3, 2020). Outside it and within ±1.0 LU the file passes only as a live programme, so WATCH`, 'primary'),
    blockBelowLufs: t(-24, 'LUFS', `${R128}: the ±1.0 LU tolerance for live programmes is the widest R 128 allows; quieter than −24.0 LUFS is BLOCK`, 'primary'),
    blockAboveLufs: t(-22, 'LUFS', `${R128}: louder than −22.0 LUFS is outside even the live tolerance, so BLOCK`, 'primary'),
    truePeakWatchDbtp: t(-1, 'dBTP', `${R128}: Maximum True-Peak −1 dBTP for production (linear PCM)`, 'primary'),
    truePeakBlockDbtp: t(-1, 'dBTP', `${R128}: a file over −1 dBTP fails delivery, so over the ceiling is BLOCK (MPEG-1 Layer II / AC-3 distribution needs −2 dBTP, Tech 3344)`, 'primary'),
    maxShortTermLufs: t(
      -18,
      'LUFS',
      'EBU R 128 s1 (short-form content: adverts, trailers, promos): Max Short-term Loudness ≤ −18.0 LUFS (+5 LU). WATCH rather than BLOCK because Preflight infers "short-form" from duration alone',
      'primary',
    ),
    shortFormMaxSeconds: t(120, 's', 'EBU R 128 s1: short-form content is usually under 60 s and at most 2 minutes; the max short-term rule applies up to this duration', 'primary'),
  };
}

function podcastLoudness(): GateThresholds {
  return {
    targetLufs: t(-16, 'LUFS', `${APPLE_PODCASTS}: −16 LKFS. A mono file is measured dual-mono, so −19 LUFS mono practice reads −16`, 'secondary'),
    watchToleranceLu: t(1, 'LU', `${APPLE_PODCASTS}: ±1 dB tolerance; outside it is WATCH`, 'secondary'),
    blockBelowLufs: t(
      -20,
      'LUFS',
      'AES TD1004.1.15-10 (2015): streaming/podcast range −16 … −20 LUFS (producenewmedia.com). Quieter than its floor is BLOCK: many podcast apps do not normalise, so listeners must turn up',
      'secondary',
    ),
    blockAboveLufs: t(-13, 'LUFS', 'Preflight house rule: 3 LU over the Apple target is a hot master that apps without normalisation play noticeably louder than other shows', 'house'),
    truePeakWatchDbtp: t(-1, 'dBTP', `${APPLE_PODCASTS}: true peak ≤ −1 dBFS`, 'secondary'),
    truePeakBlockDbtp: t(-1, 'dBTP', `${APPLE_PODCASTS}: true peak ≤ −1 dBFS; podcasts are delivered as lossy MP3/AAC, which clip overs, so over the ceiling is BLOCK`, 'secondary'),
    maxLoudnessRangeLu: t(
      15,
      'LU',
      'Preflight house rule: speech programmes usually measure 4–10 LU; above 15 LU quiet and loud voices force listeners to ride the volume. WATCH only, as EBU Tech 3343 §6 says LRA is no brick-wall parameter',
      'house',
    ),
  };
}

function platformLoudness(): GateThresholds {
  return {
    targetLufs: t(-14, 'LUFS', `Video sites and social apps: about −14 LUFS. ${PLATFORM_NOTE}`, 'unconfirmed'),
    watchToleranceLu: t(1, 'LU', 'Preflight house rule: ±1 LU around the unofficial platform reference; outside it is WATCH', 'house'),
    blockBelowLufs: t(
      -20,
      'LUFS',
      'Preflight house rule: platforms turn loud uploads down but do not turn quiet ones up (YouTube), so an upload 6 LU under the reference plays noticeably quiet. −20 LUFS is also the floor of the EBU R 128 s2 distribution range (Tech 3343 §9.2)',
      'house',
    ),
    blockAboveLufs: t(
      -9,
      'LUFS',
      'Preflight house rule: platforms normalise loud uploads down, so only an extreme master is BLOCK. −9 LUFS is where Amazon Alexa rejects audio (developer.amazon.com "Normalizing the Loudness of Audio Content")',
      'house',
    ),
    truePeakWatchDbtp: t(-1, 'dBTP', `Platform advice: true peak ≤ −1 dBTP so the platform's lossy transcode does not clip. ${PLATFORM_NOTE}`, 'unconfirmed'),
    truePeakBlockDbtp: t(
      0,
      'dBTP',
      'Preflight house rule: above 0 dBTP the reconstructed waveform exceeds full scale and clips in every lossy transcode and fixed-point playback; between −1 and 0 dBTP is WATCH since the platforms publish no ceiling',
      'house',
    ),
  };
}

function loudness(delivery: DeliveryProfileId): GateThresholds {
  if (delivery === 'broadcast_r128') return broadcastLoudness();
  if (delivery === 'podcast_delivery') return podcastLoudness();
  return platformLoudness();
}

// ---------------------------------------------------------------- clipping

const NETFLIX_CLIPPING = 'Netflix AudioClippingInspector (partnerhelp.netflixstudios.com article 228299408)';

function clipping(): GateThresholds {
  return {
    runLevelDbfs: t(-0.45, 'dBFS', `${NETFLIX_CLIPPING}, criterion 1: a run of equal samples at or above −0.45 dBFS is a clip`, 'primary'),
    minRunSamples: t(3, 'samples', 'Preflight house rule: a run is at least 3 equal consecutive samples; two equal samples occur naturally at the crest of loud low-frequency 16-bit audio', 'house'),
    clippedRunsWatch: t(1, 'runs', `${NETFLIX_CLIPPING}, criterion 1: one clipped run flags the asset; Preflight makes 1–9 runs WATCH (a few isolated flat tops are often inaudible)`, 'primary'),
    clippedRunsBlock: t(10, 'runs', `Preflight house rule using ${NETFLIX_CLIPPING} criterion 2's count: 10 or more clipped runs at ≥ −0.45 dBFS is audible clipping, BLOCK`, 'house'),
    fullScaleSharePct: t(0.01, '% of samples', `${NETFLIX_CLIPPING}, criterion 3: more than 0.01 % of samples at ±1.0 (full scale) is BLOCK`, 'primary'),
    loudestLevelRuns: t(
      10,
      'runs',
      `${NETFLIX_CLIPPING}, criterion 2: 10 or more distinct runs at the asset's loudest level. Below −0.45 dBFS this is audio clipped and then turned down: WATCH`,
      'primary',
    ),
    loudestAboveNextDb: t(1, 'dB', `${NETFLIX_CLIPPING}, criterion 4: loudest samples more than 1 dB above the rest (WATCH)`, 'primary'),
    loudestOverNextPct: t(25, '%', `${NETFLIX_CLIPPING}, criterion 5: 25 % or more samples at the loudest level than at the next quieter level (WATCH)`, 'primary'),
    minLoudestLevelSamples: t(10, 'samples', 'Preflight house rule: criterion 5 needs at least 10 samples at the loudest level, else two coincident peaks would trigger it', 'house'),
    levelCriteriaFloorDbfs: t(
      -30,
      'dBFS',
      'Preflight house rule: criteria 2, 4 and 5 are judged only when the loudest sample reaches −30 dBFS; below that, quantisation steps make sample-level statistics meaningless',
      'house',
    ),
  };
}

// ---------------------------------------------------------------- dead_air

function deadAir(delivery: DeliveryProfileId): GateThresholds {
  const podcast = delivery === 'podcast_delivery';
  const shortForm = VERTICAL_DELIVERIES.includes(delivery);
  const [watch, block] = podcast ? [3, 8] : shortForm ? [1.5, 3] : [2, 5];
  const why = podcast
    ? 'speech has natural pauses of 2–3 s; a podcast allows longer ones'
    : shortForm
      ? 'in a video of at most a few minutes a silent gap this long reads as a broken export'
      : 'a gap this long reads as missing audio';
  return {
    silenceThresholdDbfs: t(-60, 'dBFS', 'ffmpeg silencedetect default noise level n = −60 dB; applied to the RMS of the loudest channel over 10 ms', 'primary'),
    interiorWatchSeconds: t(watch, 's', `Preflight house rule (ffmpeg silencedetect's default minimum is 2 s): ${why}; WATCH`, 'house'),
    interiorBlockSeconds: t(block, 's', `Preflight house rule: interior silence this long is dead air, BLOCK`, 'house'),
    headTailAllowanceSeconds: t(
      podcast ? 2 : 1,
      's',
      podcast ? 'Preflight house rule: up to 2 s of silence before the first and after the last sound is normal for a podcast' : 'Preflight house rule, as for black picture: up to 1 s of silence at head and tail is normal',
      'house',
    ),
  };
}

// ---------------------------------------------------------------- channel_balance

function channelBalance(): GateThresholds {
  return {
    imbalanceWatchDb: t(3, 'dB', 'Preflight house rule: programme RMS of the first two channels differs by 3 dB or more, WATCH (a pan or gain error is audible)', 'house'),
    imbalanceBlockDb: t(6, 'dB', 'Preflight house rule: 6 dB or more is a one-sided mix, BLOCK', 'house'),
    deadChannelBelowLoudestDb: t(
      40,
      'dB',
      'Preflight house rule: a channel 40 dB or more below the loudest over the programme is dead: BLOCK for the first two channels, WATCH for others (a quiet surround can be intended); LFE is ignored',
      'house',
    ),
    dropoutWatchSeconds: t(2, 's', 'Preflight house rule: a channel 40 dB below the loudest for 2 s or more while the programme is active is a dropout, WATCH', 'house'),
    activityFloorDbfs: t(-50, 'dBFS', 'Preflight house rule: 100 ms blocks and 1 s windows whose loudest channel is under −50 dBFS are too quiet to judge balance or phase', 'house'),
    phaseWindowCorrelationWatch: t(
      -0.3,
      'correlation',
      'Preflight house rule: Pearson correlation of L and R at or below −0.3 over a 1 s window means out-of-phase content that partly cancels in a mono fold-down, WATCH',
      'house',
    ),
    phaseSustainSeconds: t(1, 's', 'Preflight house rule: the negative correlation must last at least 1 s (one window)', 'house'),
    overallCorrelationBlock: t(
      -0.1,
      'correlation',
      'Preflight house rule: programme correlation below −0.1 means one channel is polarity-inverted or the mix collapses in mono (centred voice cancels), BLOCK. Not 0: fully decorrelated stereo measures 0 ± a few hundredths',
      'house',
    ),
    dcOffsetWatch: t(0.01, 'fraction of full scale', 'Preflight house rule: |DC offset| ≥ 0.01 (−40 dBFS) wastes headroom and clicks at edits, WATCH', 'house'),
  };
}

export function audioThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return { loudness: loudness(delivery), clipping: clipping(), dead_air: deadAir(delivery), channel_balance: channelBalance() };
}
