# Sourced by scripts/test-agents.sh and scripts/tap.sh: the tests' own store of pinned agent packages, a cache folder
# outside node_modules that outlives a run (a developer's second run verifies, it does not download again).
export HLAB_AGENT_STORE="${HLAB_AGENT_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-lab/test-agents}"
