// loop_freeze and canvas_fill on real photographs, each defect beside a clean control of the same kind: slow motion is
// motion, a typed terminal and held slides are content, a frozen pan is a freeze at its time; blurred fill at the
// picture's edges is padding, a caption box or a soft-focus photo is not.
import { describe, expect, it } from 'vitest';
import { checked } from './helpers/checked.js';
import type { Report } from '../engine/report.js';
import * as vis from './helpers/visual-media.js';

const flagsOf = (r: Report, gate: string) => r.flags.filter((f) => f.gate === gate);
const measured = (r: Report, gate: string) => r.gates.find((g) => g.gate === gate)!.measurements;
const missing = vis.photosMissing();
if (missing) console.warn(`visual-gates: skipped, ${missing}`);

describe.skipIf(missing)('loop_freeze on real footage', () => {
  it('passes a slow Ken Burns zoom under every profile (slow motion is motion)', async () => {
    const file = await vis.kenBurnsSlow();
    for (const profile of ['generic_creator_video', 'ai_render_gate']) {
      const { report } = await checked(file, { checks: 'loop_freeze', profile });
      expect(flagsOf(report, 'loop_freeze'), profile).toEqual([]);
    }
  });

  it('passes a typed terminal whose last 3 s hold still, and says it saw a held still', async () => {
    const { report } = await checked(await vis.typedTerminal(), { checks: 'loop_freeze', profile: 'generic_creator_video' });
    expect(flagsOf(report, 'loop_freeze')).toEqual([]);
    expect(measured(report, 'loop_freeze')).toMatchObject({ freezeSegments: 0, repeatedSequences: 0 });
    expect(measured(report, 'loop_freeze').longestHeldStillSeconds as number).toBeGreaterThan(2);
  });

  it('passes a continuous pan, and finds the same pan frozen for 3.5 s at its time as an exact repeat in moving footage', async () => {
    const clean = await checked(await vis.panShot(), { checks: 'loop_freeze', profile: 'ai_render_gate' });
    expect(flagsOf(clean.report, 'loop_freeze')).toEqual([]);
    const { report } = await checked(await vis.panShot({ at: 2.5, seconds: 3.5 }), { checks: 'loop_freeze', profile: 'ai_render_gate' });
    const [flag, ...rest] = flagsOf(report, 'loop_freeze');
    expect(rest).toEqual([]);
    expect(flag).toMatchObject({ severity: 'BLOCK' });
    expect(Math.abs(flag.start - 2.5)).toBeLessThan(0.5);
    expect(Math.abs(flag.end - 6)).toBeLessThan(0.5);
    expect(flag.summary).toContain('frozen');
    expect(flag.evidence.seen).toMatch(/^exact repeat inside moving footage/);
    expect(flag.evidence.largestCellChange as number).toBeLessThan(0.5);
    // The same freeze on long-form video is a WATCH (2 s ≤ 3.5 s < 5 s), as the gate's thresholds document.
    const longForm = await checked(await vis.panShot({ at: 2.5, seconds: 3.5 }), { checks: 'loop_freeze', profile: 'generic_creator_video' });
    expect(flagsOf(longForm.report, 'loop_freeze').map((f) => f.severity)).toEqual(['WATCH']);
  });

  it('leaves held slides between cuts alone, except under ai_render_gate, where the hold is worded as a held still', async () => {
    const file = await vis.heldSlides();
    const creator = await checked(file, { checks: 'loop_freeze', profile: 'generic_creator_video' });
    expect(flagsOf(creator.report, 'loop_freeze')).toEqual([]);
    expect(measured(creator.report, 'loop_freeze')).toMatchObject({ freezeSegments: 0, heldStills: 2 });
    const ai = await checked(file, { checks: 'loop_freeze', profile: 'ai_render_gate' });
    const flags = flagsOf(ai.report, 'loop_freeze');
    expect(flags.map((f) => f.severity)).toEqual(['BLOCK', 'BLOCK']);
    for (const f of flags) {
      expect(f.summary).toContain('held still');
      expect(f.evidence.seen).toMatch(/^held still (from the start|after a cut)/);
    }
    expect(flags[1].start).toBeCloseTo(3.5, 1);
  });
});

describe.skipIf(missing)('canvas_fill on real footage', () => {
  it('flags a photo move padded with a blurred copy of itself as pillarbox fill', async () => {
    const { report } = await checked(await vis.blurredFillPhoto(), { checks: 'canvas_fill', profile: 'generic_creator_video' });
    const [flag] = flagsOf(report, 'canvas_fill');
    expect(flag).toMatchObject({ severity: 'BLOCK' });
    expect(flag.evidence).toMatchObject({ padding: 'blurred or flat fill', layout: 'pillarbox' });
    expect(flag.evidence.paddedAreaPct as number).toBeGreaterThan(60);
  });

  it('does not call a caption on a semi-transparent box in a 9:16 short padding', async () => {
    const { report } = await checked(await vis.boxedCaptionShort(), { checks: 'canvas_fill', profile: 'shorts' });
    expect(flagsOf(report, 'canvas_fill')).toEqual([]);
  });

  it('does not call a soft-focus photograph padding', async () => {
    const { report } = await checked(await vis.softFocusThumbnail(), { checks: 'canvas_fill' });
    expect(flagsOf(report, 'canvas_fill')).toEqual([]);
  });
});
