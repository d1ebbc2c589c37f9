// Word alignment of a hypothesis (what was said) against a reference (the script), fast on long texts.
//
// Full Levenshtein is O(n·m): 4·10^8 cells for a 2-hour programme. Instead:
//   1. common prefix and suffix are matched outright;
//   2. words that occur exactly once in both ranges are anchors; the longest increasing run of them (patience diff)
//      is matched and each gap between anchors is aligned the same way, recursively;
//   3. a gap without unique words is aligned with Myers' O((n+m)·D) diff, given a budget of edits;
//   4. a gap over that budget (many scattered edits over a small vocabulary) gets a banded Levenshtein alignment:
//      only cells within a fixed distance of the gap's diagonal, O(n·band).
// Each change block between matched words counts max(reference, hypothesis) words as errors (substitutions first,
// the rest deletions or insertions): the Levenshtein WER when the edits are separated by matching words, an upper
// bound otherwise.

export interface ChangeBlock {
  /** Half-open ranges of reference and hypothesis words that differ; one of them may be empty. */
  refStart: number;
  refEnd: number;
  hypStart: number;
  hypEnd: number;
}

export interface Alignment {
  refLength: number;
  hypLength: number;
  matches: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Change blocks in order. */
  blocks: ChangeBlock[];
  /** Gaps too different for Myers' edit budget, aligned with the banded Levenshtein instead. */
  bandedGaps: number;
}

/** Myers is given at most this many cell visits ((n+m)·D) per gap before the gap is left as one block. */
const MYERS_WORK_BUDGET = 20_000_000;
const MYERS_MIN_EDITS = 64;
/** The saved frontiers take O(D²) memory: this many edits keep them to a few megabytes. */
const MYERS_MAX_EDITS = 2_000;
/** Cells of a banded alignment (one byte each for the way back): the band narrows on longer gaps. */
const BAND_CELLS = 30_000_000;
const BAND_MIN_HALF_WIDTH = 64;
const BAND_MAX_HALF_WIDTH = 1_000;

interface Range {
  aLo: number;
  aHi: number;
  bLo: number;
  bHi: number;
}

/** Pairs (reference index, hypothesis index) of matched words, collected in any order. */
class Matches {
  readonly ref: number[] = [];
  readonly hyp: number[] = [];
  add(i: number, j: number): void {
    this.ref.push(i);
    this.hyp.push(j);
  }
  /** Matched pairs sorted by reference index (hypothesis indices then increase too). */
  sorted(): [number, number][] {
    const order = this.ref.map((_, k) => k).sort((x, y) => this.ref[x] - this.ref[y]);
    return order.map((k) => [this.ref[k], this.hyp[k]]);
  }
}

function toIds(ref: readonly string[], hyp: readonly string[]): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) ids.set(word, (id = ids.size));
    return id;
  };
  return { a: Int32Array.from(ref, idOf), b: Int32Array.from(hyp, idOf) };
}

/** Matches the common prefix and suffix; returns what remains between them. */
function trimCommon(a: Int32Array, b: Int32Array, r: Range, out: Matches): Range {
  let { aLo, aHi, bLo, bHi } = r;
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.add(aLo++, bLo++);
  while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) out.add(--aHi, --bHi);
  return { aLo, aHi, bLo, bHi };
}

function uniquePositions(seq: Int32Array, lo: number, hi: number): Map<number, number> {
  const position = new Map<number, number>();
  const repeated = new Set<number>();
  for (let i = lo; i < hi; i++) {
    if (position.has(seq[i])) repeated.add(seq[i]);
    else position.set(seq[i], i);
  }
  for (const id of repeated) position.delete(id);
  return position;
}

/** Longest increasing subsequence of `values` (patience sorting); returns the chosen indices. */
function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = [];
  const previous = new Int32Array(values.length).fill(-1);
  for (let k = 0; k < values.length; k++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]] < values[k]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[k] = tails[lo - 1];
    tails[lo] = k;
  }
  const chosen: number[] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = previous[k]) chosen.push(k);
  return chosen.reverse();
}

/** Anchors: words unique in both ranges, in an order both sequences agree on. */
function uniqueAnchors(a: Int32Array, b: Int32Array, r: Range): [number, number][] {
  const inA = uniquePositions(a, r.aLo, r.aHi);
  const inB = uniquePositions(b, r.bLo, r.bHi);
  const pairs: [number, number][] = [];
  for (let i = r.aLo; i < r.aHi; i++) {
    const j = inA.get(a[i]) === i ? inB.get(a[i]) : undefined;
    if (j !== undefined) pairs.push([i, j]);
  }
  return longestIncreasing(pairs.map((p) => p[1])).map((k) => pairs[k]);
}

/** Myers' greedy diff with a bound on the number of edits; null when the range needs more. */
function myers(a: Int32Array, b: Int32Array, r: Range, maxEdits: number): [number, number][] | null {
  const n = r.aHi - r.aLo;
  const m = r.bHi - r.bLo;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[r.aLo + x] === b[r.bLo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return myersPath(trace, d, n, m).map(([i, j]) => [r.aLo + i, r.bLo + j]);
    }
  }
  return null;
}

/** Walks the saved frontiers back from (n, m) and returns the matched (diagonal) pairs. */
function myersPath(trace: Int32Array[], lastD: number, n: number, m: number): [number, number][] {
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = lastD; d > 0; d--) {
    const frontier = trace[d];
    const at = (k: number) => frontier[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) pairs.push([--x, --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) pairs.push([--x, --y]);
  return pairs;
}

const FAR = 1 << 29;
const FROM_DIAGONAL = 1;
const FROM_ABOVE = 2; // a reference word deleted
const FROM_LEFT = 3; // a hypothesis word inserted

/** Levenshtein alignment restricted to a band around the gap's diagonal; returns the matched pairs. */
function banded(a: Int32Array, b: Int32Array, r: Range): [number, number][] {
  // Rows run along the longer side, so the diagonal moves at most one column a row and the band stays connected.
  if (r.bHi - r.bLo > r.aHi - r.aLo) {
    return bandedRows(b, a, { aLo: r.bLo, aHi: r.bHi, bLo: r.aLo, bHi: r.aHi }).map(([j, i]) => [i, j]);
  }
  return bandedRows(a, b, r);
}

function bandedRows(a: Int32Array, b: Int32Array, r: Range): [number, number][] {
  const n = r.aHi - r.aLo;
  const m = r.bHi - r.bLo;
  const half = Math.max(BAND_MIN_HALF_WIDTH, Math.min(BAND_MAX_HALF_WIDTH, Math.floor(BAND_CELLS / (2 * (n + 1)))));
  const width = 2 * half + 1;
  const low = (i: number) => Math.max(0, Math.round((i * m) / n) - half);
  const high = (i: number) => Math.min(m, low(i) + width - 1);
  const from = new Uint8Array((n + 1) * width);
  let previous = new Int32Array(width).fill(FAR);
  let current = new Int32Array(width);
  for (let j = 0; j <= high(0); j++) {
    previous[j] = j;
    from[j] = FROM_LEFT;
  }
  for (let i = 1; i <= n; i++) {
    const lo = low(i);
    const hi = high(i);
    const prevLo = low(i - 1);
    const prevHi = high(i - 1);
    current.fill(FAR);
    for (let j = lo; j <= hi; j++) {
      let best = FAR;
      let way = 0;
      if (j >= 1 && j - 1 >= prevLo && j - 1 <= prevHi) {
        best = previous[j - 1 - prevLo] + (a[r.aLo + i - 1] === b[r.bLo + j - 1] ? 0 : 1);
        way = FROM_DIAGONAL;
      }
      if (j >= prevLo && j <= prevHi && previous[j - prevLo] + 1 < best) {
        best = previous[j - prevLo] + 1;
        way = FROM_ABOVE;
      }
      if (j - 1 >= lo && current[j - 1 - lo] + 1 < best) {
        best = current[j - 1 - lo] + 1;
        way = FROM_LEFT;
      }
      current[j - lo] = best;
      from[i * width + j - lo] = way;
    }
    [previous, current] = [current, previous];
  }
  const pairs: [number, number][] = [];
  for (let i = n, j = m; i > 0 || j > 0; ) {
    const way = from[i * width + j - low(i)];
    if (way === FROM_DIAGONAL) {
      if (a[r.aLo + i - 1] === b[r.bLo + j - 1]) pairs.push([r.aLo + i - 1, r.bLo + j - 1]);
      i--;
      j--;
    } else if (way === FROM_ABOVE) i--;
    else j--;
  }
  return pairs;
}

function alignRange(a: Int32Array, b: Int32Array, initial: Range, out: Matches): number {
  let overBudget = 0;
  const stack: Range[] = [initial];
  while (stack.length) {
    const r = trimCommon(a, b, stack.pop()!, out);
    if (r.aLo === r.aHi || r.bLo === r.bHi) continue;
    const anchors = uniqueAnchors(a, b, r);
    if (anchors.length) {
      let aLo = r.aLo;
      let bLo = r.bLo;
      for (const [i, j] of anchors) {
        out.add(i, j);
        stack.push({ aLo, aHi: i, bLo, bHi: j });
        aLo = i + 1;
        bLo = j + 1;
      }
      stack.push({ aLo, aHi: r.aHi, bLo, bHi: r.bHi });
      continue;
    }
    const size = r.aHi - r.aLo + (r.bHi - r.bLo);
    const pairs = myers(a, b, r, Math.max(MYERS_MIN_EDITS, Math.min(MYERS_MAX_EDITS, Math.floor(MYERS_WORK_BUDGET / size))));
    if (!pairs) overBudget++;
    for (const [i, j] of pairs ?? banded(a, b, r)) out.add(i, j);
  }
  return overBudget;
}

function blocksBetween(pairs: readonly [number, number][], refLength: number, hypLength: number): ChangeBlock[] {
  const blocks: ChangeBlock[] = [];
  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...pairs, [refLength, hypLength] as [number, number]]) {
    if (mi > i || mj > j) blocks.push({ refStart: i, refEnd: mi, hypStart: j, hypEnd: mj });
    i = mi + 1;
    j = mj + 1;
  }
  return blocks;
}

export function alignWords(ref: readonly string[], hyp: readonly string[]): Alignment {
  const { a, b } = toIds(ref, hyp);
  const out = new Matches();
  const bandedGaps = alignRange(a, b, { aLo: 0, aHi: a.length, bLo: 0, bHi: b.length }, out);
  const blocks = blocksBetween(out.sorted(), a.length, b.length);
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  for (const block of blocks) {
    const r = block.refEnd - block.refStart;
    const h = block.hypEnd - block.hypStart;
    substitutions += Math.min(r, h);
    deletions += Math.max(0, r - h);
    insertions += Math.max(0, h - r);
  }
  return { refLength: a.length, hypLength: b.length, matches: out.ref.length, substitutions, deletions, insertions, blocks, bandedGaps };
}

/** Word error rate (S + D + I) / reference words; null for an empty reference. */
export function wordErrorRate(alignment: Alignment): number | null {
  if (alignment.refLength === 0) return null;
  return (alignment.substitutions + alignment.deletions + alignment.insertions) / alignment.refLength;
}
