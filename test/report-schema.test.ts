// The report schema says exactly what the engine produces: the golden reports parse, and a report that adds, drops
// or mistypes a field does not. (Every report the engine tests make is also parsed: test/helpers/checked.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlagSchema, ReportSchema } from '../engine/report-schema.js';
import { checked } from './helpers/checked.js';
import * as golden from './helpers/golden-media.js';

const GOLDEN_DIR = resolve(import.meta.dirname, 'golden');
/** The golden files leave out what differs from run to run; the schema of the rest is the report schema without it. */
const GoldenReportSchema = ReportSchema.omit({ timings: true, createdAt: true, engine: true });

describe('the report schema', () => {
  const goldenFiles = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json'));

  it('parses every golden report', () => {
    expect(goldenFiles.length).toBeGreaterThanOrEqual(8);
    for (const file of goldenFiles) {
      const result = GoldenReportSchema.safeParse(JSON.parse(readFileSync(resolve(GOLDEN_DIR, file), 'utf8')));
      expect(result.success, `${file}: ${result.error?.message}`).toBe(true);
    }
  });

  it('refuses a report with a field the engine does not produce, a missing field or a wrong type', async () => {
    const { report } = await checked(await golden.stillWithSound(), { profile: 'generic_creator_video', checks: 'loop_freeze' });
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(ReportSchema.safeParse({ ...report, extra: 1 }).success).toBe(false);
    const { warnings: _warnings, ...withoutWarnings } = report;
    expect(ReportSchema.safeParse(withoutWarnings).success).toBe(false);
    expect(ReportSchema.safeParse({ ...report, verdict: 'FAIL' }).success).toBe(false);
    const [flag] = report.flags;
    expect(FlagSchema.safeParse(flag).success).toBe(true);
    expect(FlagSchema.safeParse({ ...flag, severity: 'INFO' }).success).toBe(false);
    expect(FlagSchema.safeParse({ ...flag, repair: { ...flag.repair, reachable: 'yes' } }).success).toBe(false);
    expect(FlagSchema.safeParse({ ...flag, frame: 1.5 }).success).toBe(false);
  });

  it('gives a JSON Schema for doors to publish', () => {
    const schema = ReportSchema.toJSONSchema() as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
    expect(schema.required).toEqual(expect.arrayContaining(['schemaVersion', 'verdict', 'gates', 'flags']));
    expect(schema.additionalProperties).toBe(false);
  });
});
