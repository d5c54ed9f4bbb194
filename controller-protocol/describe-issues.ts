import type {z} from 'zod';

/**
 * The one way a schema failure is told: one line, the first few issues with their paths; an issue at the
 * value itself is named by `root` (e.g. `arguments`), so a message says what was wrong without a stack of lines.
 */
export function describeIssues(error: z.ZodError, {limit = 5, root = '(root)'}: {limit?: number; root?: string} = {}): string {
	const lines = error.issues.slice(0, limit).map(issue => `${issue.path.length > 0 ? issue.path.join('.') : root}: ${issue.message}`);
	const more = error.issues.length > limit ? `; and ${error.issues.length - limit} more` : '';
	return `${lines.join('; ')}${more}`;
}
