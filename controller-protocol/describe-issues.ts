import type {z} from 'zod';

/** A one-line account of why a value failed a schema: the first few issues with their paths. */
export function describeIssues(error: z.ZodError, limit = 5): string {
	const lines = error.issues.slice(0, limit).map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
	const more = error.issues.length > limit ? `; and ${error.issues.length - limit} more` : '';
	return `${lines.join('; ')}${more}`;
}
