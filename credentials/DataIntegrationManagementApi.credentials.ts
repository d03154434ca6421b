import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { apiKeyOf, baseUrlOf } from '../nodes/DataIntegrationManagement/transport/credential';

/** The request header that carries the API key (the spec's `x-api-key`). */
export const API_KEY_HEADER = 'x-api-key';

/** The Test's words for a redirect, which it does not follow (a node's error names where it points). */
const REDIRECTED =
	'The Base URL redirects to another address, which n8n does not follow with the API key: nothing was sent there. Set the Base URL to the address the service now answers at, ending in /v1 (a node run with this credential names where the redirect points).';

/** The Test's words for a 401: the key is refused (or empty: the Test cannot tell, the nodes can). */
const KEY_REFUSED =
	'The service refused the API key. Check the API Key: it must be a key the service issued for this workspace, copied whole (if the field holds only spaces, it is sent empty: paste the key).';

/** The Test's words for a 404 of GET /users: the Base URL is not the API's. */
const NOT_FOUND =
	"Nothing answers at this Base URL: set it to the API's address, ending in /v1 (e.g. https://api.example.com/v1).";

/** The Test's words for a 403 of GET /users: the key's rights, or a server in front refused. */
const NO_RIGHT_TO_LIST_USERS =
	'The service refused GET /users, which the Test asks (HTTP 403): the API key may lack the right to list users (operations it is allowed may still work), or a server in front of the API refused n8n (a proxy, an IP allow-list). Check the API Key, or ask the workspace admin to grant it.';

/** A rule of the Test: its words for an answer with status `value`. */
const rule = (value: number, message: string): IAuthenticateRuleResponseCode => ({
	type: 'responseCode',
	properties: { value, message },
});

/** Where a request goes, as n8n hands it to `authenticate`: `url` under `baseURL`, or a legacy `uri`. */
type RequestTarget = Partial<Record<'url' | 'baseURL' | 'uri', unknown>>;

/** The origin of `target`, or undefined when it is no URL. */
export function requestOrigin({ url, baseURL, uri }: RequestTarget): string | undefined {
	const target = String(uri ?? url ?? '');
	const base = typeof baseURL === 'string' ? baseURL : undefined;
	return URL.canParse(target, base) ? new URL(target, base).origin : undefined;
}

export class DataIntegrationManagementApi implements ICredentialType {
	name = 'dataIntegrationManagementApi';

	displayName = 'Data Integration Management API';

	icon: Icon = {
		light: 'file:../nodes/DataIntegrationManagement/dataIntegrationManagement.svg',
		dark: 'file:../nodes/DataIntegrationManagement/dataIntegrationManagement.dark.svg',
	};

	// The one place the documentation's URL (the README) is set: the build completes the nodes'
	// documentation links (`#section` in their .node.json files) with it (scripts/assets.js).
	documentationUrl =
		'https://github.com/data-integration-management/n8n-nodes-data-integration-management#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: `The key the service issued for your workspace. It is sent in the ${API_KEY_HEADER} header.`,
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.example.com/v1',
			description:
				'The address of the API, ending in the version segment /v1. A trailing slash is fine.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the certificate of the service cannot be verified, e.g. one signed by a private certificate authority. On self-hosted n8n, trusting that authority instead (NODE_EXTRA_CA_CERTS) is safer.',
		},
		{
			displayName: 'Allow Changes',
			name: 'allowChanges',
			type: 'boolean',
			default: true,
			description:
				"Whether this package's nodes and their AI tools may create, update or delete with this credential. Off, they only read. Other nodes that use the credential, such as the HTTP Request node, do not check it.",
		},
	];

	// The key goes into its header without spaces around it (a pasted key may end in a line break),
	// by a function, not an expression n8n would evaluate for every request, only to the Base URL's
	// origin: a request elsewhere (an HTTP Request node's URL) goes without it. No redirect is
	// followed with it: n8n's client would send it on.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const service = requestOrigin({ url: baseUrlOf(credentials) });
		if (service === undefined || requestOrigin(requestOptions) !== service) return requestOptions;
		// followRedirect and followAllRedirects: n8n's legacy request, the HTTP Request node's.
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, [API_KEY_HEADER]: apiKeyOf(credentials) },
			disableFollowRedirect: true,
			followRedirect: false,
			followAllRedirects: false,
		} as IHttpRequestOptions;
	}

	// GET /users needs a valid key and changes nothing, so it tells a right key from a wrong one.
	// No redirect is followed, as in the nodes: n8n would send the key wherever it points. The rules
	// word what n8n 2.x's tester reads (n8n 1.x's loses the status, and shows its own words).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
			url: '/users',
			method: 'GET',
			skipSslCertificateValidation: '={{$credentials.ignoreSSLIssues === true}}',
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((value) => rule(value, REDIRECTED)),
			rule(401, KEY_REFUSED),
			rule(403, NO_RIGHT_TO_LIST_USERS),
			rule(404, NOT_FOUND),
		],
	};
}
