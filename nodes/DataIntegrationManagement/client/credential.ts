/** What the credential says about the nodes themselves, apart from how to reach the service. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../transport';

/** Whether the credential's Allow Changes is on: unset (saved before it existed) counts as on. */
export async function credentialAllowsChanges(this: IExecuteFunctions): Promise<boolean> {
	const { allowChanges } = await this.getCredentials<{ allowChanges?: unknown }>(CREDENTIAL_TYPE);
	return allowChanges === undefined || String(allowChanges) === 'true';
}
