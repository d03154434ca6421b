/** The hints n8n's AI workflow builder reads of each node, as the builder-hint tests walk them. */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import { DataIntegrationManagementTrigger } from '../../nodes/DataIntegrationManagement/DataIntegrationManagementTrigger.node';

export const action = new DataIntegrationManagement().description;
export const trigger = new DataIntegrationManagementTrigger().description;

type Entry = INodeProperties | INodePropertyCollection | INodePropertyOptions;

/** Every parameter of a node, at any depth (collections, fixed collections and their values). */
export function parameters(
	entries: Entry[] = [],
): Array<INodeProperties | INodePropertyCollection> {
	return entries.flatMap((entry) => {
		if ('values' in entry) return [entry, ...parameters(entry.values)];
		if ('displayName' in entry && 'type' in entry) return [entry, ...parameters(entry.options)];
		return [];
	});
}

/**
 * Every hint of a node, with where it is: `builderHint.searchHint`, `relatedNodes`, `usableAsTool`
 * (the tool form's description), or the name of the parameter it is on, with the operations that
 * show that parameter (`operations`), if only some do.
 */
export function hintsOf(
	node: INodeTypeDescription,
): Array<{ where: string; hint: string; operations?: string }> {
	const found = [
		{ where: 'builderHint.searchHint', hint: node.builderHint?.searchHint ?? '' },
		...(node.builderHint?.relatedNodes ?? []).map(({ relationHint }) => ({
			where: 'relatedNodes',
			hint: relationHint,
		})),
		...parameters(node.properties)
			.filter((parameter) => parameter.builderHint)
			.map((parameter) => ({
				where: parameter.name,
				hint: parameter.builderHint!.propertyHint,
				operations: ('displayOptions' in parameter
					? parameter.displayOptions?.show?.operation
					: undefined
				)?.join(', '),
			})),
	];
	const tool = typeof node.usableAsTool === 'object' ? node.usableAsTool.replacements : undefined;
	if (tool?.description) found.push({ where: 'usableAsTool', hint: tool.description });
	return found;
}
