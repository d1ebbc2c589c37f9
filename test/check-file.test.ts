// `preflight check` and a job run the same service-level checkFile: the CLI's --json report and the job's report.json
// are the same report, usage and cost estimate included, once the per-run fields (time, timings) are set aside.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../engine/report-schema.js';
import { LOCAL_PRINCIPAL, PreflightService } from '../src/service.js';
import * as fx from './helpers/fixtures.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const home = mkdtempSync(join(tmpdir(), 'preflight-check-file-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

const withoutRunFields = ({ createdAt: _createdAt, timings: _timings, ...rest }: Report) => rest;

describe('checkFile', () => {
  it('gives the CLI and a job the same report, usage shape included', async () => {
    const file = await fx.blackInterior();
    const args = { profile: 'generic_creator_video', checks: 'black_frames,loudness' };
    const cli = await execa('node', [BIN, 'check', file, '--json', '--profile', args.profile, '--checks', args.checks], {
      reject: false,
      timeout: 120_000,
      env: { PREFLIGHT_HOME: join(home, 'cli') },
      stdin: 'ignore',
    });
    expect(cli.exitCode, cli.stderr).toBe(1);
    const fromCli = ReportSchema.parse(JSON.parse(String(cli.stdout)));

    const service = await PreflightService.open({ home: join(home, 'service'), env: {} });
    try {
      const { job } = await service.createJob(LOCAL_PRINCIPAL, { file_path: file, ...args });
      expect(job.status).toBe('completed');
      const fromJob = ReportSchema.parse((await service.getReport(LOCAL_PRINCIPAL, job.jobId)));
      expect(Object.keys(fromCli.usage!).sort()).toEqual(['billingPeriod', 'freeRecheck', 'mediaMinutes', 'minutesMetered']);
      expect(fromCli.costEstimate).not.toBeNull();
      expect(withoutRunFields(fromCli)).toEqual(withoutRunFields(fromJob));
    } finally {
      await service.close();
    }
  });
});
