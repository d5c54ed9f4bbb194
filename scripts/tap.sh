#!/usr/bin/env bash
# Runs tap with the arguments given, with the evidence seal's key store in a folder of the run's own: every attempt
# the tests run leaves its key there, not in the user's ~/.local/state/harness-lab, and the folder goes with the run.
set -uo pipefail
state=$(mktemp -d "${TMPDIR:-/tmp}/hlab-test-state-XXXXXX")
trap 'rm -rf "$state"' EXIT
HLAB_STATE_DIR="$state" tap "$@"
