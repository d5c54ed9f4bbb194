#!/usr/bin/env bash
# Walkthrough: measure a change to harness-lab's own engine as a host candidate.
#
#   examples/run-pair/run.sh [WORKDIR]
#
# 1. archives the exact source state of this checkout (commit + complete patch + untracked files);
# 2. reconstructs two checkouts from that archive (clone at the commit, apply the patch, add the untracked files);
# 3. makes a small engine change in the candidate checkout (one system-prompt line removed);
# 4. snapshots each checkout's source, then builds each into a self-contained host (build-host);
# 5. freezes a plan on the scripted provider (no model, no network) with the baseline host;
# 6. runs `hlab pair` with --candidate-host, so both sides run as supervised hosts under the baseline's
#    supervisor, and prints the decision the baseline executable's compare wrote.
# Nothing it writes is removed; everything lives under WORKDIR (default: a new folder in /tmp).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export PATH="$repo/node_modules/.bin:$PATH"
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/hlab-run-pair-XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
hlab() { node "$repo/bin/hlab.js" "$@"; }
say() { printf '\n== %s\n' "$*"; }

for command in snapshot-source build-host pair; do
	if ! hlab "$command" --help >/dev/null 2>&1; then
		echo "run-pair: this checkout's hlab has no '$command' command yet (cli/main.ts must register it)" >&2
		exit 2
	fi
done

say "1. archive the exact source state of $repo"
hlab snapshot-source --dir "$repo" --out "$work/current-source.tar"
commit=$(tar -xOf "$work/current-source.tar" snapshot.json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).commit))')

# Reconstructs a checkout from the archive: the commit, the patch, the untracked files. Dependencies come from
# this checkout's node_modules (same lock file); the link is excluded locally so it is not source.
reconstruct() {
	local dest=$1 unpacked="$1.unpacked"
	git clone -q "$repo" "$dest"
	git -C "$dest" checkout -q "$commit"
	mkdir "$unpacked"
	tar -xf "$work/current-source.tar" -C "$unpacked"
	if [ -s "$unpacked/head.diff" ]; then git -C "$dest" apply --binary "$unpacked/head.diff"; fi
	if [ -d "$unpacked/untracked" ]; then cp -a "$unpacked/untracked/." "$dest/"; fi
	ln -s "$repo/node_modules" "$dest/node_modules"
	echo 'node_modules' >> "$dest/.git/info/exclude"
}

say "2. two checkouts of commit $commit with the archived changes"
reconstruct "$work/baseline-checkout"
reconstruct "$work/candidate-checkout"

say "3. the engine change under test (candidate only)"
node - "$work/candidate-checkout/harness/builtin-agent.ts" <<'JS'
const {readFileSync, writeFileSync} = require('node:fs');
const file = process.argv[2];
const line = "\t'Check your work by running it (for example the tests) before you finish. Do not edit tests unless the task asks for it.',\n";
const text = readFileSync(file, 'utf8');
if (!text.includes(line)) { console.error('run-pair: the system prompt line to remove is not there; adapt the walkthrough'); process.exit(2); }
writeFileSync(file, text.replace(line, ''));
JS
git -C "$work/candidate-checkout" diff --stat

say "4. snapshot and build each checkout"
for side in baseline candidate; do
	checkout="$work/$side-checkout"
	hlab snapshot-source --dir "$checkout" --out "$work/$side-source.tar"
	# The checkout's own bin/hlab.js builds it; build-host compiles the checkout's sources afresh into the build, so the
	# builder runs on a copy of this checkout's compiled code (same commit and patch) rather than on a second full compile.
	cp -a "$repo/dist" "$checkout/dist"
	(cd "$checkout" && node bin/hlab.js build-host --out "$work/$side-hlab")
done
baseline="$work/baseline-hlab/hlab"
candidate="$work/candidate-hlab/hlab"
if ! "$baseline" eval --help | grep -q -- '--candidate-host'; then
	echo "run-pair: the baseline build's eval has no --candidate-host option yet (the attempt runner must wire runHostTask)" >&2
	exit 2
fi

say "5. freeze a plan with the baseline host (scripted provider, no model call)"
"$baseline" eval --provider scripted --task test_failure_fix,multi_file_fix --max-steps 12 --timeout 2m --freeze "$work/plan.json"

say "6. run the pair: both sides as supervised hosts under the baseline's supervisor"
status=0
"$baseline" pair --plan "$work/plan.json" \
	--baseline "$baseline" --source-baseline "$work/baseline-source.tar" \
	--candidate-host "$candidate" --source-candidate "$work/candidate-source.tar" \
	--output "$work/pair-001" --timeout 180 || status=$?

say "decision"
node -e '
const pair = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
console.log(`pair ${pair.status}; decision: ${pair.comparison?.decision ?? "none"} (${pair.comparison?.reason ?? ""})`);
for (const t of pair.tasks) console.log(`  ${t.task_id}: baseline ${t.baseline.status} (${t.baseline.usage?.total_tokens ?? "?"} tokens), candidate ${t.candidate.status} (${t.candidate.usage?.total_tokens ?? "?"} tokens)`);
' "$work/pair-001/pair.json"
echo "evidence: $work/pair-001 (pair.json, inputs/, baseline/, candidate/, decision.json)"
exit $status
