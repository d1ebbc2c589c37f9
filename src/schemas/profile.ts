// `profile` and `checks` as every door accepts them (MCP tools, REST bodies and OpenAPI): the names come from the
// engine's profile and gate catalogues, never a copy.
import { z } from 'zod';
import { GATE_IDS } from '../../engine/gates/index.js';
import { ACCEPTED_PROFILE_NAMES, AUTO_PROFILE_RULE, DELIVERY_PROFILE_IDS, PIPELINE_PROFILE_IDS, PROFILE_ALIASES } from '../../engine/profiles/index.js';

const aliases = Object.entries(PROFILE_ALIASES)
  .map(([alias, id]) => `${alias} (= ${id})`)
  .join(', ');

export const ProfileSchema = z
  .enum(ACCEPTED_PROFILE_NAMES as [string, ...string[]])
  .describe(
    `QC profile. auto (default) infers it from the media: ${AUTO_PROFILE_RULE}. ` +
      `Pipeline profiles: ${PIPELINE_PROFILE_IDS.join(', ')}; aliases: ${aliases}. ` +
      `Delivery profiles check against that delivery's targets (loudness, true peak, safe areas, format) with the gates auto picks: ${DELIVERY_PROFILE_IDS.join(', ')}.`,
  );

export const ChecksSchema = z
  .string()
  .describe(`Comma-separated gate names; replaces the profile's default gates (an unknown name is an error). Valid gates: ${GATE_IDS.join(', ')}.`);
