// Media ingress for the local door: a file on disk, inline base64 / data URL (size-capped, decoded to a temp file that is
// always deleted), or a platform URL through yt-dlp when it is installed. Temp paths never appear in responses.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import type { MediaIngress } from '../schemas/job.js';

export const MediaInputSchema = z.object({
  file_path: z.string().min(1).optional().describe('Path of a media file on this machine (absolute, or relative to the server working directory).'),
  media_base64: z.string().optional().describe('Inline media, base64. Needs media_content_type or media_kind.'),
  media_content_type: z.string().optional().describe('MIME type of media_base64, e.g. video/mp4, audio/wav, image/png.'),
  media_kind: z.enum(['video', 'audio', 'image']).optional().describe('Kind of media_base64 when its MIME type is unknown.'),
  video_base64: z.string().optional().describe('Inline video, base64 (small files only; default type video/mp4).'),
  video_content_type: z.string().optional().describe('MIME type of video_base64; default video/mp4.'),
  audio_base64: z.string().optional().describe('Inline audio, base64 (small files only; default type audio/wav).'),
  audio_content_type: z.string().optional().describe('MIME type of audio_base64; default audio/wav.'),
  data_url: z.string().optional().describe('data:<type>;base64,<data> inline media.'),
  filename: z.string().optional().describe('Name for inline media (used for its extension).'),
  platform_video_url: z.string().optional().describe('A video platform URL; fetched with yt-dlp when it is installed.'),
  upload_id: z.string().optional().describe('An upload reserved with qc_create_upload_url (POST /v1/uploads) whose bytes were PUT to its signed URL.'),
  signed_url: z.string().optional().describe('HTTPS URL of the media (e.g. a pre-signed storage URL), fetched with size and time caps; never shown back.'),
});
export type MediaInput = z.infer<typeof MediaInputSchema>;

export interface ResolvedMedia {
  path: string;
  ingress: Omit<MediaIngress, 'sha256'>;
  /** The bytes' hash when it is already known (a stored upload). */
  sha256?: string | null;
  /** Deletes temporary copies; safe to call twice. */
  cleanup(): void;
}

export interface MediaIngressOptions {
  inlineMaxBytes: number;
  signal?: AbortSignal;
  /** Cap for platform downloads. */
  platformMaxBytes?: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.mkv': 'video/x-matroska', '.webm': 'video/webm',
  '.avi': 'video/x-msvideo', '.mxf': 'application/mxf', '.ts': 'video/mp2t', '.wav': 'audio/wav', '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4', '.aac': 'audio/aac', '.flac': 'audio/flac', '.ogg': 'audio/ogg', '.opus': 'audio/opus',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif',
};
const EXTENSIONS: Record<string, string> = Object.fromEntries(Object.entries(CONTENT_TYPES).map(([ext, type]) => [type, ext]).reverse());
const KIND_EXTENSION = { video: '.mp4', audio: '.wav', image: '.png' } as const;

export function contentTypeFor(path: string): string | null {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? null;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodedSize(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
}

function sourcesGiven(input: MediaInput): string[] {
  const fields = ['file_path', 'media_base64', 'video_base64', 'audio_base64', 'data_url', 'platform_video_url', 'upload_id', 'signed_url'] as const;
  return fields.filter((f) => input[f] !== undefined && input[f] !== '');
}

function localFile(pathIn: string): ResolvedMedia {
  const path = isAbsolute(pathIn) ? pathIn : resolve(pathIn);
  if (!existsSync(path)) {
    const hint = isAbsolute(pathIn) ? '' : ` (relative paths resolve against the server's working directory ${process.cwd()}; pass an absolute path)`;
    throw new ServiceError('file_not_found', `No file at ${path}${hint}.`, { field: 'file_path' }, 404);
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw new ServiceError('not_a_file', `${path} is not a regular file.`, { field: 'file_path' }, 400);
  return {
    path,
    ingress: { mode: 'local_or_remote_source', contentType: contentTypeFor(path), bytes: stat.size, ephemeral: false, storageMode: 'durable_filesystem' },
    cleanup: () => {},
  };
}

function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-ingress-'));
  let done = false;
  return {
    dir,
    cleanup: () => {
      if (done) return;
      done = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function safeName(filename: string | undefined, contentType: string | null, kind: MediaInput['media_kind']): string {
  const fromName = filename ? basename(filename).replace(/[^A-Za-z0-9._-]/g, '_').slice(-100) : '';
  if (fromName && extname(fromName)) return fromName;
  const ext = (contentType && EXTENSIONS[contentType.toLowerCase()]) || (kind ? KIND_EXTENSION[kind] : '') || '.bin';
  return `${fromName || 'media'}${ext}`;
}

function inline(field: string, b64: string, contentType: string | null, input: MediaInput, opts: MediaIngressOptions): ResolvedMedia {
  const clean = b64.replace(/\s+/g, '');
  if (!clean || !BASE64.test(clean)) throw new ServiceError('invalid_inline_media', `${field} is not valid base64.`, { field }, 400);
  const size = decodedSize(clean);
  if (size > opts.inlineMaxBytes) {
    throw new ServiceError(
      'inline_media_too_large',
      `${field} decodes to about ${(size / 1e6).toFixed(1)} MB, over the ${(opts.inlineMaxBytes / 1e6).toFixed(1)} MB inline limit. Pass file_path (local) or use an upload instead.`,
      { field, bytes: size, maxBytes: opts.inlineMaxBytes },
      413,
    );
  }
  const bytes = Buffer.from(clean, 'base64');
  const tmp = tempDir();
  const path = join(tmp.dir, safeName(input.filename, contentType, input.media_kind));
  try {
    writeFileSync(path, bytes, { mode: 0o600 });
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
  return {
    path,
    ingress: { mode: 'inline_ephemeral', contentType, bytes: bytes.length, ephemeral: true, storageMode: 'host_temp_storage' },
    cleanup: tmp.cleanup,
  };
}

function dataUrl(url: string, input: MediaInput, opts: MediaIngressOptions): ResolvedMedia {
  const m = /^data:([^;,]*)(;[^,]*)?,(.*)$/s.exec(url);
  if (!m || !(m[2] ?? '').includes(';base64')) {
    throw new ServiceError('invalid_inline_media', 'data_url must look like data:<content-type>;base64,<data>.', { field: 'data_url' }, 400);
  }
  return inline('data_url', m[3], m[1] || null, input, opts);
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

async function platformUrl(url: string, opts: MediaIngressOptions): Promise<ResolvedMedia> {
  if (!/^https?:\/\//i.test(url)) throw new ServiceError('invalid_platform_url', 'platform_video_url must be an http(s) URL.', { field: 'platform_video_url' }, 400);
  const ytdlp = onPath('yt-dlp');
  if (!ytdlp) {
    throw new ServiceError(
      'platform_ingest_unavailable',
      'platform_video_url needs yt-dlp, which is not installed on this machine. Install yt-dlp, or download the video and pass file_path.',
      { field: 'platform_video_url' },
      501,
    );
  }
  const tmp = tempDir();
  const maxBytes = opts.platformMaxBytes ?? 4 * 1024 ** 3;
  const result = await execa(
    ytdlp,
    ['--no-playlist', '--quiet', '--no-progress', '--max-filesize', String(maxBytes), '-f', 'best[height<=1080]/best', '-o', join(tmp.dir, 'media.%(ext)s'), url],
    { stdin: 'ignore', reject: false, timeout: 15 * 60_000, cancelSignal: opts.signal, forceKillAfterDelay: 2000 },
  );
  const file = readdirSync(tmp.dir).find((f) => f.startsWith('media.') && !f.endsWith('.part'));
  if (result.exitCode !== 0 || !file) {
    tmp.cleanup();
    const why = String(result.stderr ?? '').trim().split('\n').pop() ?? '';
    throw new ServiceError('platform_ingest_failed', `yt-dlp could not fetch the video${why ? `: ${why}` : ''}.`, { field: 'platform_video_url' }, 502);
  }
  const path = join(tmp.dir, file);
  return {
    path,
    ingress: { mode: 'platform_url', contentType: contentTypeFor(path), bytes: statSync(path).size, ephemeral: true, storageMode: 'host_temp_storage' },
    cleanup: tmp.cleanup,
  };
}

/** Resolves exactly one media source to a file on disk. */
export async function resolveMedia(input: MediaInput, opts: MediaIngressOptions): Promise<ResolvedMedia> {
  const given = sourcesGiven(input);
  if (given.length === 0) {
    throw new ServiceError('missing_media', 'Give one media source: file_path, media_base64, video_base64, audio_base64, data_url or platform_video_url.', {}, 400);
  }
  if (given.length > 1) throw new ServiceError('ambiguous_media', `Give one media source, not ${given.join(' and ')}.`, { fields: given }, 400);
  const field = given[0];
  switch (field) {
    case 'file_path':
      return localFile(input.file_path!);
    case 'media_base64':
      if (!input.media_content_type && !input.media_kind) {
        throw new ServiceError('invalid_inline_media', 'media_base64 needs media_content_type or media_kind.', { field }, 400);
      }
      return inline(field, input.media_base64!, input.media_content_type ?? null, input, opts);
    case 'video_base64':
      return inline(field, input.video_base64!, input.video_content_type ?? 'video/mp4', input, opts);
    case 'audio_base64':
      return inline(field, input.audio_base64!, input.audio_content_type ?? 'audio/wav', input, opts);
    case 'data_url':
      return dataUrl(input.data_url!, input, opts);
    case 'platform_video_url':
      return platformUrl(input.platform_video_url!, opts);
    default:
      // upload_id and signed_url are resolved by the service (uploads and remote ingress) before this.
      throw new ServiceError(
        'remote_ingress_unavailable',
        `${field} needs remote ingress, which this build does not include yet. Pass file_path, inline media or an upload_id.`,
        { field },
        501,
      );
  }
}

export const newId = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;
