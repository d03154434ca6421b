import { NodeApiError } from 'n8n-workflow';

import type { Context } from '../transport';
import { declaring } from '../transport/failureCause';
import { toUtcIso } from '../shared/timestamps';
import type { Refusal } from './auditLogByTime';
import { AUDIT_LOG_MAX_PAGE_SIZE, AUDIT_LOG_QUERY } from './choices';

/** What a reader reads when the audit-log scan cannot go on (./auditLogByTime.ts says why). */

type Words = { message: string; description: string };

const WHERE_NAMES_ARE =
	'see "Where the API description is silent" in docs/guarantees.md of the package\'s repository';

/** The error for `refusal`, after `offset` entries received. */
export function refused(context: Context, refusal: Refusal, offset: number): NodeApiError {
	if (refusal.why === 'offsetIgnored') return offsetNotHonoured(context, offset);
	const byTime = `The service ignores the audit-log paging parameter "${AUDIT_LOG_QUERY.skip}", so the trigger reads on by time: each page oldest first ("${AUDIT_LOG_QUERY.sortDirection}"), from the newest entry read ("${AUDIT_LOG_QUERY.since}", inclusive).`;
	const stays = 'Nothing was emitted and the cursor stays.';
	const maintainers = `If the service pages by another parameter, tell the package's maintainers its name (${WHERE_NAMES_ARE}).`;
	if (refusal.why === 'pageFullAt') {
		const at = toUtcIso(refusal.at);
		return declared(context, refusal, {
			message: `More audit log entries share one instant (${at}) than the service answers in a page, so the trigger cannot read past them`,
			description: `${byTime} It tells entries at one instant apart only within a page, and a page of ${refusal.pageSize} held only entries at ${at} (or without a readable timestamp, right after them) already read. ${stays} To go on, set Start From to A Date and Start Date to a time after ${at}: the entries at that instant not emitted yet are skipped. ${maintainers}`,
		});
	}
	return declared(context, refusal, {
		message: `The service ignores the audit-log paging parameter "${AUDIT_LOG_QUERY.skip}" and does not answer oldest first from the "${AUDIT_LOG_QUERY.since}" asked either, so the trigger cannot read past the first page`,
		description: `${byTime} This service answers in another order or ignores "${AUDIT_LOG_QUERY.since}", so that cannot work either. ${stays} ${maintainers}`,
	});
}

/** A refusal that no later poll gets past by itself: someone must change the node or the service. */
function declared(context: Context, refusal: Refusal, words: Words): NodeApiError {
	const error = new NodeApiError(
		context.getNode(),
		{ message: `GET /audit-logs: ${refusal.why}` },
		words,
	);
	return declaring(error, { cause: 'configuration-invalid' });
}

function offsetNotHonoured(context: Context, offset: number): NodeApiError {
	const error = new NodeApiError(
		context.getNode(),
		{ message: `GET /audit-logs repeated earlier entries at ${AUDIT_LOG_QUERY.skip}=${offset}` },
		{
			message: 'The service kept answering audit log entries already read, so the read stopped',
			description: `Asked for the entries after the first ${offset}, it answered only entries it had already returned; reading on would never end, so nothing was returned. If entries were being logged meanwhile, run it again. If it happens every time, the service pages the audit log differently from what this package asks ("${AUDIT_LOG_QUERY.skip}"): ${WHERE_NAMES_ARE}. Meanwhile, Get Many with Return All off reads only the first page, which needs no paging, when its Limit fits in one page of the service's (${AUDIT_LOG_MAX_PAGE_SIZE} at most), the service keeps to the Sort Direction and the Time Range, and no other filter is set.`,
		},
	);
	// Entries logged during the read shift the pages: the next read may go through.
	return declaring(error, { cause: 'temporarily-unavailable' });
}

/** Words that refuse a query parameter's name, not its value. */
const NAME_REFUSED =
	/unknown|unrecogni[sz]ed|unexpected|unsupported|not (allowed|supported|permitted)/i;

/**
 * A 400 to the audit-log query, kept as n8n keeps it (the service's words, the status); when it
 * names one of our query names, the service does not know it: say which, and where ours are chosen.
 */
export function refusedQuery(context: Context, error: NodeApiError): NodeApiError {
	// The service's words are in the message (the description is the transport's), or its code alone.
	const unexplained = error.context.withoutMessage === true;
	const code = error.errorResponse?.code;
	const words = unexplained ? String(code ?? '') : error.message;
	// Limit and the Time Range's bounds carry the user's (the model's) values: words naming them
	// refuse a value ("limit" is a word of any message, too) unless they refuse the name itself.
	const given: string[] = [AUDIT_LOG_QUERY.pageSize, AUDIT_LOG_QUERY.since, AUDIT_LOG_QUERY.until];
	const nameRefused = NAME_REFUSED.test(words);
	const name = Object.values(AUDIT_LOG_QUERY).find(
		(candidate) =>
			(nameRefused || !given.includes(candidate)) && new RegExp(`\\b${candidate}\\b`).test(words),
	);
	const names = Object.values(AUDIT_LOG_QUERY).join(', ');
	const said = unexplained
		? ` without saying why${code ? ` [${code}]` : ''}`
		: `: ${error.message}`;
	const refusal = new NodeApiError(
		context.getNode(),
		{ message: error.message, httpCode: '400' },
		{
			message: `The service refused the audit-log query${name ? ` parameter "${name}"` : ''}${said}`,
			description: `${name || unexplained ? '' : "If the service's words name a value, check that field of the node. "}To read the audit log, this package asks with the names ${names}, which the service's API description leaves open (${WHERE_NAMES_ARE}). A service that calls them differently refuses them; tell the package's maintainers which names your service expects.`,
			httpCode: '400',
		},
	);
	// A name of this package's no value a model gives changes (../actions/toolAnswer.ts).
	if (name) refusal.context.refusedQueryName = name;
	return declaring(refusal, { cause: 'configuration-invalid' });
}
