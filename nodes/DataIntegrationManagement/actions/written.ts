import type { IDataObject } from 'n8n-workflow';

import type { OffSpecAnswer, Written } from '../client/endpoint';

/**
 * The output of a write the service acknowledged. A write never fails on what the service
 * answered with a success status: the change took effect, and a failed item would be run again.
 * When the answer is not what the API describes, the item holds what the service sent (the
 * fields of `data`, or under `data` what is not an object) and a `warning`, one string saying
 * where it differs, the same in every write operation.
 */

/** `item` with what the service sent, and the warning, when the answer is off the spec. */
export function withWarning(offSpec: OffSpecAnswer, item: IDataObject = {}): IDataObject {
	const { sent, warning } = offSpec;
	const isObject = typeof sent === 'object' && sent !== null && !Array.isArray(sent);
	const fields = isObject ? (sent as IDataObject) : sent === undefined ? {} : { data: sent };
	return { ...item, ...fields, warning };
}

/** A write's `data` as the item, or what the service sent with the warning. */
export function writtenItem<T extends IDataObject>(answer: Written<T>): IDataObject {
	return answer.offSpec ? withWarning(answer.offSpec) : answer.data;
}
