import {lstat} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {holderRuns, lockFile, readAttemptLock} from '../evidence/attempt-lock.js';
import type {ListingLine} from './listing-line.js';
import {readRegularFile} from './read-regular-file.js';
import {shortDigest} from './short-digest.js';

// Only the fields a line shows: a record from an older or newer hlab still lists.
const AttemptFields = z.object({
	side: z.enum(['baseline', 'candidate']),
	plan_digest: z.string(),
	started_at: z.string(),
	candidate: z.object({source_path: z.string()}).nullable().optional(),
	agent: z.object({adapter: z.string(), package: z.object({name: z.string(), version: z.string()}).nullable()}).nullable().optional(),
});
type AttemptFields = z.infer<typeof AttemptFields>;

const ReportFields = z.object({
	side: z.enum(['baseline', 'candidate']),
	plan_digest: z.string(),
	completion: z.enum(['finished', 'interrupted', 'recovered']),
	passed: z.boolean(),
	ended_at: z.string(),
});
type ReportFields = z.infer<typeof ReportFields>;

type Read<T> = {value: T | null; problem: string | null};

/** One attempt's line from its attempt.json and report.json (one at a time, dropped once the line is out), and its lock. */
export async function describeAttempt(dir: string, path: string): Promise<ListingLine> {
	const attempt = await readPart(join(dir, 'attempt.json'), AttemptFields);
	const report = await readPart(join(dir, 'report.json'), ReportFields);
	const problems = [attempt.problem, report.problem].filter(problem => problem !== null);
	return {
		kind: 'attempt', path,
		plan: shortDigest(report.value?.plan_digest ?? attempt.value?.plan_digest ?? null),
		side: report.value?.side ?? attempt.value?.side ?? null,
		candidate: candidateOf(attempt.value),
		status: report.value === null ? (report.problem === null ? await unreportedStatus(dir) : null) : reportStatus(report.value),
		when: report.value?.ended_at ?? attempt.value?.started_at ?? null,
		problem: problems.length === 0 ? null : problems.join('; '),
	};
}

async function readPart<T>(path: string, schema: z.ZodType<T>): Promise<Read<T>> {
	let text: string;
	try {
		text = await readRegularFile(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return {value: null, problem: code === 'ENOENT' ? null : `${basenameOf(path)} not readable (${code ?? String(error)})`};
	}
	try {
		return {value: schema.parse(JSON.parse(text)), problem: null};
	} catch {
		return {value: null, problem: `${basenameOf(path)} is half-written or not ours`};
	}
}

function basenameOf(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1);
}

function reportStatus(report: ReportFields): string {
	if (report.completion !== 'finished') return report.completion;
	return report.passed ? 'passed' : 'failed';
}

/** No report yet: still running while the supervisor that took the lock lives, else it crashed or was killed. */
async function unreportedStatus(dir: string): Promise<string> {
	// readAttemptLock reads whatever is there: anything but a regular file is no lock.
	const regular = await lstat(join(dir, lockFile)).then(stat => stat.isFile(), () => false);
	const lock = regular ? readAttemptLock(dir) : null;
	return lock !== null && holderRuns(lock) ? 'running' : 'unfinished';
}

function candidateOf(attempt: AttemptFields | null): string | null {
	if (attempt?.candidate != null) return attempt.candidate.source_path;
	const agent = attempt?.agent;
	if (agent == null) return null;
	return agent.package === null ? agent.adapter : `${agent.package.name}@${agent.package.version}`;
}
