/**
 * What the emulator's test switches (faults, chosen answers, holds in transit) share: which
 * requests one applies to (method, path prefix, how many, after how many), checked, and a queue
 * of them in the order they were armed.
 */
import { badRequest } from './errors';
import { isPlainObject } from './validation';

export interface RequestMatch {
	/** Only requests with this method (any case). */
	method?: string;
	/** Only requests whose /v1-relative path starts with this, e.g. '/audit-logs'. */
	path?: string;
	/** How many matching requests it applies to; default 1. */
	count?: number;
	/** Matching requests to let through first; default 0. */
	skip?: number;
}

export const MATCH_FIELDS = ['count', 'skip', 'method', 'path'];

export function isWholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Checks a switch from a test or from a control endpoint: a JSON object with only `fields` and
 * MATCH_FIELDS, that passes `rules` and the match's own; throws a 400 naming the first that fails.
 */
export function validateSwitch<Spec extends RequestMatch>(
	input: unknown,
	name: string,
	fields: string[],
	rules: (spec: Record<string, unknown>) => Array<[valid: boolean, message: string]>,
): Spec {
	if (!isPlainObject(input)) throw badRequest(`${name} must be a JSON object`);
	const optional = (value: unknown, valid: boolean) => value === undefined || valid;
	const allFields = [...fields, ...MATCH_FIELDS];
	const broken = [
		[
			Object.keys(input).every((key) => allFields.includes(key)),
			`${name} fields are ${allFields.join(', ')}`,
		] as [boolean, string],
		...rules(input),
		[optional(input.count, isWholeNumber(input.count, 1)), 'count must be an integer of 1 or more'],
		[optional(input.skip, isWholeNumber(input.skip, 0)), 'skip must be an integer of 0 or more'],
		[optional(input.method, typeof input.method === 'string'), 'method must be a string'],
		[
			optional(input.path, typeof input.path === 'string' && input.path.startsWith('/')),
			"path must be a string starting with '/'",
		],
	].find(([valid]) => !valid);
	if (broken) throw badRequest(broken[1] as string);
	return input as unknown as Spec;
}

/** Switches waiting for requests, checked in the order they were armed. */
export class ArmedQueue<Spec extends RequestMatch> {
	private armed: Array<{ spec: Spec; skipLeft: number; countLeft: number }> = [];

	add(spec: Spec): void {
		this.armed.push({ spec: { ...spec }, skipLeft: spec.skip ?? 0, countLeft: spec.count ?? 1 });
	}

	clear(): void {
		this.armed = [];
	}

	/**
	 * The first switch that matches this request and has no skips left; uses up one of its skips
	 * or one of its count.
	 */
	take(method: string, path: string): Spec | undefined {
		for (const armed of this.armed) {
			const { spec } = armed;
			if (spec.method !== undefined && spec.method.toUpperCase() !== method.toUpperCase()) continue;
			if (spec.path !== undefined && !path.startsWith(spec.path)) continue;
			if (armed.skipLeft > 0) {
				armed.skipLeft--;
				continue;
			}
			if (--armed.countLeft === 0) this.armed = this.armed.filter((other) => other !== armed);
			return spec;
		}
		return undefined;
	}
}
