/** What the credential says about the nodes themselves, apart from how to reach the service. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../transport';

/**
 * Whether the credential lets nodes change data: its Allow Changes toggle, on when unset (saved
 * before it existed). Any value but on (or unset) refuses, e.g. "false" from an expression.
 */
export async function credentialAllowsChanges(this: IExecuteFunctions): Promise<boolean> {
	const { allowChanges } = await this.getCredentials<{ allowChanges?: unknown }>(CREDENTIAL_TYPE);
	return allowChanges === undefined || String(allowChanges) === 'true';
}
