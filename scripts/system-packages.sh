#!/usr/bin/env bash
# The tests need two programs only Debian's packages provide: bubblewrap (the --sandbox tests) and redis-server
# (the queue tests start their own on loopback). Installed here when we may (root with apt); otherwise the one
# command that installs them, and a failure before any test runs.
set -euo pipefail
missing=()
command -v bwrap > /dev/null || missing+=(bubblewrap)
command -v redis-server > /dev/null || missing+=(redis-server)
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
	apt-get update && apt-get install -y "${missing[@]}"
else
	echo "${missing[*]} missing; install first: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
