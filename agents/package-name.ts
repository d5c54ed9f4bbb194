import {z} from 'zod';

// npm's rules for new names: lower case, URL-safe, an optional @scope/, never a leading dot, underscore or dash.
const name = /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

/**
 * A registry package's name, and only that: npm also takes paths, URLs, git remotes and `alias@npm:` specs in
 * the same argument, and any of them would install something the pinned version does not describe.
 */
export const PackageName = z
	.string({error: issue => (issue.input === undefined ? 'missing: the npm package to install' : 'not a string')})
	.max(214)
	.regex(name, {error: issue => `${JSON.stringify(issue.input)} is not an npm registry package name (lower case, an optional @scope/, no path, URL or alias)`});
