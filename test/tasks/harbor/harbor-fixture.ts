import {chmod} from 'node:fs/promises';
import {join} from 'node:path';
import {writeTree} from '../../write-tree.js';

/** A package this machine does not have (the fixture checks it), for the task freeze must refuse. */
export const absentPackage = 'cowsay';

/** What the verifier of every fixture task keeps in tests/: the agent must never see it. */
export const testsSecret = 'HARBOR-TESTS-SECRET-5f1c2e';

export interface HarborTaskFiles {
	instruction: string;
	toml: string;
	dockerfile: string;
	testSh: string;
	/** More files by path relative to the task folder (environment/ files, tests/ helpers). */
	extra?: Record<string, string>;
}

/** Writes one Harbor task folder as the format's documentation lays it out. */
export async function writeHarborTask(root: string, id: string, files: HarborTaskFiles): Promise<string> {
	const dir = join(root, id);
	const all: Record<string, string> = {
		'instruction.md': files.instruction,
		'task.toml': files.toml,
		'environment/Dockerfile': files.dockerfile,
		'tests/test.sh': files.testSh,
		'tests/secret.txt': `${testsSecret}\n`,
		...files.extra,
	};
	await writeTree(dir, all);
	await chmod(join(dir, 'tests', 'test.sh'), 0o755);
	return dir;
}

const toml = (agentSec: number, verifierSec: number): string => `version = "1.0"

[metadata]
author_name = "test"
difficulty = "easy"

[agent]
timeout_sec = ${agentSec}

[verifier]
timeout_sec = ${verifierSec}

[environment]
cpus = 1
memory_mb = 1024
`;

/** The verifier's check of the solvable task: absolute paths, its secret read from /tests, the reward written. */
const solvableTest = `#!/bin/bash
mkdir -p /logs/verifier
secret=$(cat /tests/secret.txt)
if [ "$PWD" = /app ] && [ "$(cat /app/out.txt 2>/dev/null)" = "done $(cat /app/seed.txt)" ] && [ -n "$secret" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
echo '{"results": {"tool": {"name": "bash"}, "summary": {"tests": 1}}}' > /logs/verifier/ctrf.json
`;

/**
 * Three tasks: `solvable` (write /app/out.txt from /app/seed.txt), `needs_package` (its Dockerfile installs a package this
 * machine lacks) and `zero_reward` (its verifier always writes 0).
 */
export async function writeThreeTasks(root: string): Promise<{solvable: string; needsPackage: string; zeroReward: string}> {
	const dockerfile = (extra: string): string => `FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y --no-install-recommends bash coreutils${extra} \\\n    && rm -rf /var/lib/apt/lists/*\nWORKDIR /app\nCOPY seed.txt /app/seed.txt\n`;
	const solvable = await writeHarborTask(root, 'solvable', {
		instruction: 'Write /app/out.txt containing `done ` followed by the contents of /app/seed.txt.\n',
		toml: toml(60, 30),
		dockerfile: dockerfile(''),
		testSh: solvableTest,
		extra: {'environment/seed.txt': 'seed-42', 'solution/solve.sh': 'echo "done $(cat /app/seed.txt)" > /app/out.txt\n'},
	});
	const needsPackage = await writeHarborTask(root, 'needs_package', {
		instruction: 'Make the cow say hello.\n',
		toml: toml(60, 30),
		dockerfile: dockerfile(` ${absentPackage}`),
		testSh: '#!/bin/bash\nmkdir -p /logs/verifier\ncowsay hello > /dev/null && echo 1 > /logs/verifier/reward.txt\n',
		extra: {'environment/seed.txt': 'x'},
	});
	const zeroReward = await writeHarborTask(root, 'zero_reward', {
		instruction: 'Try your best; this verifier never passes anyone.\n',
		toml: toml(45, 20),
		dockerfile: dockerfile(''),
		testSh: '#!/bin/bash\nmkdir -p /logs/verifier\ntest -f /app/seed.txt && echo 0 > /logs/verifier/reward.txt\n',
		extra: {'environment/seed.txt': 'y'},
	});
	return {solvable, needsPackage, zeroReward};
}
