/**
 * What a fixed number in flight reaches against the highest single limit: the reference for
 * Auto's share there. If no Concurrency Fixed setting reaches the target either, what bounds the
 * share is this process (n8n's CPU for each request, its event loop's stalls), not the pacer.
 */
import type { RateLimitSpec } from '../emulator';
import type { ApiCredentials } from '../helpers/n8n';
import type { EmulatorProcess } from './emulator-process';
import { createTagsOnce } from './tag-creates';
import { percent, progress } from './tools';

/** The Concurrency Fixed settings tried, one run each. */
export const FIXED_REFERENCE = [16, 32, 64];

/** The service and whose tags to create: what the Auto targets measure against. */
export interface TagTarget {
	emulator: EmulatorProcess;
	credentials: ApiCredentials;
	owner: string;
}

export async function fixedReference(
	context: TagTarget,
	limit: RateLimitSpec,
	items: number,
	out: string[],
) {
	const shares: number[] = [];
	for (const concurrency of FIXED_REFERENCE) {
		await context.emulator.reset();
		await context.emulator.setRateLimit(limit);
		const run = await createTagsOnce(
			context.credentials,
			context.owner,
			`fixed ${concurrency}`,
			items,
			{ concurrencyMode: 'fixed', concurrency },
		);
		const share =
			run.succeeded / (((run.endedAt - run.startedAt) / 1000) * limit.requestsPerSecond);
		progress(
			`${limit.requestsPerSecond}/s, Concurrency Fixed ${concurrency}: ${percent(share)} of the limit`,
		);
		shares.push(share);
	}
	const each = FIXED_REFERENCE.map((c, i) => `${c}: ${percent(shares[i])}`).join(', ');
	out.push(
		`    ${limit.requestsPerSecond}/s, Concurrency Fixed instead of Auto (one run each; items that failed count as not made): ${each}; the best ${percent(Math.max(...shares))}`,
	);
}
