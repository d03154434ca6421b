/**
 * What the trigger keeps in the n8n process between polls (trigger/quietStates.ts), rule by rule:
 * when a poll goes on from what the last quiet poll of its trigger stored, when that is dropped,
 * and the bounds. Pure: a clock of the test's own.
 */
import type { CursorState } from '../../nodes/DataIntegrationManagement/trigger/cursor';
import {
	MAX_QUIET_STATES,
	QUIET_STATE_MAX_AGE_MS,
	QuietStates,
	type PollAsking,
	type QuietState,
} from '../../nodes/DataIntegrationManagement/trigger/quietStates';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const stateAt = (cursor: string): CursorState => ({
	origin: 'now',
	floor: cursor,
	cursor,
	seen: {},
});
const QUIET: QuietState = {
	credential: 'service A, key 1',
	origin: 'now',
	read: 'null',
	state: stateAt('2026-11-01T00:00:00.000Z'),
};
const ASKING: PollAsking = {
	credential: QUIET.credential,
	origin: QUIET.origin,
	read: QUIET.read,
	startsActivation: false,
};

describe('resume: whether a poll goes on from what the last quiet poll of its trigger stored', () => {
	test.each<[string, Partial<PollAsking>, boolean]>([
		['the same activation, stored state, credential and start: it goes on', {}, true],
		[
			'a poll that starts an activation (publishing, n8n starting), its stored state empty too',
			{ startsActivation: true },
			false,
		],
		[
			'the stored state moved past it (n8n saved a poll that emitted, or another main)',
			{ read: '{"origin":"now"}' },
			false,
		],
		[
			'another service or key (the same workflow and node)',
			{ credential: 'service B, key 1' },
			false,
		],
		['another start (Start From changed)', { origin: 'date:2026-10-01T00:00:00.000Z' }, false],
	])('%s', (_, asking, takenUp) => {
		const states = new QuietStates();
		states.remember('wf:node', QUIET);
		expect(states.resume('wf:node', { ...ASKING, ...asking })).toStrictEqual(
			takenUp ? QUIET.state : undefined,
		);
		// Taken up, it stays for the next poll; anything else made it stale: it is gone.
		expect(states.size).toBe(takenUp ? 1 : 0);
		expect(states.resume('wf:node', ASKING)).toStrictEqual(takenUp ? QUIET.state : undefined);
	});

	it('gives nothing for a trigger nothing was kept for', () => {
		const states = new QuietStates();
		states.remember('wf:node', QUIET);
		expect(states.resume('wf:other', ASKING)).toBeUndefined();
		expect(states.size).toBe(1);
	});

	it('keeps what the latest quiet poll stored, in place of the one before', () => {
		const states = new QuietStates();
		states.remember('wf:node', QUIET);
		const later = { ...QUIET, read: '"read later"', state: stateAt('2026-11-01T00:05:00.000Z') };
		states.remember('wf:node', later);
		expect(states.size).toBe(1);
		expect(states.resume('wf:node', { ...ASKING, read: later.read })).toStrictEqual(later.state);
	});
});

describe('the bounds', () => {
	it(`keeps at most ${MAX_QUIET_STATES} triggers' states, dropping the least recently used`, () => {
		const states = new QuietStates();
		for (let i = 0; i < MAX_QUIET_STATES; i++) states.remember(`wf-${i}:node`, QUIET);
		// Used again: no longer the least recently used.
		expect(states.resume('wf-0:node', ASKING)).toStrictEqual(QUIET.state);
		states.remember('wf-new:node', QUIET);
		expect(states.size).toBe(MAX_QUIET_STATES);
		expect(states.resume('wf-1:node', ASKING)).toBeUndefined();
		expect(states.resume('wf-0:node', ASKING)).toStrictEqual(QUIET.state);
		expect(states.resume('wf-new:node', ASKING)).toStrictEqual(QUIET.state);
	});

	test.each<[string, number, boolean]>([
		// title, ms since it was last used, still there
		['used within the age limit', QUIET_STATE_MAX_AGE_MS, true],
		['not used for longer (its workflow most likely gone)', QUIET_STATE_MAX_AGE_MS + 1, false],
	])('a state %s', (_, elapsedMs, kept) => {
		let now = T0;
		const states = new QuietStates(undefined, () => now);
		states.remember('gone:node', QUIET);
		now += elapsedMs;
		// Any poll of any trigger drops what is too old.
		states.remember('other:node', QUIET);
		expect(states.size).toBe(kept ? 2 : 1);
		expect(states.resume('gone:node', ASKING)).toStrictEqual(kept ? QUIET.state : undefined);
	});

	it('counts the age from the last use, not from when it was first kept', () => {
		let now = T0;
		const states = new QuietStates(undefined, () => now);
		states.remember('wf:node', QUIET);
		now += QUIET_STATE_MAX_AGE_MS;
		expect(states.resume('wf:node', ASKING)).toStrictEqual(QUIET.state);
		now += QUIET_STATE_MAX_AGE_MS;
		expect(states.resume('wf:node', ASKING)).toStrictEqual(QUIET.state);
	});
});
