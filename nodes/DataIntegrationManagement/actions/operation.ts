import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

/** One operation of one resource: its fields and what it does for one input item. */
export interface Operation {
	/** The operation's own fields; `withDisplay` shows them only for this resource and operation. */
	description: INodeProperties[];
	/** Runs the operation for input item `itemIndex`; each returned object becomes one output item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
	/** Writes may run several items' requests at once (`options.concurrency`). */
	concurrent?: boolean;
}

/** Shows `fields` only when the node is set to this resource and operation. */
export function withDisplay(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	const show: IDisplayOptions['show'] = { resource: [resource], operation: [operation] };
	return fields.map((field) => ({
		...field,
		displayOptions: { ...field.displayOptions, show: { ...field.displayOptions?.show, ...show } },
	}));
}
