// Shared zod schemas of a receipt verification result: the REST public verifier and the MCP tool describe it from here.
import { z } from 'zod';
import { MEDIA_SHAPES } from '../../engine/delivery-requirements.js';
import { nullable } from './portable.js';

export const ReceiptCoverageSchema = z
  .object({
    profile: z.string(),
    media: nullable(z.enum(MEDIA_SHAPES), 'neither the file nor the gates tell').describe('The media the requirement was taken for: read from the file when the verifier had it, else judged from the gates.'),
    judgedFrom: z.enum(['file', 'gates']),
    required: z.array(z.string()).describe('Gates the profile requires of that media.'),
    missing: z.array(z.string()).describe('Required gates the receipt does not list.'),
    complete: z.boolean().describe('The receipt speaks for the whole profile. A receipt that does not is never publishable.'),
    reason: nullable(z.string(), 'the receipt covers the profile'),
  })
  .describe("The profile's required gates against the receipt's gates.");

export const SignatureChecksSchema = z.object({
  hmac: z.enum(['valid', 'invalid', 'not_checked']).describe("HMAC-SHA256 `signature` (needs the issuer's secret)."),
  ed25519: z.enum(['valid', 'invalid', 'unknown_key', 'absent', 'not_checked']).describe("Ed25519 `verify.ed25519` (needs the issuer's public keys)."),
});

export const ReceiptVerificationSchema = z.object({
  valid: z.boolean().describe('Checked, authentic, well-formed, known schema and, when sha256 was given, about that file.'),
  checked: z.boolean().describe('false: no key could check it; reason says what is needed. Never a verdict on the receipt.'),
  authentic: z.boolean(),
  schemaKnown: z.boolean(),
  hashMatches: z.boolean().nullable(),
  uploadReady: z.boolean().describe('valid, verdict PASS and the whole profile covered: the only condition to publish on.'),
  verdict: z.enum(['PASS', 'BLOCK']).optional(),
  reason: z.string().nullable(),
  signatures: SignatureChecksSchema,
  keyId: z.string().nullable(),
  coverage: ReceiptCoverageSchema.nullable(),
});
