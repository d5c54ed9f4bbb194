/** One word for sh holding exactly `text`: single quotes, each inner quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
	return `'${text.replaceAll("'", `'\\''`)}'`;
}
