/**
 * What a service variant switches (./variants.ts): a type of its own, so the store that holds one
 * and the variants that read the store do not import each other.
 */
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';

export interface ServiceVariant {
	/** The most entries a page holds, whatever limit was asked (the spec allows any below 100). */
	pageSizeCap?: number;
	/** Leaves `totalItems` out of every answer. */
	omitTotalItems?: boolean;
	/** Counts at most this many entries in `totalItems` (a search index that stops counting). */
	totalItemsCap?: number;
	/** Answers in this order whatever `sortOrder` asked. */
	fixedOrder?: SortOrder;
	/** Ignores `startTime` and `endTime`. */
	ignoreTimeBounds?: boolean;
	/**
	 * Query names of ours the service does not know, and what it does with them: drops them (and
	 * uses its defaults) or answers 400 naming the parameter.
	 */
	unknownNames?: { names: string[]; handling: 'ignore' | 'refuse' };
	/**
	 * Serves some entries with their id left out, a number, or another entry's id, picked by the
	 * entry's position in the log (1 in 5 of each), so an entry looks the same in every answer.
	 */
	oddIds?: boolean;
	/**
	 * Serves some entries with a timestamp that cannot be read as a date (1 in 5), or none (1 in
	 * 10). The service still orders and bounds them by their real instant.
	 */
	oddTimestamps?: boolean;
	/**
	 * Serves every entry as a service that evolved would: one more field the spec does not name,
	 * its fields in another order, and its timestamp in another notation of the same instant
	 * (`+00:00` for `Z`, milliseconds written out or dropped when zero).
	 */
	restyledEntries?: boolean;
}
