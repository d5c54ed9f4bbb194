/**
 * Turns a title into a URL slug:
 * - accents are removed (é -> e) and letters are lower-cased;
 * - every run of characters other than a-z and 0-9 becomes a single hyphen;
 * - there are no hyphens at the start or the end;
 * - the slug is at most `maxLength` characters (default 40); when it must be cut, it is cut at a hyphen
 *   if there is one within the limit, so that no word is split, and never ends with a hyphen.
 */
export function slugify(title, maxLength = 40) {
	throw new Error('slugify is not implemented yet');
}
