/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The few editor moves the screenshots need, in the browser ./browser.ts opens: signing in
 * through the login page, the node creator, the node panel (NDV) and its dropdowns. Locators use
 * the editor's own `data-test-id` attributes, the ones n8n's UI tests use. Every wait has a time
 * limit, and a failure says what was missing and where a screenshot of the page at that moment is.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import type { Owner } from '../lib/rest';
import { VIEWPORT } from './browser';

/** The first line of each text: an option's name without its description. */
function headlines(texts: string[]): string[] {
	return texts.map((text) => text.split('\n')[0].trim());
}

export class Editor {
	constructor(
		readonly page: Page,
		readonly baseUrl: string,
		/** Where a failure's screenshot of the page goes. */
		readonly debugDir: string,
	) {}

	/** Saves what the page shows now, for a failure message; never fails itself. */
	async debugScreenshot(name: string): Promise<string> {
		mkdirSync(this.debugDir, { recursive: true });
		const file = join(this.debugDir, `${name}.png`);
		try {
			await this.page.screenshot({ path: file, timeout: 10_000 });
			return file;
		} catch (error) {
			return `(no screenshot: ${(error as Error).message.split('\n')[0]})`;
		}
	}

	/** Runs `body`; if it fails, adds a screenshot of the page at that moment to the error. */
	async attempt<T>(name: string, body: () => Promise<T>): Promise<T> {
		try {
			return await body();
		} catch (error) {
			const message = (error as Error).message;
			if (message.includes('Screenshot of the page:')) throw error;
			const file = await this.debugScreenshot(`failed-${name}`);
			throw new Error(`${message}\nScreenshot of the page: ${file}`);
		}
	}

	/** Signs in through the editor's login page, as a person would. */
	async signIn(owner: Owner): Promise<void> {
		const { page } = this;
		await page.goto(`${this.baseUrl}/signin`);
		await page.getByLabel('Email').fill(owner.email);
		await page.getByLabel('Password').fill(owner.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}

	/** A new, empty workflow started from a Manual Trigger (picked in the node creator). */
	async newWorkflowWithManualTrigger(): Promise<void> {
		const { page } = this;
		await page.goto(`${this.baseUrl}/workflow/new`);
		await page.getByTestId('node-creator-plus-button').click();
		await page
			.getByTestId('node-creator')
			.getByTestId('node-creator-item-name')
			.getByText('Trigger manually', { exact: true })
			.click();
		await page.getByTestId('canvas-trigger-node').waitFor();
	}

	/**
	 * Adds a node as a person does: the node creator's "+", a search, the node, then one of its
	 * actions. Returns the actions the node creator listed for the node.
	 */
	async addNodeFromCreator(search: string, nodeName: string, action: string): Promise<string[]> {
		const { page } = this;
		const creator = page.getByTestId('node-creator');
		await page.getByTestId('node-creator-plus-button').click();
		await page.getByTestId('node-creator-search-bar').fill(search);
		await creator
			.getByTestId('node-creator-item-name')
			.getByText(nodeName, { exact: true })
			.click();
		const actionItem = creator.getByText(action, { exact: true });
		await actionItem.waitFor();
		const actions = await creator.getByTestId('node-creator-item-name').allInnerTexts();
		await actionItem.click();
		return actions;
	}

	/** Opens a node of the workflow on the canvas in the node panel. */
	async openNode(nodeName: string): Promise<void> {
		await this.page.getByTestId('canvas-node').filter({ hasText: nodeName }).first().dblclick();
	}

	/**
	 * Fails unless the node panel (NDV) is open and shows a parameter under each label, i.e. the
	 * editor loaded the node type and rendered its parameters.
	 */
	async expectNodePanel(what: string, labels: string[], timeoutMs = 20_000): Promise<void> {
		const ndv = this.page.getByTestId('ndv');
		const missing = async (problem: string): Promise<never> => {
			const file = await this.debugScreenshot(`ndv-${what.replace(/\W+/g, '-')}`);
			throw new Error(
				`The node panel did not render for ${what}: ${problem} within ${timeoutMs / 1000} s.\n` +
					`Screenshot of the page: ${file}`,
			);
		};
		await ndv.waitFor({ state: 'visible', timeout: timeoutMs }).catch(async () => {
			await missing('no node panel (NDV) opened');
		});
		const parameters = ndv.getByTestId('node-parameters');
		for (const label of labels) {
			await parameters
				.getByTestId('input-label')
				.getByText(label, { exact: true })
				.first()
				.waitFor({ state: 'visible', timeout: timeoutMs })
				.catch(async () => await missing(`no parameter labelled "${label}"`));
		}
	}

	/** The node panel's credential, selected if the editor did not preselect it. */
	async ensureCredential(credential: { id: string; name: string }): Promise<void> {
		const select = this.page.getByTestId('ndv').getByTestId('node-credentials-select');
		if ((await select.locator('input').inputValue()) === credential.name) return;
		await select.click();
		await this.page.getByTestId(`node-credentials-select-item-${credential.id}`).click();
		const selected = await select.locator('input').inputValue();
		if (selected !== credential.name)
			throw new Error(
				`The credential "${credential.name}" could not be selected (shows "${selected}")`,
			);
	}

	/** The dropdown list that is open now. */
	private openList(): Locator {
		return this.page.locator('.el-select__popper:visible');
	}

	/**
	 * Opens a parameter's dropdown and waits until it lists `waitFor`. Returns the names it lists.
	 * Options that load from the service arrive after the list opens, and a list whose options
	 * depend on another parameter reloads (and may close) just after that parameter changes: the
	 * list is opened again until the option shows or `timeoutMs` has passed.
	 */
	async openDropdown(parameter: string, waitFor: string, timeoutMs = 30_000): Promise<string[]> {
		const input = this.page.getByTestId(`parameter-input-${parameter}`);
		const list = this.openList();
		const option = list.getByRole('option').filter({ hasText: waitFor }).first();
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			// Another list still closing would take the click.
			await list.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
			await input.click();
			const shown = await option.waitFor({ timeout: 5_000 }).then(
				() => true,
				() => false,
			);
			if (shown) return headlines(await list.getByRole('option').allInnerTexts());
			if (Date.now() > deadline) {
				const texts = headlines(await list.getByRole('option').allInnerTexts());
				throw new Error(
					`The "${parameter}" list shows no "${waitFor}" after ${timeoutMs / 1000} s; ` +
						`it shows: ${texts.join(', ') || 'nothing'}`,
				);
			}
			// Close it (a click on the field toggles the list) and try again.
			if (await list.isVisible()) await input.click();
		}
	}

	/** Picks an option of a parameter's dropdown; returns the names the list showed. */
	async choose(parameter: string, option: string): Promise<string[]> {
		const shown = await this.openDropdown(parameter, option);
		await this.openList()
			.getByRole('option')
			.filter({ has: this.page.getByText(option, { exact: true }) })
			.first()
			.click();
		await this.expectValue(parameter, option);
		return shown;
	}

	async expectValue(parameter: string, value: string): Promise<void> {
		const input = this.page.getByTestId(`parameter-input-${parameter}`).locator('input').first();
		await input.waitFor();
		const shown = await input.inputValue();
		if (shown !== value)
			throw new Error(`The parameter "${parameter}" shows "${shown}" instead of "${value}"`);
	}

	async fill(parameter: string, value: string): Promise<void> {
		await this.page
			.getByTestId(`parameter-input-${parameter}`)
			.locator('input')
			.first()
			.fill(value);
	}

	/**
	 * Opens a resource locator's "From List" dropdown and waits for its items. Returns their text.
	 */
	async openResourceList(parameter: string): Promise<string[]> {
		const locator = this.page.getByTestId(`resource-locator-${parameter}`);
		await locator.getByTestId('rlc-input').click();
		const items = this.page.getByTestId('rlc-item');
		await items.first().waitFor();
		return await items.allInnerTexts();
	}

	/** Picks `name` from a resource locator's "From List" dropdown; returns the names it showed. */
	async pickFromResourceList(parameter: string, name: string): Promise<string[]> {
		const shown = await this.openResourceList(parameter);
		await this.page
			.getByTestId('rlc-item')
			.filter({ has: this.page.getByText(name, { exact: true }) })
			.first()
			.click();
		return shown;
	}

	/**
	 * Scrolls the node panel's parameters so that a parameter (with its label) is at the top,
	 * just under the panel's Parameters/Settings tabs.
	 */
	async scrollParameterToTop(parameter: string): Promise<void> {
		await this.page.getByTestId(`parameter-input-${parameter}`).evaluate((input) => {
			const item = input.closest('[data-test-id="parameter-item"]') ?? input;
			const tabs = input.ownerDocument.querySelector('[data-test-id="tab-params"]');
			const view = input.ownerDocument.defaultView;
			let scroller = item.parentElement;
			while (
				scroller &&
				!(
					scroller.scrollHeight > scroller.clientHeight &&
					/auto|scroll/.test(view?.getComputedStyle(scroller).overflowY ?? '')
				)
			)
				scroller = scroller.parentElement;
			if (!scroller || !tabs) return item.scrollIntoView({ block: 'start' });
			scroller.scrollTop +=
				item.getBoundingClientRect().top - tabs.getBoundingClientRect().bottom - 12;
		});
	}

	/** Moves the mouse off the panel, so that no hover highlight shows in the picture. */
	async moveMouseAway(): Promise<void> {
		await this.page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height - 5);
	}

	/** No focus ring and no hover highlight in the picture (closes any open list). */
	async settle(): Promise<void> {
		await this.moveMouseAway();
		// A string: this project's TypeScript has no DOM types.
		await this.page.evaluate('document.activeElement?.blur()');
	}

	/** A screenshot of the whole window, with animations run to their end. */
	async screenshot(file: string): Promise<void> {
		await this.page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
	}
}
