import {evidenceBlocks, pageData} from './page-data.js';
import {pageScript} from './page-script.js';
import {pageStyle} from './page-style.js';
import {ReportInput} from './report-input.js';
import {scriptJson} from './script-json.js';

/** One self-contained HTML page (inline style and script, no request of any kind) for an attempt or a comparison. */
export function renderReportPage(input: ReportInput): string {
	const valid = ReportInput.parse(input);
	const data = pageData(valid);
	const title = valid.kind === 'comparison' ? `hlab comparison: ${valid.decision?.decision ?? 'no decision'}` : valid.kind === 'candidates' ? `hlab candidates: ${valid.family?.decision.accepted.length ?? 0} accepted` : `hlab attempt ${data.sides[0]?.attempt_id ?? ''}`;
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
		// After the script: the table is built and painted while the parser still reads the transcripts.
		...evidenceBlocks(valid).map(block => `<script type="application/json" id="${block.id}">${scriptJson(block.evidence)}</script>`),
		'</body></html>',
		'',
	].join('\n');
}

function escapeText(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
