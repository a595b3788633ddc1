#!/usr/bin/env node
// The baseline for gw's start-up figure: an oclif 4 CLI with one command and nothing else.
import {execute} from '@oclif/core'

await execute({dir: import.meta.url})
