/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The fastify app: the API under /v1 and the emulator's control endpoints under /__emulator.
 *
 * Every /v1 request goes through the same gate, in this order: record it, hold it in transit if a
 * hold matches, take a token from the rate limit if one is set, wait the latency (latency.ts), cut
 * the connection if the emulator was reset meanwhile; unless the rate limit refused it (then it
 * never reaches the service), pass the capacity model if one is set (wait for a worker and the
 * service time, or 503 at once), and cut it if reset meanwhile; answer with an injected fault if one matches, then with
 * 429 if the rate limit had no token, check the API key, reject a body that is not JSON, answer
 * with a chosen answer if one matches, and only then run the operation.
 * Bodies are parsed leniently (see parseBody) so that a bad body is recorded and reported after
 * the key check, like any other error.
 */
import { setTimeout as delay } from 'node:timers/promises';
import fastify, {
	type FastifyError,
	type FastifyInstance,
	type FastifyReply,
	type FastifyRequest,
} from 'fastify';
import { API_KEY_HEADER } from '../../credentials/DataIntegrationManagementApi.credentials';
import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { ApiError, badRequest, errorCodeFor, notFound } from './errors';
import type { ChosenAnswer, ChosenAnswers } from './answers';
import { passCapacity, registerCapacityControl, type Capacity } from './capacity';
import { answerWithFault, cutConnection, type FaultQueue } from './faults';
import type { InTransit } from './in-transit';
import type { Latency, LatencySpec } from './latency';
import {
	answerRateLimited,
	logTraffic,
	registerRateLimitControl,
	type RateLimit,
} from './rate-limit';
import { OPERATIONS, type Operation } from './routes';
import type { Store } from './store';
import type { ServiceVariant } from './service-variant';
import type { FaultSpec, HoldSpec, NewAuditEntry, RecordedRequest } from './types';
import { rejectQuery, type QueryParams } from './query';
import { isPlainObject } from './validation';
import { registerIndexes } from './indexes';

/** What the server needs from the running emulator. */
export interface ServerContext {
	readonly apiKey: string;
	readonly store: Store;
	readonly requests: RecordedRequest[];
	readonly faults: FaultQueue;
	readonly inTransit: InTransit;
	readonly rateLimit: RateLimit;
	readonly capacity: Capacity;
	readonly answers: ChosenAnswers;
	readonly latency: Latency;
	readonly clockOffsetMs: number;
	readonly sendsDateHeader: boolean;
	/** How many times the emulator was reset (see the gate in registerApi). */
	readonly resets: number;
	reset(options?: { seed?: boolean }): void;
	addAuditEntries(entries: NewAuditEntry[]): AuditLogEntry[];
	injectFault(fault: FaultSpec): void;
	clearFaults(): void;
	holdInTransit(hold: HoldSpec): void;
	answerWith(answer: ChosenAnswer): void;
	setLatency(latency: number | LatencySpec): void;
	clearRequests(): void;
}

/** A request body that could not be used, kept as a value so the gate can report it in order. */
class UnusableBody {
	constructor(readonly reason: string) {}
}

/**
 * Body parser for every content type. An empty body is no body, even with
 * Content-Type: application/json (n8n's HTTP helper sends that header on GET and DELETE too).
 */
function parseBody(request: FastifyRequest, text: string): unknown {
	if (text.trim() === '') return undefined;
	if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
		return new UnusableBody('request body must be JSON sent with Content-Type: application/json');
	}
	try {
		return JSON.parse(text);
	} catch (error) {
		return new UnusableBody(`request body is not valid JSON: ${(error as Error).message}`);
	}
}

function usableBody(body: unknown): unknown {
	if (body instanceof UnusableBody) throw badRequest(body.reason);
	return body;
}

const V1_PREFIX = '/v1';
const CONTROL_PREFIX = '/__emulator';

/** The URL without its query string, as sent (not URL-decoded). */
function pathOf(url: string): string {
	return url.split('?')[0];
}

function routeNotFound(request: FastifyRequest): ApiError {
	return notFound(`no operation ${request.method} ${pathOf(request.url)}`);
}

/** The API key check. Messages never include the key that was sent or the one expected. */
function checkApiKey(request: FastifyRequest, apiKey: string) {
	const sent = request.headers[API_KEY_HEADER];
	if (sent === undefined || sent === '')
		throw new ApiError(401, `missing ${API_KEY_HEADER} header`);
	if (sent !== apiKey) throw new ApiError(401, `invalid API key in ${API_KEY_HEADER} header`);
}

function registerApi(app: FastifyInstance, context: ServerContext) {
	const recorded = new WeakMap<FastifyRequest, RecordedRequest>();
	const resetsAtArrival = new WeakMap<FastifyRequest, number>();

	app.register(
		async (v1) => {
			// Recorded on arrival, before anything can reject it; the body is filled in once parsed.
			v1.addHook('onRequest', async (request) => {
				const entry: RecordedRequest = {
					method: request.method,
					path: pathOf(request.url).slice(V1_PREFIX.length),
					query: { ...(request.query as QueryParams) },
					headers: { ...request.headers },
					body: undefined,
				};
				recorded.set(request, entry);
				resetsAtArrival.set(request, context.resets);
				context.requests.push(entry);
			});
			logTraffic(v1, context.rateLimit);
			// The service's own clock, when set apart from this machine's, or no Date header at all.
			v1.addHook('onSend', async (_request, reply) => {
				if (!context.sendsDateHeader) reply.raw.sendDate = false;
				else if (context.clockOffsetMs !== 0)
					reply.header('date', new Date(Date.now() + context.clockOffsetMs).toUTCString());
			});

			v1.addHook('preValidation', async (request, reply) => {
				// Always present: onRequest runs first for every request of this plugin.
				const entry = recorded.get(request)!;
				if (!(request.body instanceof UnusableBody)) entry.body = request.body;
				// Reset while held or waiting (its client gone, e.g. a poll its budget cut): it takes
				// nothing armed after the reset and changes nothing.
				const stale = () => context.resets !== resetsAtArrival.get(request);
				await context.inTransit.pass(request.method, entry.path);
				if (stale()) return cutConnection(request, reply);
				const refusal = context.rateLimit.admit();
				const latencyMs = context.latency.draw();
				if (latencyMs > 0) await delay(latencyMs);
				if (stale()) return cutConnection(request, reply);
				if (!refusal && (await passCapacity(context.capacity, reply))) return reply;
				if (stale()) return cutConnection(request, reply);
				const fault = context.faults.take(request.method, entry.path);
				if (fault) return answerWithFault(fault, request, reply);
				if (refusal) return answerRateLimited(reply, refusal.retryAfterSeconds);
				checkApiKey(request, context.apiKey);
				usableBody(request.body);
				if (context.answers.answer(request.method, entry.path, reply)) return reply;
				return undefined;
			});

			for (const operation of OPERATIONS) registerOperation(v1, context.store, operation);
			// Wildcards rank below every static and parametric route, so this only catches the rest.
			v1.all('/*', async (request) => {
				throw routeNotFound(request);
			});
		},
		{ prefix: V1_PREFIX },
	);
}

function registerOperation(v1: FastifyInstance, store: Store, operation: Operation) {
	v1.route({
		method: operation.method,
		url: operation.url,
		handler: async (request) => {
			const query = request.query as QueryParams;
			if (!operation.takesQuery) rejectQuery(query);
			return operation.run(store, {
				params: request.params as Record<string, string>,
				query,
				body: request.body,
			});
		},
	});
}

/** A control request's JSON object body, or a 400. */
function bodyObject(request: FastifyRequest): Record<string, unknown> {
	const body = usableBody(request.body) ?? {};
	if (!isPlainObject(body)) throw badRequest('request body must be a JSON object');
	return body;
}

/** Control endpoints for tests and demos in other processes: no API key, not recorded. */
function registerControl(app: FastifyInstance, context: ServerContext) {
	app.register(
		async (control) => {
			registerDataControl(control, context);
			registerBehaviourControl(control, context);
			registerRateLimitControl(control, context.rateLimit);
			registerCapacityControl(control, context.capacity);
		},
		{ prefix: CONTROL_PREFIX },
	);
}

/** What the service holds: reset (seeded or empty), audit entries added, the request log. */
function registerDataControl(control: FastifyInstance, context: ServerContext) {
	control.post('/reset', async (request) => {
		const { seed } = bodyObject(request);
		if (seed !== undefined && typeof seed !== 'boolean') throw badRequest('seed must be a boolean');
		context.reset({ seed });
		return { reset: true };
	});
	control.post('/audit-logs', async (request) => {
		const { entries } = bodyObject(request);
		const valid =
			Array.isArray(entries) &&
			entries.every((entry) => isPlainObject(entry) && typeof entry.timestamp === 'string');
		if (!valid)
			throw badRequest('entries must be an array of objects, each with a timestamp string');
		return { entries: context.addAuditEntries(entries as NewAuditEntry[]) };
	});
	control.get('/requests', async () => ({ requests: context.requests.map(redactApiKey) }));
	control.delete('/requests', async (_request, reply) => {
		context.clearRequests();
		return reply.code(204).send();
	});
}

/** How the service answers: faults, holds in transit, chosen answers, the audit log's variant, latency. */
function registerBehaviourControl(control: FastifyInstance, context: ServerContext) {
	control.post('/faults', async (request, reply) => {
		context.injectFault(bodyObject(request) as unknown as FaultSpec);
		return reply.code(201).send({ fault: request.body });
	});
	control.delete('/faults', async (_request, reply) => {
		context.clearFaults();
		return reply.code(204).send();
	});
	control.post('/holds', async (request, reply) => {
		context.holdInTransit(bodyObject(request) as unknown as HoldSpec);
		return reply.code(201).send({ hold: request.body });
	});
	control.post('/answers', async (request, reply) => {
		context.answerWith(bodyObject(request) as unknown as ChosenAnswer);
		return reply.code(201).send({ answer: request.body });
	});
	control.delete('/answers', async (_request, reply) => {
		context.answers.clear();
		return reply.code(204).send();
	});
	control.put('/audit-log-variant', async (request) => {
		context.store.auditLogVariant = bodyObject(request) as ServiceVariant;
		return { variant: context.store.auditLogVariant };
	});
	control.put('/latency', async (request) => {
		context.setLatency(bodyObject(request) as unknown as LatencySpec);
		return context.latency.current;
	});
	control.get('/latency', async () => context.latency.current);
}

/** The recorded key stays in memory for in-process tests but is not sent over HTTP. */
function redactApiKey(entry: RecordedRequest): RecordedRequest {
	if (entry.headers[API_KEY_HEADER] === undefined) return entry;
	return { ...entry, headers: { ...entry.headers, [API_KEY_HEADER]: '[redacted]' } };
}

function sendError(error: FastifyError | ApiError, reply: FastifyReply) {
	if (error instanceof ApiError) return reply.code(error.status).send(error.toBody());
	// fastify's own errors (body too large, bad URL) carry a 4xx status; anything else is a bug here.
	const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
	if (status === 500) console.error('emulator: unexpected error', error);
	const message = status === 500 ? 'internal error in the emulator' : error.message;
	return reply.code(status).send({ code: errorCodeFor(status), message });
}

export function buildServer(context: ServerContext): FastifyInstance {
	const app = fastify({ logger: false });
	app.removeAllContentTypeParsers();
	app.addContentTypeParser(
		'*',
		{ parseAs: 'string' },
		async (request: FastifyRequest, text: string) => parseBody(request, text),
	);
	app.setErrorHandler((error: FastifyError | ApiError, _request, reply) => sendError(error, reply));
	app.setNotFoundHandler(async (request, reply) => sendError(routeNotFound(request), reply));
	registerIndexes(app, { api: V1_PREFIX, control: CONTROL_PREFIX, store: context.store });
	registerApi(app, context);
	registerControl(app, context);
	return app;
}
