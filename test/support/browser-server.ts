// vitest globalSetup of the browser tier: one chromium for the run (playwright's browser server)
// that every file of the tier connects to (browser.ts, launchChromium) instead of starting its
// own, as a chromium start costs seconds of CPU in its browser, GPU, network and storage
// processes. The tests stay apart: each page comes in a browser context of its own.
import {chromium} from 'playwright-core'
import type {TestProject} from 'vitest/node'
import {chromiumOptions} from './browser-options.js'

export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(chromiumOptions())
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
