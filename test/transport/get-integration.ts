/** Integration → Get of the seeded integration, with the credentials a network test sets up. */
import { SEED } from '../emulator';
import { runActionNode, type ApiCredentials } from '../helpers/n8n';

export const getIntegration = (credentials: ApiCredentials) =>
	runActionNode({
		credentials,
		parameters: {
			resource: 'integration',
			operation: 'get',
			integrationId: SEED.integrations.ordersToSnowflake,
		},
	});
