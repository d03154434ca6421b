/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * One execution of the action node in a process of its own (a queue-mode worker, say), for the
 * benchmark's "several processes" target: tag creates at the node's defaults (Concurrency
 * Auto), started at an agreed time. Prints what happened as one line of JSON.
 *
 * Argument: JSON { baseUrl, apiKey, owner, items, label, startAt (epoch ms) }.
 */
import { createTagsOnce } from './tag-creates';

async function main() {
	const job = JSON.parse(process.argv[2]) as {
		baseUrl: string;
		apiKey: string;
		owner: string;
		items: number;
		label: string;
		startAt: number;
	};
	process.env.N8N_LOG_LEVEL ??= 'silent';
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - Date.now())));
	const run = await createTagsOnce(
		{ baseUrl: job.baseUrl, apiKey: job.apiKey },
		job.owner,
		job.label,
		job.items,
	);
	console.log(JSON.stringify(run));
}

void main();
