// The agent repair loop, the verdict rule and the CLI contract as data, so every public document states them alike.
import { VERIFY_CLI } from '../../engine/receipt.js';
import { CLI_COMMAND } from './mcp-install.js';

export const VERDICT_RULE =
  'BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS. WATCH is upload-ready; a receipt carries PASS or BLOCK only. ' +
  'An asset is not upload-ready while any BLOCK flag remains, nor on a narrowed check (checks): only a run of the whole delivery profile has a receipt.';

// Restated from src/cli.ts (EXIT), which runs the CLI when imported and so cannot be imported here.
export const CLI_EXIT_CODES = {
  '0': 'PASS, or WATCH unless --fail-on watch',
  '1': 'BLOCK (or WATCH with --fail-on watch)',
  '2': 'error: bad input or unreadable media, or --receipt asked of a narrowed check (run the full profile to get a receipt); the message says what is wrong',
} as const;

export interface RepairLoopStep {
  step: number;
  /** The MCP tool to call; null for work the agent does itself. */
  tool: string | null;
  arguments: Record<string, string>;
  do: string;
}

/** Placeholder a caller replaces with a real value; never a real value itself. */
const FILE = '<final export>';
const JOB = '<job_id>';

/** `{ transcript_path: '<transcript_path>' }` for each argument name. */
export function placeholderArguments(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `<${name}>`]));
}

/** The loop for one profile; `extraArguments` (sidecars, checks) go into every run; step 4 narrows the checks. */
export function repairLoop(profile: string, extraArguments: Record<string, string> = {}): RepairLoopStep[] {
  const runArguments = { file_path: FILE, profile, ...extraArguments };
  return [
    {
      step: 1,
      tool: 'qc_run_local_file',
      arguments: runArguments,
      do: 'Check the final export. If the job is not completed yet, poll qc_get_job with its job_id until it is completed or failed.',
    },
    {
      step: 2,
      tool: 'qc_get_report',
      arguments: { job_id: JOB },
      do: 'Show the user every BLOCK and WATCH flag with its timestamp, measured value and repair instruction.',
    },
    {
      step: 3,
      tool: null,
      arguments: {},
      do:
        'Repair only flags whose repair.reachable is true, following repair.instruction. ' +
        'For the others, return the timestamped source/render instruction instead of editing the file.',
    },
    {
      step: 4,
      tool: 'qc_run_local_file',
      arguments: runArguments,
      do:
        'Re-run the full check of the profile on the repaired file with the same arguments as the first run, not narrowed to the repaired gates ' +
        '(a re-check of a file already checked this month is free; a run narrowed to the checks repair.verify names may confirm a repair quickly, ' +
        'but it is a repair step with no receipt). Repeat from step 2 while any BLOCK flag remains.',
    },
    {
      step: 5,
      tool: 'qc_get_receipt',
      arguments: { job_id: JOB },
      do:
        'Call the asset upload-ready only when no BLOCK flag remains: fetch the signed receipt of that full run and keep it with the asset. ' +
        'Publish only on receipt verdict PASS; a narrowed run has no receipt.',
    },
  ];
}

/** How a remote agent gets media to the server before steps 1 and 4: there, files on the agent's machine are out of reach. */
const UPLOAD_FIRST: Record<number, string> = {
  1: 'Upload the final export: qc_create_upload_url, PUT the bytes to signed_put_url, then run qc_run_video with its upload_id.',
  4: 'Upload the repaired file the same way.',
};

/**
 * The loop as five lines for an MCP client's `instructions`: the same steps as every public document. `upload` is
 * for a server that cannot read the agent's files (MCP over HTTP), where a check starts from an upload.
 */
export function repairLoopInstructions(media: 'local_file' | 'upload' = 'local_file'): string {
  return repairLoop('<profile>')
    .map((s) => {
      const call = s.tool === 'qc_run_local_file' && media === 'upload' ? 'qc_run_video' : s.tool;
      const lead = media === 'upload' && UPLOAD_FIRST[s.step] ? `${UPLOAD_FIRST[s.step]} ` : '';
      return `${s.step}. ${call ? `${call}: ` : ''}${lead}${s.do}`;
    })
    .join('\n');
}

export interface CliEquivalent {
  check: string;
  markers: string;
  verify: string;
  exitCodes: typeof CLI_EXIT_CODES;
}

export function cliEquivalent(profile: string): CliEquivalent {
  return {
    check: `${CLI_COMMAND} check <file> --profile ${profile} --json --receipt r.json`,
    markers: `${CLI_COMMAND} check <file> --profile ${profile} --markers markers.csv`,
    verify: `${CLI_COMMAND} ${VERIFY_CLI.replace(/^preflight /, '')}`,
    exitCodes: CLI_EXIT_CODES,
  };
}
