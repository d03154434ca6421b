import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { integrationIdField } from '../fields';
import { readRequired } from '../parameters';
import { apiRequest } from '../../transport';
import type { Integration } from '../../api';

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const integrationId = readRequired.call(this, 'integrationId', itemIndex, 'Integration ID');
	const { data } = await apiRequest.call(
		this,
		'GET',
		`/integrations/${encodeURIComponent(integrationId)}`,
	);
	return (data as { integration: Integration }).integration as unknown as IDataObject;
}

export const get: Operation = {
	description: withDisplay('integration', 'get', [integrationIdField]),
	execute,
};
