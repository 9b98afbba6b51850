import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { readDurations } from '../e2e/shard-plan.mjs';

/**
 * The unit test files longest first within each project, by the durations of the last
 * full run (`unit` in test-durations.json), where Vitest's own cache has no result for a
 * file (a fresh clone, CI). Vitest's default then orders by file size: the slowest files
 * (a production install, the restore drills, each 50-90 s and a few hundred lines) started
 * in the stage's last third and ran on alone.
 */
export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const { unit } = readDurations(root);
    const cache = this.ctx.cache;
    const cached = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`) !==
      undefined;
    if (sorted.every(cached)) return sorted;
    const projectRank = new Map<string, number>();
    for (const spec of sorted) {
      if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    }
    // Unknown files first, as Vitest runs them (a new file fails early).
    const seconds = (spec: TestSpecification) =>
      unit[path.relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...sorted].sort(
      (a, b) =>
        projectRank.get(a.project.name)! - projectRank.get(b.project.name)! ||
        seconds(b) - seconds(a),
    );
  }
}
