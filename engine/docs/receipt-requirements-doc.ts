// Renders the "which gates each delivery profile requires" section of docs/receipts.md from
// engine/delivery-requirements.ts; test/delivery-requirements.test.ts checks the committed file against it.
import {
  acceptsMedia,
  MEDIA_SHAPE_LABELS,
  MEDIA_SHAPES,
  profileRequirement,
  SIDECAR_LABELS,
  type SidecarName,
} from '../delivery-requirements.js';
import { DELIVERY_PROFILE_IDS } from '../profiles/index.js';

export const RECEIPTS_DOC_PATH = 'docs/receipts.md';
export const REQUIREMENTS_START = '<!-- receipt-requirements:start -->';
export const REQUIREMENTS_END = '<!-- receipt-requirements:end -->';

const code = (id: string): string => `\`${id}\``;

function sidecarCell(sidecarGates: { gate: string; needs: readonly SidecarName[] }[]): string {
  const byInput = new Map<string, string[]>();
  for (const { gate, needs } of sidecarGates) {
    const input = needs.map((n) => SIDECAR_LABELS[n]).join(' + ');
    byInput.set(input, [...(byInput.get(input) ?? []), code(gate)]);
  }
  return byInput.size ? [...byInput].map(([input, gates]) => `with a ${input}: ${gates.join(', ')}`).join('; ') : '—';
}

/** The generated section, markers included. */
export function renderReceiptRequirements(): string {
  const lines = [
    REQUIREMENTS_START,
    '<!-- Generated from engine/delivery-requirements.ts. Do not edit by hand: run `UPDATE_DOCS=1 npx vitest run test/delivery-requirements.test.ts`. -->',
    '',
  ];
  for (const profile of DELIVERY_PROFILE_IDS) {
    lines.push(`#### ${code(profile)}`, '', '| Media | Always required | Also required when the sidecar is given |', '|---|---|---|');
    for (const media of MEDIA_SHAPES) {
      if (!acceptsMedia(profile, media)) {
        lines.push(`| ${MEDIA_SHAPE_LABELS[media]} | no receipt: ${code(profile)} is for media with sound | — |`);
        continue;
      }
      const requirement = profileRequirement(profile, media);
      lines.push(`| ${MEDIA_SHAPE_LABELS[media]} | ${requirement.mediaGates.map(code).join(', ')} | ${sidecarCell(requirement.sidecarGates)} |`);
    }
    lines.push('');
  }
  lines.push(REQUIREMENTS_END);
  return lines.join('\n');
}

/** The document with its generated section replaced by the current one. */
export function withRequirements(document: string): string {
  const start = document.indexOf(REQUIREMENTS_START);
  const end = document.indexOf(REQUIREMENTS_END);
  if (start < 0 || end < start) throw new Error(`${RECEIPTS_DOC_PATH} has no ${REQUIREMENTS_START} … ${REQUIREMENTS_END} section`);
  return document.slice(0, start) + renderReceiptRequirements() + document.slice(end + REQUIREMENTS_END.length);
}
