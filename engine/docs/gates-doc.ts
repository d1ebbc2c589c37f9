// Renders docs/gates.md from the data the engine runs on: the gate catalogue, the profiles and every threshold
// with its source. The committed file is checked against this output by test/gates-doc.test.ts.
import { GATES } from '../gates/index.js';
import { OCR_LONG_SIDE, OCR_STILL_LONG_SIDE, OCR_STREAM_FPS } from '../ocr/sampler.js';
import { ocrEngineDescription } from '../ocr/engine.js';
import { LINE_MIN_CONFIDENCE, MIN_TEXT_HEIGHT_PX, STILL_LINE_MIN_CONFIDENCE, WORD_MIN_CONFIDENCE } from '../ocr/words.js';
import {
  DELIVERY_PROFILES,
  DELIVERY_PROFILE_IDS,
  PIPELINE_PROFILES,
  PIPELINE_PROFILE_IDS,
  PROFILES_VERSION,
  PROFILE_ALIASES,
  REQUEST_PROFILES,
  TECHNICAL_GATES,
  needsLegalLevels,
  type DeliveryProfileId,
} from '../profiles/index.js';
import type { GateArea, GateDefinition, GateThresholds, ThresholdValue } from '../types.js';

export const GATES_DOC_PATH = 'docs/gates.md';

const AREA_TITLES: Record<GateArea, string> = {
  visual: 'Visual',
  audio: 'Audio',
  text: 'Text and captions',
  structure: 'Structure and pacing',
  transcript: 'Transcript',
};

/** Kept in words here; test/gates-doc.test.ts checks it against inferPipelineProfile. */
const AUTO_RULE =
  '`auto` infers the pipeline profile from the media: an image → `creator_thumbnail`; audio → `npo_podcast_or_audio`; ' +
  'video whose display is square or taller and at most 180 s long → `nto_shorts`; any other video → `generic_creator_video`.';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string): string => `\`${text}\``;

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

function formatValue(value: ThresholdValue['value']): string {
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

function intro(): string[] {
  return [
    '# Gates and thresholds',
    '',
    `<!-- Generated from the engine's data by engine/docs/gates-doc.ts. Do not edit by hand: run \`UPDATE_DOCS=1 npx vitest run test/gates-doc.test.ts\`. -->`,
    '',
    'Our thresholds are public. This page lists every gate Preflight knows, what it measures in words, and every threshold it applies ' +
      'under each delivery profile, with the source of the number and how sure we are of that source. It is generated from the same ' +
      'tables the engine reads, so it cannot drift from what a check does.',
    '',
    `Profiles version: ${code(PROFILES_VERSION)}.`,
    '',
    'Confidence of a threshold: **primary**, read in the standard or the platform’s own page; **secondary**, quoted by a third party; ' +
      '**unconfirmed**, reported but not verified; **house**, a Preflight rule or reading where no authority gives a number. ' +
      'A value that mixes a documented number with a house addition carries the weaker confidence.',
    '',
  ];
}

function verdicts(): string[] {
  return [
    '## Verdicts',
    '',
    'Each gate returns a status (`pass`, `watch`, `block`, `skipped`, `error` or `unmeasured`: it ran but the content held nothing it could measure, with the reason), its measurements and zero or more timestamped flags. ' +
      'Every flag is **BLOCK** or **WATCH** and carries its evidence (measured value, threshold, source) and a repair.',
    '',
    '- **BLOCK**: not ready to publish or deliver; the flag says what to fix.',
    '- **WATCH**: upload-ready, but look at it: a deviation a platform tolerates, or something a person should judge.',
    '- **PASS**: no flags.',
    '',
    'The verdict of a check: BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS. Receipts carry PASS or BLOCK only: ' +
      'a WATCH verdict is upload-ready and is receipted as PASS.',
    '',
    'A gate whose input is missing reports `skipped` with the reason, never a pass. A gate whose ffmpeg filter is ' +
      'missing, or that fails, reports `error`. An unknown gate name in `checks` is a validation error.',
    '',
  ];
}

function textInThePicture(): string[] {
  return [
    '## Text in the picture',
    '',
    `The text gates read the picture with offline OCR (${ocrEngineDescription()}; the model is loaded from the installed package, never fetched). ` +
      `The single decode pass also feeds a ${OCR_STREAM_FPS} fps RGB stream scaled to at most ${OCR_LONG_SIDE} px (${OCR_STILL_LONG_SIDE} px for still images). ` +
      `Samples are read at a fixed rate, one a second, widening so that a programme gets at most 60 + duration/4 of them (one every 3 s for 10 minutes), so a long programme is sampled to its end, ` +
      'plus at most one extra sample per interval where the picture changed since the last one (3 % of 32×18 blocks moved by more than 24 levels).',
    '',
    'On video a sample reads only what changed since it was read: the picture is cut into 16×16 px cells, and a cell whose luma moved by more than 2 levels on average since the last reading of it has changed (a slow fade adds up until it is read). ' +
      'Touching changed cells become a region, grown by 4 cells sideways and 3 up and down; regions where no line was read are read as crops and the lines elsewhere are kept from the sample before. ' +
      'A region near a line already read is read as a band as wide as the picture instead (a crop reads a line it cuts, or one with a pointer beside it, differently): the band holds the changed cells and every known line they touch, whole, with 3 cells above and below; what it reads on the changed cells replaces the lines there, and every other line is kept. Regions and bands covering more than half the picture (a cut, a pan, a fade) make the whole picture read; when nothing changed, nothing is read. ' +
      'The same goes for confirming and dating: a kept line that was confirmed before is confirmed again where its pixels are the same on the next frame, and a new line whose pixels are the same on the frame before was on screen there. So OCR work follows the text on screen, not the clock.',
    '',
    'Each sample is read in two steps: a text detector (PP-OCRv4 DB) finds the text lines of the colour picture, and a recogniser reads only the lines found (greedy CTC decoding over Latin letters, digits and punctuation), so a picture without text costs one detection pass. ' +
      'For the ink of each word (its tight box and contrast) the sample also becomes a polarity-free picture: the distance of every pixel from the local background (the median of 9×9 block medians; on video also the flat regions nearby, such as a caption\'s backing box).',
    '',
    `A word counts only when the recogniser is at least ${WORD_MIN_CONFIDENCE} % sure of its letters (their mean probability), it has two or more letters or digits, its box is at least ${MIN_TEXT_HEIGHT_PX} px tall, ` +
      'its width per character is that of set type and its letters are in one plausible case pattern; a line needs three letters or digits and an average confidence of ' +
      `${LINE_MIN_CONFIDENCE} % (${STILL_LINE_MIN_CONFIDENCE} % for a still image). On video a line counts only when the next frame of the stream, half a second later, reads it again in the same place: ` +
      'text persists, texture does not. Confirmed readings of the same words in the same place become one line with its time span, box and contrast; a reading that differs by a letter or two joins it only when one of the two was misread (its confirming frame read it differently), so captions that change in place stay apart. A line the previous sample read and confirmed counts without a second reading (it persisted, and ended before the confirming frame), and a line the previous sample did not show is looked for on the stream frame before the sample that first read it, so a line\'s start and end are known to within half a second rather than a whole sample interval. ' +
      'The measurements of every text gate report what was read: samples, change samples, whole and region reads, unchanged samples, kept lines, confirmations, start searches, unconfirmed lines and OCR timeouts.',
    '',
  ];
}

function profilesUsing(gateId: string): string[] {
  return PIPELINE_PROFILE_IDS.filter((id) => PIPELINE_PROFILES[id].gates.includes(gateId));
}

function catalogue(): string[] {
  const rows = GATES.map((g) => [code(g.id), AREA_TITLES[g.area], g.input, g.requires.kinds.join(', '), g.title]);
  return ['## Gate catalogue', '', ...table(['Gate', 'Area', 'Input', 'Media', 'What it checks'], rows), ''];
}

/** Delivery profiles grouped by identical thresholds, in delivery-profile order. */
function thresholdGroups(gate: GateDefinition): { deliveries: DeliveryProfileId[]; thresholds: GateThresholds }[] {
  const groups = new Map<string, { deliveries: DeliveryProfileId[]; thresholds: GateThresholds }>();
  for (const delivery of DELIVERY_PROFILE_IDS) {
    const thresholds = gate.thresholds(delivery);
    if (Object.keys(thresholds).length === 0) continue;
    const key = JSON.stringify(thresholds);
    const group = groups.get(key);
    if (group) group.deliveries.push(delivery);
    else groups.set(key, { deliveries: [delivery], thresholds });
  }
  return [...groups.values()];
}

function thresholdTables(gate: GateDefinition): string[] {
  const groups = thresholdGroups(gate);
  if (groups.length === 0) return ['No thresholds.', ''];
  return groups.flatMap(({ deliveries, thresholds }) => {
    const heading = deliveries.length === DELIVERY_PROFILE_IDS.length ? 'Every delivery profile' : deliveries.map(code).join(', ');
    const rows = Object.entries(thresholds).map(([key, t]) => [code(key), formatValue(t.value), t.unit ?? '', t.source, t.confidence]);
    return [`**Thresholds: ${heading}**`, '', ...table(['Key', 'Value', 'Unit', 'Source', 'Confidence'], rows), ''];
  });
}

function gateSection(g: GateDefinition): string[] {
  const usedBy = profilesUsing(g.id);
  const facts = [
    `Area: ${AREA_TITLES[g.area]}`,
    `input: ${g.input}`,
    `media: ${g.requires.kinds.join(', ')}`,
    usedBy.length ? `default in ${usedBy.map(code).join(', ')}` : 'runs when named in `checks`',
  ];
  return [`#### ${code(g.id)}: ${g.title}`, '', `${facts.join('; ')}.`, '', g.algorithm, '', ...thresholdTables(g)];
}

function gates(): string[] {
  const areas = Object.keys(AREA_TITLES) as GateArea[];
  return [
    '## Gates',
    '',
    ...areas.flatMap((area) => {
      const inArea = GATES.filter((g) => g.area === area);
      return inArea.length ? [`### ${AREA_TITLES[area]}`, '', ...inArea.flatMap(gateSection)] : [];
    }),
  ];
}

function requestProfileTarget(name: string): string {
  if (name === 'auto') return 'inferred from the media (below)';
  if (name in PROFILE_ALIASES) return `${code(PROFILE_ALIASES[name])} (alias)`;
  return code(name);
}

function profiles(): string[] {
  const requestRows = REQUEST_PROFILES.map((name) => [code(name), requestProfileTarget(name)]);
  const pipelineRows = PIPELINE_PROFILE_IDS.map((id) => {
    const p = PIPELINE_PROFILES[id];
    return [code(id), p.label, code(p.deliveryProfile), p.gates.map(code).join(', '), p.description];
  });
  const deliveryRows = DELIVERY_PROFILE_IDS.map((id) => [code(id), DELIVERY_PROFILES[id].label, DELIVERY_PROFILES[id].description, needsLegalLevels(id) ? 'yes' : 'no']);
  return [
    '## Profiles',
    '',
    'A request names a request profile (or an alias, a pipeline profile id, or a delivery profile id). It resolves to a pipeline ' +
      'profile, which chooses the default gates, and to a delivery profile, whose technical targets the gates apply and which receipts ' +
      'name. A delivery profile id keeps the pipeline profile inferred for the media and checks against that delivery profile. ' +
      'A full check also runs any gate its delivery profile requires of the media that the pipeline profile lacks ([receipts.md](receipts.md#which-gates-a-profile-requires)). ' +
      'Explicit `checks` replace the default gates: a repair step, which gets no receipt.',
    '',
    '### Request profiles',
    '',
    ...table(['Request profile', 'Resolves to'], requestRows),
    '',
    AUTO_RULE,
    '',
    '### Pipeline profiles',
    '',
    `Every video profile runs the technical gates its media allows (${TECHNICAL_GATES.map(code).join(', ')}) plus its own.`,
    '',
    ...table(['Pipeline profile', 'Label', 'Delivery profile', 'Default gates', 'Description'], pipelineRows),
    '',
    '### Delivery profiles',
    '',
    ...table(['Delivery profile', 'Label', 'Targets', 'R 103 legal levels measured'], deliveryRows),
    '',
  ];
}

export function renderGatesDoc(): string {
  const lines = [...intro(), ...verdicts(), ...profiles(), ...catalogue(), ...textInThePicture(), ...gates()];
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
