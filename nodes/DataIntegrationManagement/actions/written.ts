import type { IDataObject } from 'n8n-workflow';

import type { OffSpecAnswer, Written } from '../client/endpoint';
import { isObject } from '../shared/checks';

/**
 * The item of a write the service acknowledged (it took effect: a failed item would be run again).
 * Off the spec, the item holds what the service sent and a `warning` saying where it differs.
 */

/** `item` with what the service sent (`data`'s fields, or `data` if no object) and the warning. */
export function withWarning(offSpec: OffSpecAnswer, item: IDataObject = {}): IDataObject {
	const { sent, warning } = offSpec;
	const fields = isObject(sent) ? (sent as IDataObject) : sent === undefined ? {} : { data: sent };
	return { ...item, ...fields, warning };
}

/** A write's `data` as the item, or what the service sent with the warning. */
export function writtenItem<T extends IDataObject>(answer: Written<T>): IDataObject {
	return answer.offSpec ? withWarning(answer.offSpec) : answer.data;
}
