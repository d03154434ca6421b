/**
 * The router's loop (`runEachItem`) reads later items' records while an item waits for a slot,
 * and only then: on a fake clock, what it reads and when, against when each item starts.
 */
import {
	READ_AHEAD_SLICE_MS,
	runEachItem,
} from '../../nodes/DataIntegrationManagement/actions/router';
import { FixedConcurrency } from '../../nodes/DataIntegrationManagement/actions/fixedConcurrency';
import type { Clock, Concurrency } from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { INITIAL_WINDOW } from '../../nodes/DataIntegrationManagement/pacing/controller';
import { SharedPace } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { FakeClock } from '../helpers/fake-clock';

/**
 * Runs `count` items, each `inFlightMs` in flight, and logs each record read, each item's start
 * and each time the loop lets answers in (a timer tick); each read takes `readMs` of the loop's
 * time.
 */
async function logOf(
	count: number,
	concurrencyOf: (clock: FakeClock) => Concurrency,
	{ readMs = 0, inFlightMs = 10 } = {},
): Promise<string[]> {
	const clock = new FakeClock();
	const log: string[] = [];
	let spent = 0;
	const loopClock: Clock = {
		now: () => clock.now() + spent,
		sleep: async (ms) => {
			log.push('tick');
			await clock.sleep(ms);
		},
	};
	const runItem = async (itemIndex: number) => {
		log.push(`start ${itemIndex}`);
		await clock.sleep(inFlightMs);
	};
	const recordOf = (itemIndex: number) => {
		log.push(`read ${itemIndex}`);
		spent += readMs;
		return `record ${itemIndex}`;
	};
	await clock.run(runEachItem(count, concurrencyOf(clock), runItem, recordOf, loopClock));
	return log;
}

describe('the router loop reads ahead', () => {
	it.each<[string, number, (clock: FakeClock) => Concurrency, string[]]>([
		[
			'while Fixed 1 waits for its one slot: every later record before the first answer',
			4,
			(clock) => new FixedConcurrency(1, clock),
			['read 0', 'start 0', 'read 1', 'tick', 'read 2', 'read 3', 'start 1', 'start 2', 'start 3'],
		],
		[
			'never while a slot is free (Fixed 8): each record as its item starts',
			4,
			(clock) => new FixedConcurrency(8, clock),
			['read 0', 'start 0', 'read 1', 'start 1', 'read 2', 'start 2', 'read 3', 'start 3'],
		],
		[
			'under Auto once its first window is in flight, not while two starts a tick wait their turn',
			INITIAL_WINDOW + 2,
			(clock) => new SharedPace(clock).join(),
			[
				...Array.from({ length: INITIAL_WINDOW }, (_, item) => [
					`read ${item}`,
					`start ${item}`,
				]).flat(),
				...[`read ${INITIAL_WINDOW}`, 'tick', `read ${INITIAL_WINDOW + 1}`],
				...[`start ${INITIAL_WINDOW}`, `start ${INITIAL_WINDOW + 1}`],
			],
		],
	])('%s', async (_, count, concurrencyOf, expected) => {
		expect(await logOf(count, concurrencyOf)).toEqual(expected);
	});

	it(`a slice of ${READ_AHEAD_SLICE_MS} ms at a time, then lets answers in`, async () => {
		const log = await logOf(7, (clock) => new FixedConcurrency(1, clock), { readMs: 1 });
		expect(log.slice(0, 11)).toEqual([
			...['read 0', 'start 0', 'read 1'],
			...['tick', 'read 2', 'read 3', 'tick', 'read 4', 'read 5', 'tick', 'read 6'],
		]);
		expect(log.slice(11)).toEqual([
			'start 1',
			'start 2',
			'start 3',
			'start 4',
			'start 5',
			'start 6',
		]);
	});

	it('no further once the slot comes: an answer before the tick ends the reading', async () => {
		// Each item is answered at once, before the loop's tick: its slot is free again first.
		const log = await logOf(4, (clock) => new FixedConcurrency(1, clock), { inFlightMs: 0 });
		// The last item has nothing after it to read.
		expect(log).toEqual([
			...['read 0', 'start 0', 'read 1', 'tick', 'start 1', 'read 2', 'tick', 'start 2'],
			...['read 3', 'start 3'],
		]);
	});
});
