import {evidenceBlocks, pageData} from './page-data.js';
import {pageScript} from './page-script.js';
import {pageStyle} from './page-style.js';
import {ReportInput} from './report-input.js';
import {scriptJson} from './script-json.js';
import type {TaskEvidence} from './task-evidence.js';

/** One self-contained HTML page (inline style and script, no request of any kind) for an attempt or a comparison. */
export function renderReportPage(input: ReportInput): string {
	const valid = ReportInput.parse(input);
	return [pageHead(valid), ...evidenceBlocks(valid).map(block => evidenceBlock(block.id, block.evidence)), pageEnd].join('\n');
}

/** Evidence blocks gathered into one piece of about this many characters before it is written. */
const pieceChars = 1 << 20;
/** Tasks whose evidence is read ahead of the block being written, so the reads overlap. */
const readAhead = 16;

/**
 * The same page as pieces for `writeReportPage`, each task's evidence asked for only as its block is reached (a few
 * ahead): the transcripts of ten thousand tasks are never held at once. `input` has been read by `loadReportInput`.
 */
export async function* reportPagePieces(input: ReportInput, evidenceOf: (side: number, index: number) => Promise<TaskEvidence>): AsyncGenerator<string> {
	let piece = pageHead(input);
	for (const [side, {report}] of input.sides.entries()) {
		const ahead: Array<Promise<TaskEvidence>> = [];
		for (let index = 0; index < report.tasks.length; index += 1) {
			while (ahead.length < readAhead && index + ahead.length < report.tasks.length) ahead.push(evidenceOf(side, index + ahead.length));
			piece += `\n${evidenceBlock(`hlab-ev-${side}-${index}`, await ahead.shift()!)}`;
			if (piece.length < pieceChars) continue;
			yield piece;
			piece = '';
		}
	}
	yield `${piece}\n${pageEnd}`;
}

/** Everything up to the evidence blocks: the page's data, style and script. */
function pageHead(input: ReportInput): string {
	const data = pageData(input);
	const title = input.kind === 'comparison' ? `hlab comparison: ${input.decision?.decision ?? 'no decision'}` : input.kind === 'candidates' ? `hlab candidates: ${input.family?.decision.accepted.length ?? 0} accepted` : `hlab attempt ${data.sides[0]?.attempt_id ?? ''}`;
	return [
		'<!doctype html>',
		'<html lang="en"><head><meta charset="utf-8">',
		// Nothing may load from anywhere: the policy forbids every fetch, and allows only this page's own style and script.
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		`<title>${escapeText(title)}</title>`,
		`<style>${pageStyle}</style>`,
		'</head><body>',
		`<script type="application/json" id="hlab-data">${scriptJson(data)}</script>`,
		'<noscript>This report needs JavaScript to show its tables.</noscript>',
		`<script>${pageScript}</script>`,
	].join('\n');
}

// After the script: the table is built and painted while the parser still reads the transcripts.
function evidenceBlock(id: string, evidence: TaskEvidence): string {
	return `<script type="application/json" id="${id}">${scriptJson(evidence)}</script>`;
}

const pageEnd = '</body></html>\n';

function escapeText(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
