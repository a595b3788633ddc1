// The order in which `npm test` hands its files to the workers (vitest.config.ts, sequence.sequencer):
// the long ones first, so that the last minutes are filled with short files instead of waiting for a
// long one that started late. vitest's own order, which this keeps within a project, takes the
// durations of the last run from its cache; a fresh clone (CI, the fresh-machine test) has none, and
// its order would start the release tier's two installs (small files that run for two minutes) at
// any point, the end included. So: FIRST, the files known to run longest (the slowest list `npm
// test` prints at its end; keep the two in step), then the projects in ORDER, the quick project's
// many short files last (they also follow each other, as the files of a project whose files share
// their worker's process must, for the process to be reused).
import {relative} from 'node:path'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

const FIRST = [
  // npm clones, installs and builds gw; npm installs each package from its tarball (network and CPU)
  'release:test/release/git-install.test.ts',
  'release:test/release/packages-install.test.ts',
  // the terminal journeys (tmux)
  'e2e:test/console-e2e.test.ts',
]
const ORDER = ['release', 'e2e', 'browser', 'pg-engine', 'pg-store', 'quick']

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (s: TestSpecification): [number, number] => {
      const first = FIRST.indexOf(`${s.project.name}:${relative(this.ctx.config.root, s.moduleId)}`)
      const project = ORDER.indexOf(s.project.name)
      return [first === -1 ? FIRST.length : first, project === -1 ? ORDER.length : project]
    }
    // (a stable sort: within a project, vitest's order)
    return sorted
      .map((s, i) => ({s, i, r: rank(s)}))
      .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.i - b.i)
      .map((x) => x.s)
  }
}
