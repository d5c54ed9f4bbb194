import {lstatSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

/** A reward file larger than this is not a number. */
const rewardBytes = 1024;

/** The reward the verifier wrote to /logs/verifier/reward.txt (a regular file, never a link), or why there is none. */
export function readReward(logsDir: string): {reward: number} | {problem: string} {
	const file = join(logsDir, 'reward.txt');
	let stat;
	try {
		stat = lstatSync(file);
	} catch {
		return {problem: 'the verifier wrote no /logs/verifier/reward.txt'};
	}
	if (!stat.isFile()) return {problem: '/logs/verifier/reward.txt is not a regular file'};
	if (stat.size > rewardBytes) return {problem: `/logs/verifier/reward.txt holds ${stat.size} bytes, not a number`};
	const text = readFileSync(file, 'utf8').trim();
	const reward = Number(text);
	if (text === '' || !Number.isFinite(reward)) return {problem: `/logs/verifier/reward.txt holds ${JSON.stringify(text.slice(0, 40))}, not a number`};
	return {reward};
}
