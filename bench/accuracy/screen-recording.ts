// A synthesised screen capture, as a real one looks: a terminal window over a wallpaper, commands typed a character
// at a time with a caret, output lines appearing at once, a mouse pointer that moves and rests, a voice over it.
// Between keystrokes almost nothing changes: the case loop_freeze must tell from a frozen picture.
import { BITEXACT, ffmpegPart } from './parts.js';
import { FPS, X264_PART, fontFile, master, mix, narration, photoMove, type Kit } from './recipes.js';
import type { TextLine } from './expectations.js';
import { LOSSY_CEILING, NATURAL_PAUSE, WEB_LUFS, roomTone } from './programmes.js';

const SECONDS = 10;
const W = 1280;
const H = 720;
/** The window: inset on the wallpaper, a title bar, a dark terminal body. */
const WIN = { x: 64, y: 48, w: 1152, h: 624, bar: 40 };
const BODY = '0x1e1e1e';
const INK = '0xd4d4d4';
const FONT_SIZE = 24;
/** Liberation Mono advances 1229/2048 em per character. */
const CHAR_W = (FONT_SIZE * 1229) / 2048;
const LINE_H = 34;
const X0 = 88;
const Y0 = 110;
const CPS = 12;
const PROMPT = '~/project $ ';

interface TermLine {
  /** When the line (or its prompt) appears. */
  at: number;
  text: string;
  /** A command typed after the prompt from this time. */
  typedFrom?: number;
}

const LINES: TermLine[] = [
  { at: 0, text: 'npm run build', typedFrom: 0.8 },
  { at: 2.4, text: 'compiled 42 files in 3.1 s' },
  { at: 2.9, text: 'build finished without errors' },
  { at: 3.2, text: 'npm test', typedFrom: 4.4 },
  { at: 5.9, text: '118 tests passed' },
  { at: 6.3, text: '', typedFrom: SECONDS },
];

const typedEnd = (l: TermLine) => (l.typedFrom ?? l.at) + l.text.length / CPS;
const fullText = (l: TermLine) => (l.typedFrom !== undefined ? `${PROMPT}${l.text}`.trimEnd() : l.text);

/** Ground truth for OCR: every line once it is complete. */
export const SCREEN_TEXT: TextLine[] = [
  { text: 'project - bash', style: 'screen', start: 0, end: SECONDS },
  ...LINES.map((l) => ({ text: fullText(l), style: 'screen' as const, start: Number(typedEnd(l).toFixed(2)), end: SECONDS })).filter((l) => l.start < SECONDS - 1),
];

/** Pointer waypoints (t, x, y): moves, rests, moves again. */
const POINTER: [number, number, number][] = [
  [0, 900, 500], [1.0, 900, 500], [1.8, 700, 300], [3.0, 700, 300], [3.8, 420, 560], [6.0, 420, 560], [7.0, 1000, 200], [8.5, 1000, 200], [9.3, 860, 420], [SECONDS, 860, 420],
];

function piecewise(points: [number, number][]): string {
  let expr = String(points[points.length - 1][1]);
  for (let i = points.length - 2; i >= 0; i--) {
    const [t0, v0] = points[i];
    const [t1, v1] = points[i + 1];
    expr = `if(lt(t,${t1}),${v0}+(${v1 - v0})*(t-${t0})/${Math.max(0.001, t1 - t0)},${expr})`;
  }
  return expr;
}

const typedChars = (l: TermLine) => `min(${l.text.length},max(0,floor((t-${l.typedFrom})*${CPS})))`;

function pictureGraph(kit: Kit): string {
  const mono = fontFile(kit, 'mono');
  const sans = fontFile(kit, 'sans');
  const steps: string[] = [
    `[0:v]drawbox=x=${WIN.x}:y=${WIN.y}:w=${WIN.w}:h=${WIN.bar}:c=0x323232:t=fill,drawbox=x=${WIN.x}:y=${WIN.y + WIN.bar}:w=${WIN.w}:h=${WIN.h - WIN.bar}:c=${BODY}:t=fill`,
    `drawtext=fontfile='${sans}':text='project - bash':fontsize=18:fontcolor=0xcccccc:x=${WIN.x}+(${WIN.w}-text_w)/2:y=${WIN.y + 11}`,
  ];
  LINES.forEach((l, i) => {
    const y = Y0 + i * LINE_H;
    const text = fullText(l);
    if (text) steps.push(`drawtext=fontfile='${mono}':text='${text}':expansion=none:fontsize=${FONT_SIZE}:fontcolor=${INK}:x=${X0}:y=${y}:enable='gte(t,${l.at})'`);
  });
  let graph = steps.join(',') + '[t0]';
  let last = 't0';
  let n = 0;
  // Untyped characters are covered by a box of the terminal's colour that moves right one character per keystroke.
  LINES.forEach((l, i) => {
    if (l.typedFrom === undefined || !l.text) return;
    const y = Y0 + i * LINE_H - 3;
    // One pixel left of the next character's advance: its stem may start on the rounded-down pixel.
    const x = `${X0 - 1}+${CHAR_W}*(${PROMPT.length}+${typedChars(l)})`;
    graph += `;color=c=${BODY}:s=${Math.ceil(CHAR_W * (l.text.length + 1))}x${LINE_H - 2}:r=${FPS}:d=${SECONDS}[cover${i}];[${last}][cover${i}]overlay=x='${x}':y=${y}:enable='lt(t,${typedEnd(l) + 0.1})'[t${++n}]`;
    last = `t${n}`;
  });
  // The caret: on the line being typed from its prompt until the next line appears; solid while keys are typed,
  // blinking at 1 Hz while idle, hidden while a command runs.
  const phases = LINES.map((l, i) => ({ l, i, until: LINES[i + 1]?.at ?? SECONDS })).filter((p) => p.l.typedFrom !== undefined);
  // Later phases are tested first: the outermost `if` is the last phase.
  const caretX = phases.reduce((acc, p) => `if(gte(t,${p.l.at}),${X0}+${CHAR_W}*(${PROMPT.length}+${typedChars(p.l)}),${acc})`, String(X0));
  const caretY = phases.reduce((acc, p) => `if(gte(t,${p.l.at}),${Y0 + p.i * LINE_H + 2},${acc})`, String(Y0));
  const visible = phases.map((p) => `between(t,${p.l.at},${p.until})*(between(t,${p.l.typedFrom},${typedEnd(p.l)})+lt(mod(t,1),0.5))`).join('+');
  graph += `;color=c=${INK}:s=${Math.round(CHAR_W)}x${LINE_H - 8}:r=${FPS}:d=${SECONDS}[caret];[${last}][caret]overlay=x='${caretX}':y='${caretY}':enable='gt(${visible},0)'[t${++n}]`;
  last = `t${n}`;
  // The mouse pointer: a white arrow with a black edge.
  const inside = 'lte(X,Y*0.62)*lte(Y,21)';
  const inner = 'gte(X,1.2)*lte(X,Y*0.62-1.6)*gte(Y,2.5)*lte(Y,19.5)';
  graph += `;color=c=black@0:s=20x30:r=${FPS}:d=${SECONDS},format=rgba,geq=r='255*${inner}':g='255*${inner}':b='255*${inner}':a='255*${inside}'[ptr]`;
  graph += `;[${last}][ptr]overlay=x='${piecewise(POINTER.map(([t, x]) => [t, x]))}':y='${piecewise(POINTER.map(([t, , y]) => [t, y]))}',format=yuv420p`;
  return graph;
}

export async function screenRecording(kit: Kit): Promise<{ video: string; audio: string; seconds: number }> {
  const wallpaper = await photoMove(kit, { photo: 'Aqua', seconds: SECONDS }, W, H);
  const graph = pictureGraph(kit);
  const video = await ffmpegPart(kit.parts, 'screen', 'mp4', ['-i', wallpaper, '-filter_complex', graph, '-frames:v', String(SECONDS * FPS), ...X264_PART, ...BITEXACT]);
  const voice = await narration(kit, [
    { at: 0.3, text: 'First, build the project.' },
    { at: 3.0, text: 'Then run the tests.' },
    { at: 5.5, text: 'Everything passes.' },
    { at: 7.6, text: 'That is all for today.' },
  ], SECONDS, NATURAL_PAUSE);
  const audio = await master(kit, await mix(kit, voice, [{ path: await roomTone(kit, SECONDS), db: 0 }], SECONDS), WEB_LUFS, LOSSY_CEILING);
  return { video, audio, seconds: SECONDS };
}
