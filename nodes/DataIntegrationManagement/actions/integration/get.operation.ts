import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { readRequired } from '../readers';
import { getIntegration } from '../../client/integrations';

export const properties: INodeProperties[] = [integrationIdField];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const integrationId = readRequired.call(this, itemIndex, 'integrationId', 'Integration ID');
	return (await getIntegration.call(this, integrationId)) as unknown as IDataObject;
}
