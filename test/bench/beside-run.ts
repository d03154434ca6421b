/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Section B of the benchmark: a picker and a trigger poll beside a bulk run under Concurrency
 * Auto, against a service limited to 1 request a second (the case: the owner picker took
 * 23 to 52 s, and a poll with a 10 s budget ran out). The run creates ITEMS tags from the start;
 * at 5 s the Create form's owner picker lists users; at 10 s, after an audit entry is added, the
 * trigger polls with a 10 s budget. The picker must answer within 5 s, the poll within its budget
 * with the new entry, and the run fail nothing.
 */
import type { INodeListSearchResult } from 'n8n-workflow';

import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { callNodeMethod, pollTrigger } from '../helpers/n8n';
import { OWNER, SMOKE, type BenchContext } from './settings';
import { createTagsOnce } from './tag-creates';
import { lower, progress, seconds, type Verdict } from './tools';

const LIMIT = { requestsPerSecond: 1, burst: 1 };
const ITEMS = SMOKE ? 12 : 30;
const PICKER_AT_MS = 5000;
const POLL_AT_MS = 10_000;
const POLL_BUDGET_MS = 10_000;
/** One request's turn at the limit: where a request falls in it moves these figures by up to it. */
const TURN_S = 1 / LIMIT.requestsPerSecond;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** What a request took and how it ended. */
async function timedCall<T>(call: () => Promise<T>) {
	const started = Date.now();
	try {
		return { value: await call(), ms: Date.now() - started };
	} catch (error) {
		return { error: (error as Error).message, ms: Date.now() - started };
	}
}

/** The owner picker (Tag → Create's owner list) at PICKER_AT_MS into the run. */
async function picker(context: BenchContext) {
	await sleep(PICKER_AT_MS);
	return await timedCall(
		async () =>
			await callNodeMethod<INodeListSearchResult>({
				credentials: context.credentials,
				method: 'searchUsers',
				parameters: { resource: 'tag', operation: 'create' },
			}),
	);
}

/** A poll with POLL_BUDGET_MS at POLL_AT_MS into the run, after an audit entry is added. */
async function poll(context: BenchContext, staticData: object) {
	await sleep(POLL_AT_MS);
	await context.emulator.addAuditEntries([
		{ timestamp: new Date().toISOString(), event: 'Beside a bulk run' },
	]);
	return await timedCall(
		async () =>
			await pollTrigger({
				credentials: context.credentials,
				parameters: { startFrom: 'now' },
				staticData: staticData as never,
				pollBudgetMs: POLL_BUDGET_MS,
			}),
	);
}

export async function measureBesideRun(
	context: BenchContext,
): Promise<{ out: string[]; verdicts: Verdict[] }> {
	progress('a picker and a poll beside a bulk run at 1 request a second');
	await context.emulator.reset();
	processPaces.clear();
	const first = await pollTrigger({
		credentials: context.credentials,
		parameters: { startFrom: 'now' },
	});
	await context.emulator.setRateLimit(LIMIT);
	const [run, listed, polled] = await Promise.all([
		createTagsOnce(context.credentials, OWNER, 'beside', ITEMS),
		picker(context),
		poll(context, first.staticData),
	]);
	await context.emulator.setRateLimit(undefined);
	const emitted = 'value' in polled ? (polled.value?.items?.length ?? 0) : 0;
	const pickerFigure = 'error' in listed ? `failed: ${listed.error}` : 'answered';
	const pollFigure = 'error' in polled ? `failed: ${polled.error}` : `${emitted} emitted`;
	return {
		out: [
			'',
			`B. Beside a bulk run: ${ITEMS} x tag create under Auto against 1 request a second; the owner picker at ${seconds(PICKER_AT_MS)}, a poll with a ${seconds(POLL_BUDGET_MS)} budget at ${seconds(POLL_AT_MS)} (one audit entry added just before)`,
			`  run: ${ITEMS - run.succeeded} failed, ${seconds(run.endedAt - run.startedAt)}; picker: ${pickerFigure} in ${seconds(listed.ms)}; poll: ${pollFigure} in ${seconds(polled.ms)}`,
		],
		verdicts: [
			[
				'(B) the run beside them: failed items',
				String(ITEMS - run.succeeded),
				'0',
				run.succeeded === ITEMS,
			],
			[
				'(B) the owner picker beside the run',
				`${pickerFigure}, ${seconds(listed.ms)}`,
				'answers, <= 5 s',
				!('error' in listed) && listed.ms <= 5000,
				lower('B picker beside a run, s', listed.ms / 1000, TURN_S),
			],
			[
				'(B) a poll beside the run, with what is new',
				`${pollFigure}, ${seconds(polled.ms)}`,
				`>= 1 emitted, <= ${seconds(POLL_BUDGET_MS)}`,
				emitted >= 1 && polled.ms <= POLL_BUDGET_MS,
				lower('B poll beside a run, s', polled.ms / 1000, TURN_S),
			],
		],
	};
}
