import {copyFile, mkdir} from 'node:fs/promises';
import {basename, join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {pathToFileURL} from 'node:url';
import chromium from '@sparticuz/chromium';
import {chromium as playwright, type Browser, type Page} from 'playwright-core';
import type {Test} from 'tap';

// Nothing that talks to the network, nothing a sandbox-less container cannot run.
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** A headless Chromium (the binary shipped inside @sparticuz/chromium), closed when the test ends. */
export async function launchBrowser(t: Test): Promise<Browser> {
	const browser = await launchHeadless();
	t.teardown(() => browser.close());
	return browser;
}

/** The same browser for a caller that closes it itself (the bench). */
export async function launchHeadless(): Promise<Browser> {
	return launchOnceWritten(await chromium.executablePath());
}

/**
 * The binary is unpacked into the run's shared TMPDIR by whichever test file asks first; another file that finds it
 * there while it is still being written gets ETXTBSY, and launches once the writer has closed it.
 */
async function launchOnceWritten(executablePath: string): Promise<Browser> {
	for (let tries = 1; ; tries++) {
		try {
			return await playwright.launch({executablePath, args});
		} catch (error) {
			if (tries >= 20 || !String((error as Error).message).includes('ETXTBSY')) throw error;
			await sleep(500);
		}
	}
}

/** What a page did while it was open: console errors, uncaught errors, dialogs, and every request other than the page's own file. */
export interface PageWatch {
	errors: string[];
	requests: string[];
	dialogs: string[];
}

/**
 * Opens a local page in a fresh context and watches it; `pageUrl` is the file itself, the one load that is not a request of the page.
 * `mainThreadMs()` is the CPU time the page's main thread has spent in its tasks since before it loaded (parsing, script,
 * style, layout, paint): unlike its wall clock, it is the page's own work, whatever else the machine is running.
 */
export async function openPage(browser: Browser, file: string): Promise<{page: Page; watch: PageWatch; mainThreadMs: () => Promise<number>}> {
	const context = await browser.newContext({viewport: {width: 1400, height: 900}});
	const page = await context.newPage();
	const devtools = await context.newCDPSession(page);
	// threadTicks: durations in the thread's CPU time, not wall time.
	await devtools.send('Performance.enable', {timeDomain: 'threadTicks'});
	const mainThreadMs = async (): Promise<number> => {
		const {metrics} = await devtools.send('Performance.getMetrics');
		return Math.round((metrics.find(metric => metric.name === 'TaskDuration')?.value ?? Number.NaN) * 1000);
	};
	const pageUrl = pathToFileURL(file).href;
	const watch: PageWatch = {errors: [], requests: [], dialogs: []};
	page.on('console', message => {
		if (message.type() === 'error') watch.errors.push(message.text());
	});
	page.on('pageerror', error => watch.errors.push(String(error)));
	page.on('dialog', dialog => {
		watch.dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	page.on('request', request => {
		if (request.url() !== pageUrl) watch.requests.push(request.url());
	});
	await page.goto(pageUrl, {waitUntil: 'load'});
	return {page, watch, mainThreadMs};
}

/** Saves a screenshot in the test's folder; with HLAB_KEEP_SCREENSHOTS=DIR a copy outlives the test, for a person to look at. */
export async function screenshot(page: Page, path: string): Promise<void> {
	await page.screenshot({path, fullPage: true});
	const keep = process.env.HLAB_KEEP_SCREENSHOTS;
	if (keep) {
		await mkdir(keep, {recursive: true});
		await copyFile(path, join(keep, basename(path)));
	}
}
