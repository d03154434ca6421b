/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Debian's Chromium, driven by playwright-core (which downloads no browser), opened on a fresh
 * profile that reaches nothing beyond loopback; the editor moves are in ./editor.ts.
 */
import { existsSync } from 'node:fs';

import { chromium, selectors, type Browser, type Page } from 'playwright-core';

import { runCommand } from '../lib/processes';

/** Debian's package `chromium` puts its launcher here. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, without a sandbox (the run may be root), and with nothing of Chromium's own that calls
 * out: no QUIC, no first-run tasks, no background networking, component updates or sync.
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Wide enough for the node panel's three columns, as on a laptop screen. */
export const VIEWPORT = { width: 1440, height: 900 };

const STEP_TIMEOUT_MS = 30_000;

/** Installs Debian's chromium when it is missing (as root: `apt-get install -y chromium`). */
export async function ensureChromium(): Promise<string> {
	if (!existsSync(CHROMIUM)) {
		if (process.getuid?.() !== 0)
			throw new Error(
				`${CHROMIUM} is missing; install Debian's chromium first: sudo apt-get install -y chromium`,
			);
		const install = ['install', '-y', '--no-install-recommends', 'chromium'];
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const installed = await runCommand('apt-get', install, {
			env,
			timeoutMs: 15 * 60_000,
			allowFailure: true,
		});
		if (installed.code !== 0) {
			// A fresh container may have no package lists yet.
			await runCommand('apt-get', ['update'], { env, timeoutMs: 15 * 60_000 });
			await runCommand('apt-get', install, { env, timeoutMs: 15 * 60_000 });
		}
	}
	// The launcher script may print a shell warning on stderr; the version is on stdout.
	const { stdout } = await runCommand(CHROMIUM, ['--version'], { timeoutMs: 60_000 });
	return stdout.trim();
}

/** Requests the page made that would have left the machine, which the browser refused. */
export interface BlockedRequests {
	urls: Set<string>;
}

/**
 * Chromium with a fresh, throwaway profile (playwright-core's default), and a page that may only
 * talk to the loopback interface: any other request is aborted and recorded.
 */
export async function openBrowser(): Promise<{
	browser: Browser;
	page: Page;
	blocked: BlockedRequests;
}> {
	// n8n's editor marks its elements with data-test-id, not Playwright's default data-testid.
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: CHROMIUM_ARGS,
		timeout: 60_000,
	});
	const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
	const blocked: BlockedRequests = { urls: new Set() };
	await context.route('**/*', async (route) => {
		const { protocol, hostname } = new URL(route.request().url());
		const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
		if (loopback || protocol === 'data:' || protocol === 'blob:') return await route.continue();
		blocked.urls.add(route.request().url());
		return await route.abort('blockedbyclient');
	});
	context.setDefaultTimeout(STEP_TIMEOUT_MS);
	const page = await context.newPage();
	return { browser, page, blocked };
}
