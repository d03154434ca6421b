/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Requests held in transit (see HoldSpec): a held request reaches the service `ms` after it was
 * sent, so requests sent after it are acted on first. A client that keeps two writes to one
 * record in order never sends the later one while the first is held; one that does not sees the
 * later write overwritten by the earlier one.
 */
import { setTimeout as delay } from 'node:timers/promises';

import { ArmedQueue, isWholeNumber, validateSwitch } from './armed';
import type { HoldSpec } from './types';

export function validateHold(input: unknown): HoldSpec {
	return validateSwitch<HoldSpec>(input, 'hold', ['ms'], (hold) => [
		[isWholeNumber(hold.ms, 1, 60_000), 'ms must be an integer from 1 to 60000'],
	]);
}

export class InTransit extends ArmedQueue<HoldSpec> {
	add(hold: HoldSpec): void {
		super.add(validateHold(hold));
	}

	/** Resolves when a request of `method` to `path` reaches the service. */
	async pass(method: string, path: string): Promise<void> {
		const hold = this.take(method, path);
		if (hold) await delay(hold.ms);
	}
}
