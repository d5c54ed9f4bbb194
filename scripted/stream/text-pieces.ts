/** A text cut into a few pieces (at most `count`, never empty ones), as a model streams it; joined they are the text. */
export function textPieces(text: string, count = 3): string[] {
	const characters = [...text];
	const size = Math.max(1, Math.ceil(characters.length / count));
	const pieces: string[] = [];
	for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''));
	return pieces;
}
