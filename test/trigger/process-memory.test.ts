/**
 * What the trigger keeps in the n8n process, through n8n-core's PollContext against the emulator:
 * bounded however many workflows come and go, and never taken up by another service or a new
 * activation (trigger/quietStates.ts; docs/n8n-schedulers.md, "What the process keeps").
 * Scheduled polls of n8n's durable scheduler run with activation 'update'; the poll on publishing
 * with 'activate'. Without durable poll cursors n8n hands each poll the static data last saved.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_QUIET_STATES } from '../../nodes/DataIntegrationManagement/trigger/quietStates';
import { quietStates, runningPolls } from '../../nodes/DataIntegrationManagement/trigger/poll';
import { useEmulator } from '../helpers/emulator';
import { pollTrigger, type ApiCredentials, type PollResult } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const SECOND = 1000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const iso = (instant: number) => new Date(instant).toISOString();
const events = (result: PollResult) => (result.items ?? []).map((item) => item.json.event);

/** A poll of a Start From Now trigger, the static data n8n last saved given (none: never saved). */
async function poll(
	workflowId: string,
	options: {
		activation?: 'activate' | 'update';
		staticData?: IDataObject;
		service?: ApiCredentials;
	} = {},
): Promise<PollResult> {
	return await pollTrigger({
		credentials: options.service ?? credentials(),
		parameters: { startFrom: 'now' },
		workflowId,
		staticData: options.staticData,
		activation: options.activation ?? 'update',
	});
}

beforeEach(() => {
	emulator().reset({ seed: false });
	emulator().addAuditEntries([{ timestamp: iso(T0), event: 'before' }]);
});

describe('what a quiet poll stored, n8n keeping nothing of it', () => {
	it('is taken up by the next scheduled poll of the same activation', async () => {
		expect((await poll('kept')).items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + SECOND), event: 'after the start' }]);
		expect(events(await poll('kept'))).toEqual(['after the start']);
	});

	it('is not taken up by a poll of another service polled as the same workflow and node', async () => {
		expect((await poll('two-services')).items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + SECOND), event: 'after the start' }]);
		// The same emulator under another base URL: to the trigger, another service.
		const other = {
			...credentials(),
			baseUrl: credentials().baseUrl.replace('127.0.0.1', 'localhost'),
		};
		const first = await poll('two-services', { service: other });
		// It starts at the newest entry, as a first poll does: it emits nothing.
		expect(first.items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + 2 * SECOND), event: 'later' }]);
		expect(events(await poll('two-services', { service: other }))).toEqual(['later']);
	});

	it('is not taken up by a new activation, whose stored state is empty too, and is dropped by it', async () => {
		expect((await poll('published-again')).items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + SECOND), event: 'while unpublished' }]);
		// Published again: the poll on publishing starts at the newest entry.
		expect((await poll('published-again', { activation: 'activate' })).items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + 2 * SECOND), event: 'after publishing' }]);
		expect(events(await poll('published-again'))).toEqual(['after publishing']);
	});

	it('is dropped once the stored state moved past it (n8n saved a poll that emitted)', async () => {
		expect((await poll('moved-past')).items).toBeNull();
		emulator().addAuditEntries([{ timestamp: iso(T0 + SECOND), event: 'after the start' }]);
		const emitting = await poll('moved-past');
		expect(events(emitting)).toEqual(['after the start']);
		const size = quietStates.size;
		expect((await poll('moved-past', { staticData: emitting.staticData })).items).toBeNull();
		// The quiet poll that read the saved state keeps its own: one, in place of the old one.
		expect(quietStates.size).toBe(size);
	});
});

describe('however many workflows come and go', () => {
	it(`keeps at most ${MAX_QUIET_STATES} triggers' states, and no lease once their polls ended`, async () => {
		const workflows = MAX_QUIET_STATES + 100;
		for (let i = 0; i < workflows; i++) {
			expect((await poll(`come-and-go-${i}`)).items).toBeNull();
			expect(runningPolls.size).toBe(0);
		}
		expect(quietStates.size).toBe(MAX_QUIET_STATES);
		emulator().addAuditEntries([{ timestamp: iso(T0 + SECOND), event: 'after the starts' }]);
		// The first ones' states were dropped (their polls start again); the last ones' kept.
		expect((await poll('come-and-go-0')).items).toBeNull();
		expect(events(await poll(`come-and-go-${workflows - 1}`))).toEqual(['after the starts']);
	}, 120_000);
});
