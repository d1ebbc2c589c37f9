import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// Files that replace a module with vi.mock need a module graph of their own; every other file shares its worker's
// graph with the files before it, which saves importing the engine once per file.
const OWN_MODULE_GRAPH = ['test/remote-ingress.test.ts', 'test/webhooks.test.ts'];

// The longest files start first, so that the workers finish together. Vitest orders by last run's durations when
// it has them; a clean clone has none, and by file size the accuracy set (three minutes) would start last.
const LONGEST_FIRST = ['accuracy', 'text-gates', 'engine-e2e', 'mcp', 'cli', 'service'].map((name) => `/test/${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Projects keep the order the base sequencer gave them; within each, the longest files go first.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((suffix) => spec.moduleId.endsWith(suffix));
      return projects.indexOf(spec.project.name) * (LONGEST_FIRST.length + 1) + (at < 0 ? LONGEST_FIRST.length : at);
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Four workers on CI's two cores: much of a test is waiting on a child process (ffmpeg making or decoding media,
    // the OCR process, npm, a server starting, a lease running out), and more files fill those waits. With every
    // fixture generated (a clean clone) the suite ran in 691 s with two, 572 s with three (stop 40); on the machine of
    // stop 51, 601–614 s with three (the cores 175 % busy of 200) and 532 s with four.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: OWN_MODULE_GRAPH, isolate: false } },
      { extends: true, test: { name: 'isolated', include: OWN_MODULE_GRAPH } },
    ],
  },
});
