import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { readPathSegment } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getIntegration } from '../../client/integrations';
import type { Pacer } from '../../transport/pacer';

export const changesData = false;

export const properties: INodeProperties[] = [integrationIdField];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	return await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		getIntegration.call(this, integrationId, pacer),
	);
}
