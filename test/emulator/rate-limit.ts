/**
 * A rate limit in front of the API, as a service might enforce one: a token bucket holding up to
 * `burst` requests, refilled at `requestsPerSecond`. A /v1 request that arrives to an empty
 * bucket is answered 429 with `Retry-After`: the whole seconds until a token is back, at least 1
 * (the header has no fractions), or, with `omitRetryAfter`, without the header (the spec
 * promises none). Off unless set.
 *
 * It also keeps a traffic log (arrival, answer, status of every /v1 request), from which the
 * benchmark draws requests in flight over time.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, badRequest } from './errors';
import { registerModelControl } from './model-control';
import { isPlainObject } from './validation';

export interface RateLimitSpec {
	/** Tokens added per second. */
	requestsPerSecond: number;
	/** Most tokens the bucket holds; it starts full. */
	burst: number;
	/** Answers 429 without a Retry-After header. */
	omitRetryAfter?: boolean;
}

export interface TrafficEntry {
	/** ms on the emulator's clock (`performance.now()`) when the request arrived ... */
	arrivedAt: number;
	/** ... and when its answer was sent. */
	answeredAt: number;
	status: number;
}

export function validateRateLimit(input: unknown): RateLimitSpec {
	if (!isPlainObject(input)) throw badRequest('rate limit must be a JSON object');
	const { requestsPerSecond, burst } = input;
	if (typeof requestsPerSecond !== 'number' || !(requestsPerSecond > 0))
		throw badRequest('requestsPerSecond must be a number above 0');
	if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1)
		throw badRequest('burst must be an integer of 1 or more');
	const { omitRetryAfter } = input;
	if (omitRetryAfter !== undefined && typeof omitRetryAfter !== 'boolean')
		throw badRequest('omitRetryAfter must be true or false');
	return { requestsPerSecond, burst, ...(omitRetryAfter ? { omitRetryAfter } : {}) };
}

export class RateLimit {
	private spec: RateLimitSpec | undefined;
	private tokens = 0;
	private refilledAt = 0;
	/** Requests answered 429 by the limit since it was last set. */
	refused = 0;
	readonly traffic: TrafficEntry[] = [];

	/** Sets (with a full bucket) or removes the limit, and clears the count of refusals. */
	set(spec: RateLimitSpec | undefined): void {
		this.spec = spec && validateRateLimit(spec);
		this.tokens = spec?.burst ?? 0;
		this.refilledAt = performance.now();
		this.refused = 0;
	}

	get current(): RateLimitSpec | undefined {
		return this.spec && { ...this.spec };
	}

	/**
	 * Takes a token for a request arriving now. Returns undefined when it may go on, or how to
	 * answer it: 429 with these Retry-After seconds (none, under `omitRetryAfter`).
	 */
	admit(): { retryAfterSeconds?: number } | undefined {
		if (!this.spec) return undefined;
		const now = performance.now();
		const { requestsPerSecond, burst } = this.spec;
		this.tokens = Math.min(
			burst,
			this.tokens + ((now - this.refilledAt) / 1000) * requestsPerSecond,
		);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens--;
			return undefined;
		}
		this.refused++;
		if (this.spec.omitRetryAfter) return {};
		return { retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / requestsPerSecond)) };
	}

	clearTraffic(): void {
		this.traffic.length = 0;
	}
}

export function answerRateLimited(
	reply: FastifyReply,
	retryAfterSeconds: number | undefined,
): FastifyReply {
	const error = new ApiError(429, 'rate limit exceeded');
	if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
	return reply.code(429).send(error.toBody());
}

/** Logs every request of `api` (the /v1 plugin) into the traffic log when it is answered. */
export function logTraffic(api: FastifyInstance, rateLimit: RateLimit): void {
	const arrivals = new WeakMap<object, number>();
	api.addHook('onRequest', async (request) => {
		arrivals.set(request, performance.now());
	});
	api.addHook('onResponse', async (request, reply) => {
		rateLimit.traffic.push({
			arrivedAt: arrivals.get(request) ?? performance.now(),
			answeredAt: performance.now(),
			status: reply.statusCode,
		});
	});
}

/** Control endpoints: PUT /rate-limit sets it, DELETE removes it, GET /traffic reads the log. */
export function registerRateLimitControl(control: FastifyInstance, rateLimit: RateLimit): void {
	registerModelControl(control, '/rate-limit', 'rateLimit', rateLimit, validateRateLimit, () => ({
		refused: rateLimit.refused,
	}));
	control.get('/traffic', async () => ({ traffic: rateLimit.traffic }));
	control.delete('/traffic', async (_request, reply) => {
		rateLimit.clearTraffic();
		return reply.code(204).send();
	});
}
