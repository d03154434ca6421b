/**
 * One execution of the action node creating `items` tags at its defaults (Concurrency
 * Auto) or with the `options` given: when it started and ended, and how many tags it
 * made. The benchmark runs it in its own process (auto-targets.ts, fixed-reference.ts) and in
 * processes of their own (auto-worker.ts).
 */
import type { INodeParameters } from 'n8n-workflow';

import { runActionNode, type ApiCredentials } from '../helpers/n8n';

/** `count` items naming tags `<label> 0`, `<label> 1`, …: what the benchmark's tag creates read. */
export const namedTags = (label: string, count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `${label} ${index}` }));

export interface TagCreates {
	startedAt: number;
	endedAt: number;
	succeeded: number;
}

export async function createTagsOnce(
	credentials: ApiCredentials,
	owner: string,
	label: string,
	items: number,
	options?: INodeParameters,
): Promise<TagCreates> {
	const startedAt = Date.now();
	const result = await runActionNode({
		credentials,
		mode: 'trigger',
		continueOnFail: true,
		items: namedTags(label, items),
		parameters: {
			resource: 'tag',
			operation: 'create',
			name: '={{ $json.name }}',
			owner: { __rl: true, mode: 'id', value: owner },
			...(options && { options }),
		},
	});
	const succeeded = result.items.filter((item) => typeof item.json.id === 'string').length;
	return { startedAt, endedAt: Date.now(), succeeded };
}
