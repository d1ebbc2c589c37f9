// The technical delivery targets format_spec checks, per delivery profile, with sources. A value's confidence is
// that of its weakest part: a list mixing a platform's recommendation with a house addition is 'house'. Web platforms
// re-encode every upload, so a deviation there is WATCH; broadcast delivery specs are contractual, so a deviation is
// BLOCK (`deviationSeverity`).
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { GateThresholds, ThresholdValue } from '../../types.js';
import { t } from '../../profiles/threshold-values.js';

const YOUTUBE_UPLOAD = 'YouTube Help "Recommended upload encoding settings" (support.google.com/youtube/answer/1722171)';
const META_REELS = 'Meta/Instagram Reels publishing specs as quoted by help.circleboom.com';
const TIKTOK = 'TikTok upload specs as quoted by changethisfile.com, teleguide.net (no official TikTok page read)';
const APPLE_PODCASTS = 'Apple Podcasts "Audio requirements" (podcasters.apple.com/support/893-audio-requirements)';

const BROADCAST_HOUSE_FORMATS =
  'typical broadcaster delivery specs: DPP AS-11 UK (tvtechnology.com), MediaBank ULS play-out house format (MXF OP1a, XDCAM HD422, PCM 48 kHz 24 bit)';

const R103 = 'EBU R 103 v3.0 (2020): R′G′B′ within −5 %..105 %, 8-bit 5..246 (ebu.io/qc/items/0051B)';
const YOUTUBE_THUMBNAILS = 'YouTube Help "Add video thumbnails" as quoted by simonwebdesign.com, devaul.net';
const COMMON_AUDIO_CONTAINERS = ['m4a', 'mp3', 'aac', 'wav', 'flac'];
const WEB_PIXEL_FORMATS = ['yuv420p', 'yuvj420p'];

function imageRules(): GateThresholds {
  return {
    imageFormats: t(['jpeg', 'png', 'gif', 'bmp', 'webp'], 'image format', `${YOUTUBE_THUMBNAILS}: JPG, GIF, BMP, PNG; WebP per later guides`, 'secondary'),
    imageMinWidthPx: t(640, 'px', `${YOUTUBE_THUMBNAILS}: minimum width 640 px (smaller thumbnails are rejected)`, 'secondary'),
    imageRecommendedSize: t('1280x720', 'px', `${YOUTUBE_THUMBNAILS}: 1280×720 recommended`, 'secondary'),
    imageMaxBytes: t(2_000_000, 'bytes', `${YOUTUBE_THUMBNAILS}: under the 2 MB limit (read as 2,000,000 bytes to be safe)`, 'secondary'),
  };
}

function videoSite(source: 'youtube' | 'ai_render'): GateThresholds {
  const house = source === 'ai_render';
  const pick = (platformConfidence: ThresholdValue['confidence']): ThresholdValue['confidence'] => (house ? 'house' : platformConfidence);
  const via = house ? `Preflight house rule: a generated render must be ready for a video site (${YOUTUBE_UPLOAD})` : YOUTUBE_UPLOAD;
  return {
    deviationSeverity: t('WATCH', 'severity', 'Preflight house rule: video sites accept and re-encode most files, so a deviation costs quality, not acceptance', 'house'),
    conformEncoder: t('web', 'encoder family', 'Preflight house rule: the repair command re-encodes for upload: H.264 High 4:2:0 in MP4, AAC', 'house'),
    containers: t(['mp4', 'mov'], 'container', `${via}: MP4 recommended; MOV is a supported upload format (YouTube supported file formats)`, pick('secondary')),
    audioContainers: t(COMMON_AUDIO_CONTAINERS, 'container', 'Preflight house rule for audio-only files', 'house'),
    videoCodecs: t(['h264', 'hevc', 'vp9', 'av1'], 'codec', `${via}: H.264 recommended; HEVC, VP9, AV1 are supported uploads`, pick('secondary')),
    pixelFormats: t(WEB_PIXEL_FORMATS, 'pix_fmt', `${via}: chroma subsampling 4:2:0; 8-bit SDR is the house baseline`, 'house'),
    hdrAllowed: t(false, 'allowed', 'Preflight house rule: HDR (PQ/HLG) uploads are accepted, but SDR viewers get the platform’s tone-map', 'house'),
    minShortSidePx: t(720, 'px', 'Preflight house rule: below 720 lines a video site serves it as SD', 'house'),
    recommendedShortSidePx: t(1080, 'px', `${via}: bitrate table from 1080p up (informational, not flagged)`, 'house'),
    minFps: t(23.976, 'fps', `${via}: common rates 24..60 fps, "other frame rates are also acceptable"; range is a house reading`, 'house'),
    maxFps: t(60, 'fps', `${via}: common rates 24..60 fps; higher rates are played back at most at 60`, 'house'),
    variableFrameRateAllowed: t(false, 'allowed', `${via}: encode at the recording frame rate (constant)`, 'house'),
    interlacedAllowed: t(false, 'allowed', `${via}: progressive scan, deinterlace before uploading`, pick('primary')),
    rotationMetadataAllowed: t(true, 'allowed', 'Preflight house rule: players honour the display matrix; judged on display size', 'house'),
    audioCodecs: t(['aac'], 'codec', `${via}: AAC-LC`, pick('primary')),
    sampleRatesHz: t([44100, 48000, 96000], 'Hz', `${via}: 48 or 96 kHz; 44.1 kHz added as universally accepted (house)`, 'house'),
    audioChannels: t([1, 2, 6], 'channels', `${via}: stereo or stereo + 5.1; mono added (house)`, 'house'),
    maxAudioStreams: t(1, 'streams', 'Preflight house rule: video sites play only the first audio track', 'house'),
    audioRequired: t(false, 'required', 'Preflight house rule: silent video is a valid upload', 'house'),
    ...imageRules(),
  };
}

function socialVertical(platform: 'meta' | 'tiktok'): GateThresholds {
  const src = platform === 'meta' ? META_REELS : TIKTOK;
  const conf: ThresholdValue['confidence'] = platform === 'meta' ? 'secondary' : 'unconfirmed';
  return {
    deviationSeverity: t('WATCH', 'severity', 'Preflight house rule: social apps re-encode uploads; a deviation costs quality, not acceptance', 'house'),
    conformEncoder: t('web', 'encoder family', 'Preflight house rule: the repair command re-encodes for upload: H.264 High 4:2:0 in MP4, AAC', 'house'),
    containers: t(['mp4', 'mov'], 'container', `${src}: MOV or MP4`, conf),
    audioContainers: t(COMMON_AUDIO_CONTAINERS, 'container', 'Preflight house rule for audio-only files', 'house'),
    videoCodecs: t(['h264', 'hevc'], 'codec', `${src}: H.264 or HEVC`, conf),
    pixelFormats: t(WEB_PIXEL_FORMATS, 'pix_fmt', `${src}: 4:2:0 chroma subsampling, BT.709`, conf),
    hdrAllowed: t(false, 'allowed', 'Instagram reportedly has no HDR/BT.2020 support (adcreate.com)', 'unconfirmed'),
    minShortSidePx: t(720, 'px', 'Instagram Reels and TikTok minimum 720×1280 (Instagram via gadinsider and socialsamosa; TikTok via changethisfile.com)', 'secondary'),
    recommendedShortSidePx: t(1080, 'px', '1080×1920 recommended by Shorts (YouTube via kapwing), Reels (via gadinsider) and TikTok (via unanswered.io)', 'secondary'),
    minFps: t(23, 'fps', `${src}: 23..60 fps`, conf),
    maxFps: t(60, 'fps', `${src}: 23..60 fps`, conf),
    variableFrameRateAllowed:
      platform === 'tiktok'
        ? t(false, 'allowed', `${TIKTOK}: constant frame rate strongly recommended`, 'unconfirmed')
        : t(false, 'allowed', 'Preflight house rule: apps re-time variable-rate uploads; deliver a constant frame rate', 'house'),
    interlacedAllowed: t(false, 'allowed', `${src}: progressive scan`, conf),
    rotationMetadataAllowed: t(true, 'allowed', 'Preflight house rule: apps honour the display matrix; judged on display size', 'house'),
    audioCodecs: t(['aac'], 'codec', `${src}: AAC`, conf),
    sampleRatesHz: t([44100, 48000], 'Hz', `${src}: 48 kHz maximum; 44.1 or 48 kHz`, conf),
    audioChannels: t([1, 2], 'channels', `${src}: mono or stereo`, conf),
    maxAudioStreams: t(1, 'streams', 'Preflight house rule: apps play only the first audio track', 'house'),
    audioRequired: t(false, 'required', 'Preflight house rule: silent video is a valid upload', 'house'),
    ...imageRules(),
  };
}

function podcast(): GateThresholds {
  return {
    ...videoSite('youtube'),
    conformEncoder: t('podcast', 'encoder family', 'Preflight house rule: the repair command re-encodes picture as for upload (H.264 in MP4) and sound to the first allowed podcast codec', 'house'),
    audioContainers: t(['mp3', 'm4a', 'wav', 'flac'], 'container', `${APPLE_PODCASTS}: Connect takes WAV, FLAC, MP3; RSS feeds MP3 or AAC (M4A)`, 'primary'),
    audioCodecs: t(['mp3', 'aac', 'pcm_s16le', 'pcm_s24le', 'flac'], 'codec', `${APPLE_PODCASTS}: MP3, AAC, PCM (WAV), FLAC`, 'primary'),
    sampleRatesHz: t([44100, 48000], 'Hz', `${APPLE_PODCASTS}: 44.1 or 48 kHz recommended`, 'primary'),
    audioChannels: t([1, 2], 'channels', `${APPLE_PODCASTS}: MP3 mono or stereo (WAV/FLAC must be stereo)`, 'primary'),
  };
}

function broadcast(): GateThresholds {
  return {
    deviationSeverity: t('BLOCK', 'severity', 'Preflight house rule: broadcast delivery specs are contractual; QC rejects deviations', 'house'),
    conformEncoder: t(
      'broadcast',
      'encoder family',
      "Preflight house rule: the repair command makes ffmpeg's broadcast mezzanine, ProRes 422 HQ in MOV with every audio stream; an MXF house format needs the broadcaster's encoder",
      'house',
    ),
    containers: t(['mxf', 'mov'], 'container', `${BROADCAST_HOUSE_FORMATS}; ProRes in MOV is accepted by many broadcasters (house). Check the broadcaster's own spec`, 'house'),
    audioContainers: t(['wav', 'mxf'], 'container', 'Broadcast Wave (EBU Tech 3285) or MXF; house reading', 'house'),
    videoCodecs: t(['mpeg2video', 'h264', 'prores', 'dnxhd'], 'codec', `${BROADCAST_HOUSE_FORMATS}: XDCAM HD422 (MPEG-2), AVC-Intra/XAVC (H.264); ProRes, DNxHD (house)`, 'house'),
    pixelFormats: t(['yuv422p', 'yuv422p10le'], 'pix_fmt', `${BROADCAST_HOUSE_FORMATS}: 4:2:2 component, 8 or 10 bit`, 'secondary'),
    hdrAllowed: t(false, 'allowed', 'Preflight house rule: HD broadcast is SDR BT.709; HDR (HLG/PQ) needs its own delivery spec', 'house'),
    frameSizes: t(['1920x1080', '1280x720', '3840x2160'], 'px', 'EBU HD/UHD production formats (1080, 720, 2160 lines); house reading', 'house'),
    minShortSidePx: t(720, 'px', 'HD broadcast: at least 720 lines (house reading)', 'house'),
    recommendedShortSidePx: t(1080, 'px', `${BROADCAST_HOUSE_FORMATS}: 1920×1080`, 'secondary'),
    frameRates: t([25, 50], 'fps', `${BROADCAST_HOUSE_FORMATS}: 1080i/25 (50 fields), 1080p/25, 720p/50, 1080p/50 in EBU countries`, 'secondary'),
    variableFrameRateAllowed: t(false, 'allowed', 'Preflight house rule: play-out needs a constant frame rate', 'house'),
    interlacedAllowed: t(true, 'allowed', `${BROADCAST_HOUSE_FORMATS}: 1080/50i top field first is a standard delivery`, 'secondary'),
    rotationMetadataAllowed: t(false, 'allowed', 'Preflight house rule: play-out ignores the display matrix; bake the rotation into the picture', 'house'),
    audioCodecs: t(['pcm_s24le', 'pcm_s16le', 'pcm_s24be', 'pcm_s16be'], 'codec', `${BROADCAST_HOUSE_FORMATS}: linear PCM, 24 bit`, 'secondary'),
    sampleRatesHz: t([48000], 'Hz', `${BROADCAST_HOUSE_FORMATS}: 48 kHz`, 'secondary'),
    audioChannels: t([2, 4, 6, 8, 16], 'channels', `${BROADCAST_HOUSE_FORMATS}: stereo, 5.1 or 8 discrete tracks; a mono stream counts as one track`, 'house'),
    maxAudioStreams: t(16, 'streams', 'Preflight house rule: up to 16 discrete audio tracks', 'house'),
    audioRequired: t(true, 'required', 'Preflight house rule: a broadcast programme carries audio', 'house'),
    legalLevelsLowPct: t(-5, '% of nominal', R103, 'primary'),
    legalLevelsHighPct: t(105, '% of nominal', R103, 'primary'),
    legalLevelsCodeRange8bit: t([5, 246], '8-bit code value', `${R103}; 10-bit 20..984`, 'primary'),
    legalLevelsAreaAllowancePct: t(1, '% of picture', 'EBU R 103 (tech.ebu.ch news 2016/06): excursions over up to 1 % of the picture area are allowed', 'primary'),
    ...imageRules(),
  };
}

const FORMAT_SPEC: Record<DeliveryProfileId, () => GateThresholds> = {
  video_site_shorts: () => videoSite('youtube'),
  video_site_longform: () => videoSite('youtube'),
  social_reels_ad: () => socialVertical('meta'),
  short_video_app_post: () => socialVertical('tiktok'),
  broadcast_r128: broadcast,
  podcast_delivery: podcast,
  ai_render_gate: () => videoSite('ai_render'),
};

export function formatSpecTargets(delivery: DeliveryProfileId): GateThresholds {
  return FORMAT_SPEC[delivery]();
}
