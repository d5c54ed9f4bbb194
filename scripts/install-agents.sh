#!/usr/bin/env bash
# Installs the pinned agent packages of examples/agents/ into harness-lab's store ($HLAB_AGENT_STORE, else
# ~/.cache/harness-lab/agents): the adapters' real-run tests use them from there and skip, naming this script,
# when one is missing. A package already in the store is only verified. Needs the npm registry, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
for agent in pi qwen-code opencode codex; do
	node bin/hlab.js agents install "examples/agents/$agent.json"
done
