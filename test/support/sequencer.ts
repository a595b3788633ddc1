// The order in which `npm test` hands its files to the workers (vitest.config.ts, sequence.sequencer):
// the longest first, so that the last minutes are filled with short files instead of waiting for a
// long one that started late. vitest's own order, which this keeps otherwise, takes the durations of
// the last run from its cache, but a fresh clone (CI, the fresh-machine test) has none, and then
// starts the largest files first: the two installs of the release tier, small files that run for two
// minutes, would start last. FIRST names the files known to run longest (the slowest list that `npm
// test` prints at its end; keep the two in step), in the order they start.
import {relative} from 'node:path'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

const FIRST = [
  // npm clones, installs and builds gw; npm installs each package from its tarball (network and CPU)
  'release:test/release/git-install.test.ts',
  'release:test/release/packages-install.test.ts',
  // the terminal journeys (tmux) and chromium's pages
  'e2e:test/console-e2e.test.ts',
  'e2e:test/accessibility.e2e.test.ts',
]

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (s: TestSpecification): number => {
      const i = FIRST.indexOf(`${s.project.name}:${relative(this.ctx.config.root, s.moduleId)}`)
      return i === -1 ? FIRST.length : i
    }
    // (a stable sort: the rest keep vitest's order, each project's files together, so the quick
    // project's files, which share their worker's process, follow each other)
    return sorted.map((s, i) => ({s, i, r: rank(s)})).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.s)
  }
}
