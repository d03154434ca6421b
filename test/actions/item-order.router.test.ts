/**
 * The router's loop (`runEachItem`) keeps items on one record in item order at any concurrency,
 * on a fake clock: each item's request spends a random time in transit before the simulated
 * service acts on it, so without the order a later item would often be acted on first.
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import { FixedConcurrency } from '../../nodes/DataIntegrationManagement/actions/fixedConcurrency';
import type { Concurrency } from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { RunPace, SharedPace } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { FakeClock, seededRandom } from '../helpers/fake-clock';

const SETTINGS: Array<[string, (clock: FakeClock) => Concurrency]> = [
	['Fixed 1', (clock) => new FixedConcurrency(1, clock)],
	['Fixed 8', (clock) => new FixedConcurrency(8, clock)],
	['Auto', (clock) => new SharedPace(clock).join(Infinity)],
];

interface Simulated {
	/** Per record, its items in the order the service acted on them. */
	actedOn: Map<string, number[]>;
	mostInFlight: number;
	outcome: Awaited<ReturnType<typeof runEachItem>>;
}

/** Runs `records` (one per item) through the loop against a service with random transit times. */
async function simulate(
	records: string[],
	concurrencyOf: (clock: FakeClock) => Concurrency,
	seed: number,
	fails: (itemIndex: number) => boolean = () => false,
): Promise<Simulated> {
	const clock = new FakeClock();
	const random = seededRandom(seed);
	const concurrency = concurrencyOf(clock);
	const actedOn = new Map<string, number[]>();
	let inFlight = 0;
	let mostInFlight = 0;
	const runItem = async (itemIndex: number) => {
		mostInFlight = Math.max(mostInFlight, ++inFlight);
		const sentAt = clock.now();
		await clock.sleep(1 + random() * 300);
		const record = records[itemIndex];
		actedOn.set(record, [...(actedOn.get(record) ?? []), itemIndex]);
		await clock.sleep(1 + random() * 50);
		inFlight--;
		if (concurrency instanceof RunPace) concurrency.answered(clock.now() - sentAt, 'PUT tags *');
		if (fails(itemIndex)) throw new Error(`item ${itemIndex} failed`);
	};
	const outcome = await clock.run(
		runEachItem(records.length, concurrency, runItem, (itemIndex) => records[itemIndex], clock),
	);
	return { actedOn, mostInFlight, outcome };
}

/** `count` items spread over `recordCount` records at random. */
function recordsFor(count: number, recordCount: number, seed: number): string[] {
	const random = seededRandom(seed);
	return Array.from({ length: count }, () => `record-${Math.floor(random() * recordCount)}`);
}

describe.each(SETTINGS)('the router loop under %s', (setting, concurrencyOf) => {
	it.each([1, 3, 40])(
		'acts on the items of each record in item order (40 items on %i records, 20 seeds)',
		async (recordCount) => {
			for (let seed = 1; seed <= 20; seed++) {
				const records = recordsFor(40, recordCount, seed);
				const { actedOn, outcome } = await simulate(records, concurrencyOf, seed);
				expect(outcome.failures).toEqual([]);
				for (const [record, items] of actedOn) {
					const inItemOrder = records.flatMap((r, itemIndex) => (r === record ? [itemIndex] : []));
					expect(items).toEqual(inItemOrder);
				}
			}
		},
	);

	it('keeps items on other records in flight meanwhile (one at a time under Fixed 1)', async () => {
		const { mostInFlight } = await simulate(recordsFor(40, 3, 7), concurrencyOf, 7);
		if (setting === 'Fixed 1') expect(mostInFlight).toBe(1);
		else expect(mostInFlight).toBeGreaterThanOrEqual(3);
	});

	it('one record: one item at a time, whatever the concurrency', async () => {
		const { mostInFlight, actedOn } = await simulate(recordsFor(12, 1, 3), concurrencyOf, 3);
		expect(mostInFlight).toBe(1);
		expect(actedOn.get('record-0')).toEqual([...Array(12).keys()]);
	});

	it('sends nothing queued behind a failed item on its record, and says what was sent', async () => {
		// Items 0, 2, 4 on record a; 1, 3, 5 on record b; item 2 fails.
		const records = ['a', 'b', 'a', 'b', 'a', 'b'];
		const { actedOn, outcome } = await simulate(records, concurrencyOf, 5, (i) => i === 2);
		expect(actedOn.get('a')).toEqual([0, 2]);
		expect(outcome.failures.map(({ itemIndex }) => itemIndex)).toEqual([2]);
		expect(outcome.sent).not.toContain(4);
		// What was sent is in input order, whatever order it started in.
		expect(outcome.sent).toEqual([...outcome.sent].sort((x, y) => x - y));
		expect(outcome.sent).toEqual([...actedOn.values()].flat().sort((x, y) => x - y));
	});
});
