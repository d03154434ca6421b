/**
 * Pure: where a redirect points, shown without what may carry secrets, and the Base URL it
 * implies; what a 404 is of (the address itself, a reference sent, the IDs), and its words.
 */
import { KEY_MARKER } from './credential';
import type { RequestFailure } from './failureCause';

/** A request as an error tells it: the credential's Base URL and the endpoint's path under it. */
export interface RequestAddress {
	baseUrl: string;
	/** E.g. `/integrations/int_1`, without the query. */
	path: string;
	/** The values the user gave in the path (an ID, a name), e.g. `/tags/{id}`'s. */
	ids?: string[];
	/** The body's fields that name another record (an owner), which a 404's words may quote. */
	references?: Record<string, unknown>;
}

/** The version segment every Base URL ends in. */
export const VERSION_SEGMENT = '/v1';

/** The key's marker as a URL's path carries it (`[API%20key]`), in a Location that held the key. */
const MARKER_IN_PATH = new URL(`http://marker/${KEY_MARKER}`).pathname.slice(1);

/** `url` without user info, query or fragment: scheme, host, port and path (the key's marker as said). */
export const shownUrl = (url: URL) =>
	`${url.protocol}//${url.host}${url.pathname.replaceAll(MARKER_IN_PATH, KEY_MARKER)}`;

/**
 * Whether `url` is an http:// or https:// address paths can follow: no `?`, `#` or space, even a
 * bare one (`localhost:5678/v1` reads as the scheme `localhost:`).
 */
export const isWebAddress = (url: string): boolean =>
	URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol) && !/[?#\s]/.test(url);

/** The Base URL as an error shows it, or undefined when it is not a URL. */
export function shownBaseUrl(baseUrl: string): string | undefined {
	return URL.canParse(baseUrl) ? shownUrl(new URL(baseUrl)).replace(/\/+$/, '') : undefined;
}

/**
 * Where `location` (a Location header, maybe relative) points from the request at `address` (none:
 * no URL), and the new Base URL when it keeps the request's path and shows no key.
 */
export function redirectTarget(
	location: string | undefined,
	address?: RequestAddress,
): { shown?: string; baseUrl?: string } {
	const from =
		address && URL.canParse(address.baseUrl) ? `${address.baseUrl}${address.path}` : undefined;
	if (location === undefined || location.trim() === '' || !URL.canParse(location, from)) return {};
	const target = new URL(location.trim(), from);
	const shown = shownUrl(target);
	if (!address || shown.includes(KEY_MARKER) || !target.pathname.endsWith(address.path))
		return { shown };
	const baseUrl = shown.slice(0, shown.length - address.path.length);
	return baseUrl === shownBaseUrl(address.baseUrl) ? { shown } : { shown, baseUrl };
}

/** Words that say no such route: "No route for GET /users", fastify's "Route GET:/users not found". */
const NO_ROUTE = /\broute\b|\bendpoint\b/i;

/** Whether `value` (`least`+ chars) is a word of `said`, any case if ID-like (by indexOf, no RegExp). */
function standsAlone(said: string, value: unknown, least = 3): boolean {
	if (typeof value !== 'string' || value.length < least) return false;
	const [text, word] = [said, value].map((t) => (/[\d_-]/.test(value) ? t.toLowerCase() : t));
	const edge = (char = '') => !/\w/.test(char);
	for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1))
		if (edge(text[at - 1]) && edge(text[at + word.length])) return true;
	return false;
}

/**
 * As an error's context keeps it (../shared/notFound.ts reads it). Neither key: the IDs; with
 * `references`: the IDs (if any) and these fields sent (the quoted ones when an ID is quoted).
 */
export type NotFound = { routeMissing: true } | { missingField?: string; references?: string[] };

/**
 * What a 404 is of: the address when the Base URL lacks /v1 or the words repeat the path; else the
 * longest reference quoted (an owner) and no ID; the address when they say no route; the IDs and
 * the references quoted when they quote an ID; else (but a page) the IDs and the references sent;
 * the address when there are neither.
 */
export function notFoundOf(failure: RequestFailure, address?: RequestAddress): NotFound {
	if (!address || !shownBaseUrl(address.baseUrl)?.endsWith(VERSION_SEGMENT))
		return { routeMissing: true };
	const said = failure.apiMessage ?? '';
	if (said.includes(address.path)) return { routeMissing: true };
	const sent = Object.entries(address.references ?? {}).filter(
		([, value]) => typeof value === 'string' && value,
	);
	const quoted = sent.filter(([, v]) => standsAlone(said, v));
	const [missingField] = quoted.sort(([, a], [, b]) => `${b}`.length - `${a}`.length)[0] ?? [];
	const idQuoted = address.ids?.some((id) => standsAlone(said, id, 1));
	if (missingField && !idQuoted) return { missingField };
	if (NO_ROUTE.test(said)) return { routeMissing: true };
	const candidates = idQuoted ? quoted : failure.page ? [] : sent;
	if (candidates.length) return { references: candidates.map(([field]) => field) };
	return address.ids?.length ? {} : { routeMissing: true };
}

/** `base` ending at its last version segment: what follows cut, another version (/v2) replaced. */
export function atVersion(base: string): string {
	// The path alone: a host named like a version (http://v2) stays.
	const [, authority = '', path = base] = /^([a-z][\w+.-]*:\/\/[^/]*)(.*)$/i.exec(base) ?? [];
	return `${authority}${/^(.*)\/v\d+(?:\/.*)?$/.exec(path)?.[1] ?? path}${VERSION_SEGMENT}`;
}

/** What the Base URL must be, as a 404 or a redirect says it. */
export const BASE_URL_FORM = `the API's address, ending in ${VERSION_SEGMENT}`;

/** A 404's sentence: the Base URL when the address is unknown, else the reference quoted, or the IDs and references sent. */
export function notFoundWords(notFound: NotFound, address?: RequestAddress): string {
	if (!('routeMissing' in notFound)) {
		const { missingField, references = [] } = notFound;
		const values = (missingField ? [missingField] : references).map(
			(field) => `for ${JSON.stringify(address?.references?.[field])}, the request's ${field}`,
		);
		const ids = missingField || !address?.ids?.length ? [] : ['under the IDs the request gives'];
		const fields = ids.length + values.length > 1 ? 'those fields' : 'that field';
		const check = values.length ? fields : "the node's ID fields";
		return `The service found nothing ${[...ids, ...values].join(', or ')}. Check ${check}, and that the Base URL in the credential is ${BASE_URL_FORM}.`;
	}
	const base = address && shownBaseUrl(address.baseUrl);
	if (base && !base.endsWith(VERSION_SEGMENT))
		return `Nothing answers at this address: the Base URL in the credential, ${base}, does not end in ${VERSION_SEGMENT}. Set it to ${BASE_URL_FORM}, e.g. ${atVersion(base)}.`;
	// A Base URL that works for other operations is right: the service may not offer this one (a beta).
	const where = address ? `${address.path} under the Base URL in the credential` : 'this address';
	return `Nothing answers at ${where}. If other operations work with this credential, the service does not offer this one; else the Base URL is likely wrong: it must be ${BASE_URL_FORM} (e.g. https://api.example.com${VERSION_SEGMENT}).`;
}
