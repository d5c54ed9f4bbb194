#!/usr/bin/env bash
# Runs tap with the arguments given, with the evidence seal's key store and TMPDIR in a folder of the run's own: every
# attempt the tests run leaves its key there, not in the user's ~/.local/state/harness-lab, whatever a test or a process
# it started leaves in the temporary folder lands there too, and the folder goes with the run.
# What the run's files share (a host build: test/e2e/host-build.ts) is made once, in that folder too. The real agent
# CLIs come from the tests' own store (scripts/test-agent-store.sh; scripts/test-agents.sh fills it).
# Every run ends with its ten slowest files and the ten that used the most CPU; a failed run ends with the failing assertions and their files, so a log read from its tail names what failed.
set -uo pipefail
source "$(dirname "$0")/test-agent-store.sh"
# On the shared-memory tmpfs where there is one: the tests create and remove files by the hundred thousand, and on an
# ext4 without a journal (this machine's disk) each create after a mass removal scans past the inodes just freed.
base=${HLAB_TEST_TMP:-}
if [ -z "$base" ]; then
  base=${TMPDIR:-/tmp}
  if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then base=/dev/shm; fi
fi
state=$(mktemp -d "$base/hlab-test-state-XXXXXX")
trap 'rm -rf "$state"' EXIT
started="$state/started"
touch "$started"
mkdir "$state/keys" "$state/tmp" "$state/shared"
# Each test file's process loads scripts/tap-preload.mjs (what it does, and why, is said there) before tap's own preloads.
preload="--import=\"$(cd "$(dirname "$0")" && pwd)/tap-preload.mjs\""
HLAB_TEST_CPU="$state/cpu.tsv" HLAB_STATE_DIR="$state/keys" TMPDIR="$state/tmp" HLAB_TEST_SHARED="$state/shared" NODE_OPTIONS="$preload${NODE_OPTIONS:+ $NODE_OPTIONS}" tap "$@"
status=$?
# The ten slowest files of this run, from each file's own total in tap's results.
find .tap/test-results -name '*.tap' -newer "$started" -print0 2>/dev/null |
  xargs -0 -r grep -H -E '^# time=' | sed -E 's|^\.tap/test-results/(.*)\.tap:# time=([0-9.]+)ms$|\2 \1|' |
  sort -rn | head -10 | awk 'NR == 1 { print "# slowest files:" } { printf "#   %6.1f s  %s\n", $1 / 1000, $2 }'
# The ten files that used the most CPU, each with the processes it waited for (scripts/tap-preload.mjs records them),
# and the run's total: on a machine this suite keeps busy, CPU is what a file costs; its wall time is shared.
if [ -s "$state/cpu.tsv" ]; then
  total=$(awk -F'\t' '{ sum += $1 } END { printf "%.0f", sum / 1000 }' "$state/cpu.tsv")
  sort -rn "$state/cpu.tsv" | head -10 | awk -F'\t' -v total="$total" -v files="$(wc -l < "$state/cpu.tsv")" \
    'NR == 1 { printf "# most CPU (a file and the processes it waited for; %d CPU-s over %d files):\n", total, files } { printf "#   %6.1f s  (own %5.1f)  %s\n", $1 / 1000, $2 / 1000, $3 }'
fi
if [ "$status" -ne 0 ] && [ -d .tap/test-results ]; then
  echo "# failed in this run:"
  find .tap/test-results -name '*.tap' -newer "$started" -print0 |
    xargs -0 -r grep -H -E '^ *not ok ' | sed -e 's|^\.tap/test-results/||' -e 's|\.tap:| |' | head -50
fi
exit "$status"
