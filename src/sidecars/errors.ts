// The three errors sidecar ingestion throws, all ServiceErrors whose message starts with the field (and file) at fault.
import { ServiceError } from '../errors.js';
import { SidecarFormatError } from '../../engine/sidecars/formats/format-error.js';
import type { SidecarOrigin } from './origin.js';

export function invalidSidecar(origin: Pick<SidecarOrigin, 'kind' | 'label' | 'file'>, problem: string, details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('invalid_sidecar', `${origin.label}: ${problem}`, { sidecar: origin.kind, ...fileDetail(origin), ...details }, 400);
}

export function sidecarNotFound(origin: Pick<SidecarOrigin, 'kind' | 'label' | 'file'>, what = 'no such file'): ServiceError {
  return new ServiceError('sidecar_not_found', `${origin.label}: ${what}`, { sidecar: origin.kind, ...fileDetail(origin) }, 400);
}

export function sidecarTooLarge(origin: Pick<SidecarOrigin, 'kind' | 'label' | 'file'>, bytes: number | null, maxBytes: number): ServiceError {
  const size = bytes === null ? 'more than' : `${bytes} bytes is over`;
  return new ServiceError(
    'sidecar_too_large',
    `${origin.label}: ${size} the sidecar size limit of ${formatMegabytes(maxBytes)} (${maxBytes} bytes)`,
    { sidecar: origin.kind, ...fileDetail(origin), bytes, maxBytes },
    413,
  );
}

/** Runs a parser, turning a SidecarFormatError into invalid_sidecar with the origin and the location. */
export function withOrigin<T>(origin: SidecarOrigin, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SidecarFormatError) {
      const location = Object.fromEntries(Object.entries(error.location).filter(([, value]) => value !== undefined));
      throw invalidSidecar(origin, error.message, location);
    }
    throw error;
  }
}

function fileDetail(origin: Pick<SidecarOrigin, 'file'>): { file?: string } {
  return origin.file === undefined ? {} : { file: origin.file };
}

function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(2)} MB`;
}
