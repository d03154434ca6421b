import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { pathSegmentProblem } from '../client/endpoint';
import { getSchemas } from '../client/integrations';
import { fieldError, isObject } from '../shared/checks';
import { integrationIdField } from '../shared/descriptions';
import { LIST_READS, type ListMethod } from '../shared/listReads';
import { namingFieldsIfNotFound } from '../shared/notFound';

/** What the resource locators' searches (listSearch.ts) read: other fields, and source schemas. */

/**
 * The current value of another parameter, trimmed: a locator's value (a new one's default has
 * no `__rl`), or a plain value. n8n cannot extract a locator's value on an `&sibling` path (a
 * change's), so it is read here. An expression left unresolved (it names an item) is no value yet.
 */
function currentValue(this: ILoadOptionsFunctions, name: string): string {
	const value = name.startsWith('&')
		? this.getCurrentNodeParameter(name)
		: this.getCurrentNodeParameter(name, { extractValue: true });
	const text = String((isObject(value) ? value.value : value) ?? '').trim();
	return text.startsWith('=') ? '' : text;
}

/** One text per name in `Names`, in its order. */
type Texts<Names extends readonly string[]> = { -readonly [K in keyof Names]: string };
type ValuesRead<M extends ListMethod> = Texts<(typeof LIST_READS)[M]>;

/** The current values of what the list `method` reads (LIST_READS), and nothing else. */
export function currentValues<M extends ListMethod>(
	context: ILoadOptionsFunctions,
	method: M,
): ValuesRead<M> {
	const reads: readonly string[] = LIST_READS[method];
	return reads.map((name) => currentValue.call(context, name)) as ValuesRead<M>;
}

/**
 * The names one level down an integration's source schema, in the API's order: its schemas,
 * then (given a schema) that schema's tables, then (given a table too) that table's columns.
 * Nothing, and no request, while the integration or a given parent is still empty.
 */
export async function sourceSchemaNames(
	this: ILoadOptionsFunctions,
	integrationId: string,
	...parents: [] | [schema: string] | [schema: string, table: string]
): Promise<string[]> {
	if (!integrationId || parents.some((name) => !name)) return [];
	const problem = pathSegmentProblem(integrationId);
	if (problem) throw fieldError({ node: this.getNode() }, integrationIdField.displayName, problem);
	const schemas = await namingFieldsIfNotFound(
		this.getNode(),
		[integrationIdField],
		{ integrationId },
		getSchemas.call(this, integrationId),
	);
	const [schema, table] = parents;
	if (schema === undefined) return Object.keys(schemas);
	const tables = schemas[schema]?.tables ?? {};
	if (table === undefined) return Object.keys(tables);
	return Object.keys(tables[table]?.columns ?? {});
}
