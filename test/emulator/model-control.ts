/**
 * Control endpoints of a model of the service set at run time (the rate limit, the capacity): PUT
 * sets it from its checked body, DELETE removes it, GET reads it (null when off) with its counts.
 */
import type { FastifyInstance } from 'fastify';

export interface ServiceModel<Spec> {
	set(spec: Spec | undefined): void;
	readonly current: Spec | undefined;
}

export function registerModelControl<Spec>(
	control: FastifyInstance,
	route: string,
	/** The answers' key for the model, e.g. `rateLimit`. */
	key: string,
	model: ServiceModel<Spec>,
	/** Checks a body: the spec, or a 400 naming what is wrong. */
	validate: (input: unknown) => Spec,
	counts: () => Record<string, number>,
): void {
	control.put(route, async (request) => {
		model.set(validate(request.body));
		return { [key]: model.current };
	});
	control.delete(route, async (_request, reply) => {
		model.set(undefined);
		return reply.code(204).send();
	});
	control.get(route, async () => ({ [key]: model.current ?? null, ...counts() }));
}
