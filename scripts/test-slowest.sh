#!/bin/sh
# npm run test:slowest [-- VITEST ARGS]: the whole suite (or the projects and files given, e.g.
# `-- --project quick`), then its slowest files with their CPU seconds and each project's total
# (test/support/slowest-reporter.ts; GW_TEST_SLOWEST=N lists N, default 20). Run it after a change
# that may have made the suite slower, and compare with the figures in the README's "Tests".
set -e
cd "$(dirname "$0")/.."
mkdir -p .gw-test
GW_TEST_CPU_LOG="$PWD/.gw-test/cpu.jsonl"
GW_TEST_SLOWEST="${GW_TEST_SLOWEST:-20}"
export GW_TEST_CPU_LOG GW_TEST_SLOWEST
rm -f "$GW_TEST_CPU_LOG"
exec npx vitest run --reporter=default --reporter=./test/support/slowest-reporter.ts "$@"
