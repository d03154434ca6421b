/** The credential the nodes call the service with, as the transport and the shared pace read it. */

export const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';

/** The credential's fields the transport reads; the key for the shared pace's digest, and to keep it out of errors. */
export type ServiceCredentials = Partial<Record<'baseUrl' | 'apiKey' | 'ignoreSSLIssues', unknown>>;

/** The credential's key as it is sent: without spaces or a line break around it (a pasted key). */
export const apiKeyOf = (credentials: { apiKey?: unknown }): string =>
	String(credentials.apiKey ?? '').trim();

/** The credential's base URL, without spaces around it or a trailing slash. */
export const baseUrlOf = (credentials: { baseUrl?: unknown }): string =>
	String(credentials.baseUrl).trim().replace(/\/+$/, '');
