import type { INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { readPathSegment } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getIntegration } from '../../client/integrations';
import type { Execute } from '../operation';

export const changesData = false;

export const properties: INodeProperties[] = [integrationIdField];

export const execute: Execute = async function (itemIndex, pacer) {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	return await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		getIntegration.call(this, integrationId, pacer),
	);
};
