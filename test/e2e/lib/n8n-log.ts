/**
 * n8n's own words, read from its log written as JSON (N8N_LOG_FORMAT=json: one object a line,
 * the message and, under `metadata`, its fields): the decisions its durable scheduler logs when
 * a poll fails (n8n 2.40 and later, workflows/triggers/poll-backoff.service.js).
 */

export const BACKING_OFF = 'Poll failed; backing off';

/** One "Poll failed; backing off" line of n8n's JSON log. */
export interface BackoffDecision {
	workflowId: string;
	type: string;
	cause?: string;
	consecutiveErrors: number;
	delayMs: number;
	/** The line as n8n wrote it. */
	line: string;
}

/** n8n's backoff decisions for `workflowId`, oldest first, from its log (one JSON object a line). */
export function backoffDecisions(log: string, workflowId: string): BackoffDecision[] {
	return log
		.split('\n')
		.filter((line) => line.startsWith('{') && line.includes(BACKING_OFF))
		.flatMap((line) => {
			const parsed = parseJson(line);
			const fields = (parsed?.metadata ?? parsed) as Omit<BackoffDecision, 'line'> | undefined;
			return parsed?.message === BACKING_OFF && fields?.workflowId === workflowId
				? [{ ...fields, line }]
				: [];
		});
}

/** A JSON line of the log, or undefined (the last line may be read half written). */
function parseJson(line: string): { message?: string; metadata?: object } | undefined {
	try {
		return JSON.parse(line) as { message?: string; metadata?: object };
	} catch {
		return undefined;
	}
}
