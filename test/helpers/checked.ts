// Runs a check and holds its report to the published schema: every report the engine tests make must parse.
import { runCheck, type CheckOptions, type CheckResult } from '../../engine/check.js';
import { ReportSchema } from '../../engine/report-schema.js';

export async function checked(path: string | null, opts: CheckOptions = {}): Promise<CheckResult> {
  const result = await runCheck(path, opts);
  ReportSchema.parse(result.report);
  return result;
}
