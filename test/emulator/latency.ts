/**
 * The latency added to every /v1 answer, as a network and a service's own time vary: a fixed
 * `ms`, or drawn uniformly between `ms` and `maxMs` (jitter), and one answer in `tailOneIn` that
 * takes `tailMs` instead (a heavy tail). The tail is drawn at random, not every n-th answer, so it
 * falls on no request in step with a client's batches; the generator is seeded (`seed`, default
 * 1) and starts again at each `set`, so one order of arrivals always gets the same latencies.
 * The capacity model's service time takes the same tail (capacity.ts).
 */
import { drawMs, seededRandom, type Spread } from '../helpers/random';
import { isWholeNumber } from './armed';
import { badRequest } from './errors';
import { isPlainObject } from './validation';

export interface LatencySpec extends Spread {
	/** Seeds the draws of `maxMs` and the tail; default 1. */
	seed?: number;
}

/** The checks of a tail and a seed: `tailMs` and `tailOneIn` together, whole numbers. */
export function tailRules(input: Record<string, unknown>): Array<[boolean, string]> {
	const { tailMs, tailOneIn, seed } = input;
	return [
		[(tailMs === undefined) === (tailOneIn === undefined), 'tailMs and tailOneIn go together'],
		[tailMs === undefined || isWholeNumber(tailMs, 0), 'tailMs must be an integer of 0 or more'],
		[
			tailOneIn === undefined || isWholeNumber(tailOneIn, 1),
			'tailOneIn must be an integer of 1 or more',
		],
		[seed === undefined || isWholeNumber(seed, 0), 'seed must be an integer of 0 or more'],
	];
}

/** `input`'s tail and seed, when set (once tailRules passed). */
export const tailOf = (input: Record<string, unknown>): Omit<LatencySpec, 'ms' | 'maxMs'> => ({
	...(input.tailOneIn !== undefined
		? { tailMs: input.tailMs as number, tailOneIn: input.tailOneIn as number }
		: {}),
	...(input.seed !== undefined ? { seed: input.seed as number } : {}),
});

/** Throws a 400 with the message of the first rule that fails. */
export function checkRules(rules: Array<[boolean, string]>): void {
	const broken = rules.find(([valid]) => !valid);
	if (broken) throw badRequest(broken[1]);
}

const FIELDS = ['ms', 'maxMs', 'tailMs', 'tailOneIn', 'seed'];

/** Checks a latency from a test or the control endpoint; throws a 400 naming the first bad field. */
export function validateLatency(input: unknown): LatencySpec {
	if (!isPlainObject(input)) throw badRequest('latency must be a JSON object');
	const { ms, maxMs } = input;
	checkRules([
		[
			Object.keys(input).every((key) => FIELDS.includes(key)),
			`latency fields are ${FIELDS.join(', ')}`,
		],
		[isWholeNumber(ms, 0), 'ms must be an integer of 0 or more'],
		[
			maxMs === undefined || (isWholeNumber(maxMs, 0) && (maxMs as number) >= (ms as number)),
			'maxMs must be an integer of at least ms',
		],
		...tailRules(input),
	]);
	return {
		ms: ms as number,
		...(maxMs !== undefined ? { maxMs: maxMs as number } : {}),
		...tailOf(input),
	};
}

export class Latency {
	private spec: LatencySpec = { ms: 0 };
	private random = seededRandom(1);

	/** Sets the latency (a number: that many ms, always), its draws from the seed's start. */
	set(spec: number | LatencySpec): void {
		this.spec = validateLatency(typeof spec === 'number' ? { ms: spec } : spec);
		this.random = seededRandom(this.spec.seed ?? 1);
	}

	get current(): LatencySpec {
		return { ...this.spec };
	}

	/** The latency of the answer to a request arriving now, ms. */
	draw(): number {
		return drawMs(this.spec, this.random);
	}
}
