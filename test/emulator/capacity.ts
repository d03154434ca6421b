/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A service without a rate limit but with finite capacity, as a database-backed API has: it acts
 * on `workers` requests at once, each taking `serviceMs`; up to `queue` more wait for a worker,
 * first come first served (no `queue`: any number wait). A /v1 request beyond that is answered
 * 503 at once, with `Retry-After` when `retryAfterSeconds` is set. One request in `tailOneIn`,
 * drawn at random (seeded, as latency.ts draws), holds its worker `tailMs` instead: a service
 * whose time has a heavy tail. Off unless set.
 *
 * It counts, since it was last set, the requests answered 503 (`shed`), the requests it holds now,
 * served or waiting (`open`), and the most it held at once (`maxOpen`).
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { FastifyInstance, FastifyReply } from 'fastify';

import { drawMs, seededRandom } from '../helpers/random';
import { isWholeNumber } from './armed';
import { ApiError, badRequest } from './errors';
import { checkRules, tailOf, tailRules } from './latency';
import { registerModelControl } from './model-control';
import { isPlainObject } from './validation';

export interface CapacitySpec {
	/** Requests acted on at once. */
	workers: number;
	/** How long the service acts on one request, ms. */
	serviceMs: number;
	/** Most requests waiting for a worker; absent or null: any number (never 503). */
	queue?: number | null;
	/** Sets the Retry-After header on the 503; absent: no header. */
	retryAfterSeconds?: number;
	/** One request in `tailOneIn`, drawn at random, is acted on for `tailMs` instead. */
	tailMs?: number;
	tailOneIn?: number;
	/** Seeds the tail's draws; default 1. */
	seed?: number;
}

const FIELDS = [
	'workers',
	'serviceMs',
	'queue',
	'retryAfterSeconds',
	'tailMs',
	'tailOneIn',
	'seed',
];

/** Checks a spec from a test or the control endpoint; throws a 400 naming the first bad field. */
export function validateCapacity(input: unknown): CapacitySpec {
	if (!isPlainObject(input)) throw badRequest('capacity must be a JSON object');
	const { workers, serviceMs, queue, retryAfterSeconds } = input;
	checkRules([
		[
			Object.keys(input).every((key) => FIELDS.includes(key)),
			`capacity fields are ${FIELDS.join(', ')}`,
		],
		[isWholeNumber(workers, 1), 'workers must be an integer of 1 or more'],
		[isWholeNumber(serviceMs, 0), 'serviceMs must be an integer of 0 or more'],
		[queue == null || isWholeNumber(queue, 0), 'queue must be an integer of 0 or more, or null'],
		[
			retryAfterSeconds === undefined || isWholeNumber(retryAfterSeconds, 0),
			'retryAfterSeconds must be an integer of 0 or more',
		],
		...tailRules(input),
	]);
	return {
		workers: workers as number,
		serviceMs: serviceMs as number,
		...(typeof queue === 'number' ? { queue } : {}),
		...(retryAfterSeconds !== undefined ? { retryAfterSeconds: retryAfterSeconds as number } : {}),
		...tailOf(input),
	};
}

export class Capacity {
	private spec: CapacitySpec | undefined;
	/** Workers taken. */
	private busy = 0;
	/** Requests waiting for a worker, first in first: each is woken with a worker handed to it. */
	private waiting: Array<() => void> = [];
	/** Bumped by `set`: a request admitted before frees nothing of the new model. */
	private generation = 0;
	/** Draws the tail, from the seed's start at each `set`. */
	private random = seededRandom(1);
	/** Requests answered 503 since the model was last set. */
	shed = 0;
	/** Requests held now: being served or waiting. */
	open = 0;
	/** The most requests held at once since the model was last set. */
	maxOpen = 0;

	/**
	 * Sets or removes the model, with every worker free and the counts at 0. Requests waiting under
	 * the old model go on at once without being served (after a reset, the gate then cuts them).
	 */
	set(spec: CapacitySpec | undefined): void {
		this.spec = spec && validateCapacity(spec);
		this.random = seededRandom(this.spec?.seed ?? 1);
		this.generation++;
		const woken = this.waiting;
		this.waiting = [];
		this.busy = 0;
		this.shed = 0;
		this.open = 0;
		this.maxOpen = 0;
		for (const wake of woken) wake();
	}

	get current(): CapacitySpec | undefined {
		return this.spec && { ...this.spec };
	}

	/**
	 * Serves a request arriving now: waits for a worker, holds it `serviceMs`, frees it. Resolves
	 * undefined when the request may go on, or how to answer it: 503 with these Retry-After seconds.
	 */
	async serve(): Promise<{ retryAfterSeconds?: number } | undefined> {
		const spec = this.spec;
		if (!spec) return undefined;
		const generation = this.generation;
		if (this.busy < spec.workers) {
			this.busy++;
			this.hold();
		} else if (spec.queue != null && this.waiting.length >= spec.queue) {
			this.shed++;
			const { retryAfterSeconds } = spec;
			return retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
		} else {
			this.hold();
			// Woken with a worker handed over, or by `set` (then it holds nothing of the new model).
			await new Promise<void>((resolve) => this.waiting.push(resolve));
			if (generation !== this.generation) return undefined;
		}
		return await this.work(spec, generation);
	}

	/** Acts on a request holding a worker, and frees the worker whatever happens. */
	private async work(spec: CapacitySpec, generation: number): Promise<undefined> {
		try {
			await delay(drawMs({ ...spec, ms: spec.serviceMs }, this.random));
		} finally {
			this.release(generation);
		}
		return undefined;
	}

	private hold(): void {
		this.open++;
		this.maxOpen = Math.max(this.maxOpen, this.open);
	}

	/** Hands the worker to the first request waiting, or frees it; nothing if the model was set since. */
	private release(generation: number): void {
		if (generation !== this.generation) return;
		this.open--;
		const next = this.waiting.shift();
		if (next) next();
		else this.busy--;
	}
}

/** Passes a request through the model: true when it was answered 503 (then it goes no further). */
export async function passCapacity(capacity: Capacity, reply: FastifyReply): Promise<boolean> {
	const overload = await capacity.serve();
	if (!overload) return false;
	const error = new ApiError(503, 'service overloaded: too many requests in progress');
	const { retryAfterSeconds } = overload;
	if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
	reply.code(503).send(error.toBody());
	return true;
}

/** Control endpoints: PUT /capacity sets it (counts at 0), DELETE removes it, GET reads it and its counts. */
export function registerCapacityControl(control: FastifyInstance, capacity: Capacity): void {
	registerModelControl(control, '/capacity', 'capacity', capacity, validateCapacity, () => ({
		shed: capacity.shed,
		open: capacity.open,
		maxOpen: capacity.maxOpen,
	}));
}
