#!/usr/bin/env bash
# Before the tests: the pinned agent CLIs of examples/agents/ into the tests' own store (scripts/test-agent-store.sh).
# They come from the npm registry; when it cannot be reached, one line says so and the real-agent tests skip, naming
# the store. Any other failure to install stops the run.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/test-agent-store.sh
if bash scripts/install-agents.sh; then exit 0; fi
if ! npm ping > /dev/null 2>&1; then
	echo "agents: the npm registry cannot be reached; the tests that run real agent CLIs skip (store: $HLAB_AGENT_STORE)" >&2
	exit 0
fi
echo "agents: installing the pinned agents into $HLAB_AGENT_STORE failed (above)" >&2
exit 1
