import type { IDataObject } from 'n8n-workflow';

import type { OffSpecAnswer, Written } from '../client/endpoint';
import { isObject } from '../shared/checks';

/**
 * The item of a write the service acknowledged (it took effect: a failed item would be run again).
 * A write of a record gives the record as written: what the service answered, then the fields
 * sent that it left out (an answer of `id` alone gives `id` and the fields sent). Off the spec,
 * the same with what the service sent, and a `warning` saying where it differs.
 */

/** `answered`'s fields in its order, then `sent`'s it lacks: the service's value wins. */
const over = (sent: IDataObject, answered: IDataObject): IDataObject => ({
	...answered,
	...sent,
	...answered,
});

/** `item` with what the service sent (`data`'s fields, or `data` if no object) and the warning. */
export function withWarning(offSpec: OffSpecAnswer, item: IDataObject = {}): IDataObject {
	const { sent, warning } = offSpec;
	const fields = isObject(sent) ? (sent as IDataObject) : sent === undefined ? {} : { data: sent };
	return { ...over(item, fields), warning };
}

/** The record a write sent (`sent`, the request body) as written: see above. */
export function writtenItem<T extends IDataObject>(
	answer: Written<T>,
	sent: IDataObject,
): IDataObject {
	return answer.offSpec ? withWarning(answer.offSpec, sent) : over(sent, answer.data);
}
