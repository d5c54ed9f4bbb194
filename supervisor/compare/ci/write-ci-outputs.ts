import {appendFile} from 'node:fs/promises';
import {writeBytes} from '../../../files/write-json.js';
import type {Decision} from '../decision-schema.js';
import type {CandidatesDecision} from '../candidates-decision-schema.js';
import {junitXml} from './junit-xml.js';
import {summaryMarkdown} from './summary-markdown.js';

export interface CiOutputs {
	/** JUnit XML, written once (never overwritten). */
	junit: string | null;
	/** The Markdown summary, written once (never overwritten). */
	summary: string | null;
	/** `$GITHUB_STEP_SUMMARY`: a job's summary file, which GitHub expects steps to append to. */
	stepSummary: string | null;
	/** The comparison page, linked from the summary. */
	page: string | null;
}

/** Writes what a CI system reads beside the decision: JUnit XML and a Markdown summary. */
export async function writeCiOutputs(decision: Decision | CandidatesDecision, outputs: CiOutputs): Promise<void> {
	if (outputs.junit !== null) await writeBytes(outputs.junit, junitXml(decision), {exclusive: true, durable: true});
	const markdown = summaryMarkdown(decision, outputs.page);
	if (outputs.summary !== null) await writeBytes(outputs.summary, markdown, {exclusive: true, durable: true});
	if (outputs.stepSummary !== null) await appendFile(outputs.stepSummary, markdown);
}
