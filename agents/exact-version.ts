import {z} from 'zod';

// A semver version with nothing loose in it: no range operator, no wildcard, no leading zero, no tag.
const exact = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
const tag = /^[A-Za-z][\w-]*$/;

/** Why a version string does not pin one release, in words a user can act on. */
function whyNotExact(version: unknown): string {
	if (version === undefined) return 'missing: pin an exact version such as 1.2.3';
	if (typeof version !== 'string') return 'not a string: pin an exact version such as 1.2.3';
	if (tag.test(version)) return `"${version}" is a tag, which moves: pin an exact version such as 1.2.3`;
	return `"${version}" is not an exact version (a range or a partial version matches more than one release): pin one such as 1.2.3`;
}

/** An exact package version: a range or a tag would install whatever the registry holds that day. */
export const ExactVersion = z
	.string({error: issue => whyNotExact(issue.input)})
	.regex(exact, {error: issue => whyNotExact(issue.input)});
