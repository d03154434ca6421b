/** What the credential says about the nodes themselves, apart from how to reach the service. */
import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../transport';
import { apiKeyOf, baseUrlOf, type ServiceCredentials } from '../transport/credential';
import { paceKey, paceOf, SharedPace } from '../pacing/shared-pace';

/** Whether the credential's Allow Changes is on: unset (saved before it existed) counts as on. */
export async function credentialAllowsChanges(this: IExecuteFunctions): Promise<boolean> {
	const { allowChanges } = await this.getCredentials<{ allowChanges?: unknown }>(CREDENTIAL_TYPE);
	return allowChanges === undefined || String(allowChanges) === 'true';
}

/** Which service and key the credential reaches: its base URL and key, hashed (the key is not kept). */
export async function credentialFingerprint(this: IPollFunctions): Promise<string> {
	const credentials = await this.getCredentials<ServiceCredentials>(CREDENTIAL_TYPE);
	return paceKey(baseUrlOf(credentials), apiKeyOf(credentials));
}

/**
 * The pace this process keeps for the credential's service and key (Concurrency Auto). Without a
 * readable credential, a pace of its own: the run's requests then fail as they would alone.
 */
export async function credentialPace(this: IExecuteFunctions): Promise<SharedPace> {
	const credentials = await this.getCredentials<ServiceCredentials>(CREDENTIAL_TYPE).catch(
		() => undefined,
	);
	return credentials ? paceOf(baseUrlOf(credentials), apiKeyOf(credentials)) : new SharedPace();
}
