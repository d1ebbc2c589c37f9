// Every error code the service and the engine raise, with the HTTP status it is answered with: declared once here,
// read by ServiceError, by the REST door for engine errors, and listed in docs/api.md "Error codes" (a test holds the
// two together). 400 is for input the caller can correct; the server's own state answers 5xx.
import { EngineError } from '../engine/errors.js';

const CODES_BY_STATUS = {
  400: [
    'invalid_input', 'invalid_json', 'signing_key_invalid', 'local_paths_not_accepted', 'missing_media', 'ambiguous_media',
    'async_inline_unsupported', 'async_sidecars_unsupported', 'invalid_inline_media', 'invalid_platform_url', 'invalid_checks', 'invalid_profile',
    'invalid_plan', 'invalid_sidecar', 'sidecar_not_found', 'sidecar_dir_unsupported', 'empty_body', 'callback_secret_required',
    'webhook_url_refused', 'remote_url_invalid', 'remote_url_insecure', 'remote_url_forbidden', 'invalid_webhook_payload',
    'invalid_provisioning', 'invalid_estimate_input', 'invalid_public_keys', 'file_unreadable', 'not_a_file', 'unsupported_media',
    'receipt_invalid', 'receipt_inconsistent', 'receipt_key_invalid', 'receipt_keys_invalid', 'receipt_keys_busy',
  ],
  401: ['unauthorized', 'invalid_signature'],
  403: ['insufficient_scope', 'scope_not_grantable'],
  404: ['not_found', 'job_not_found', 'upload_not_found', 'artifact_not_found', 'api_key_not_found', 'webhook_not_found', 'delivery_not_found', 'file_not_found'],
  409: [
    'job_not_completed', 'job_not_finished', 'job_failed', 'upload_not_uploaded', 'upload_already_stored', 'last_operator_key',
    'provisioning_conflict', 'idempotency_conflict', 'webhook_limit_reached', 'delivery_already_sent', 'delivery_in_flight',
    'receipt_incomplete_check', 'data_dir_locked',
  ],
  410: ['upload_expired'],
  413: [
    'body_too_large', 'upload_too_large', 'duration_limit_exceeded', 'upload_size_limit_exceeded', 'inline_media_too_large',
    'sidecar_too_large', 'remote_too_large',
  ],
  422: ['cost_guardrail_blocked', 'remote_not_utf8'],
  429: ['active_jobs_limit_exceeded', 'usage_limit_exceeded'],
  /** The caller went away (the request or tool call was cancelled): nginx's "client closed request". */
  499: ['cancelled'],
  500: ['internal_error'],
  501: ['platform_ingest_unavailable', 'callback_unavailable', 'remote_ingress_unavailable'],
  502: ['remote_fetch_failed', 'remote_too_many_redirects', 'remote_redirect', 'remote_error', 'platform_ingest_failed', 'issuer_keys_unavailable'],
  503: [
    'checkout_webhook_unconfigured', 'service_closed', 'uploads_unavailable', 'store_write_failed', 'store_unavailable', 'ffmpeg_unavailable', 'ocr_unavailable', 'signing_key_missing',
    'remote_unreachable', 'no_auth_configured', 'invalid_operator_key', 'invalid_smtp_url', 'store_damaged', 'store_missing',
  ],
  504: ['remote_timeout', 'timeout'],
} as const satisfies Record<number, readonly string[]>;

export type ErrorCode = (typeof CODES_BY_STATUS)[keyof typeof CODES_BY_STATUS][number];

export const ERROR_STATUS: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_STATUS).flatMap(([status, codes]) => codes.map((code): [string, number] => [code, Number(status)])),
);

/** The status of a code; a code missing from the table is a programming error, answered as bad input. */
export function statusOfCode(code: string): number {
  return ERROR_STATUS.get(code) ?? 400;
}

/** A service failure with a stable code; the doors map it to an MCP error result or an HTTP status. */
export class ServiceError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly details: Record<string, unknown> = {},
    public readonly status = statusOfCode(code),
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The HTTP status of a service or engine failure. */
export function statusOf(err: ServiceError | EngineError): number {
  return err instanceof ServiceError ? err.status : statusOfCode(err.code);
}
