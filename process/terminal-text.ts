/*
 * Text from outside the process (a provider's error, a model's answer, a grader's details, a controller's task id)
 * shown on a terminal: control characters and bidirectional overrides could move the cursor, rewrite a line already
 * printed (a forged progress line or verdict) or reorder what is read, so each is shown as an escape instead.
 */

// C0 controls but tab and newline, DEL, C1 controls, and the Unicode bidirectional embeddings, overrides and isolates.
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every character that could rewrite what a terminal shows written as `\xNN` or `\u{NNNN}`. */
export function terminalText(text: string): string {
	return text.replace(unsafe, char => {
		const code = char.codePointAt(0)!;
		return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
	});
}
