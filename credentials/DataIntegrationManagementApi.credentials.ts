import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** The request header that carries the API key (the spec's `x-api-key`). */
export const API_KEY_HEADER = 'x-api-key';

export class DataIntegrationManagementApi implements ICredentialType {
	name = 'dataIntegrationManagementApi';

	displayName = 'Data Integration Management API';

	icon: Icon = {
		light: 'file:../nodes/DataIntegrationManagement/dataIntegrationManagement.svg',
		dark: 'file:../nodes/DataIntegrationManagement/dataIntegrationManagement.dark.svg',
	};

	// The one place the documentation's URL (the README) is set: the build completes the nodes'
	// documentation links (`#section` in their .node.json files) with it (gulpfile.js).
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
				'Whether to connect even if the certificate of the service cannot be verified, e.g. one signed by a private certificate authority. Trusting that authority in n8n (NODE_EXTRA_CA_CERTS) is safer.',
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

	// The key goes into its header as it is: a function, not an expression n8n would evaluate
	// for every request.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, [API_KEY_HEADER]: String(credentials.apiKey) },
		};
	}

	// GET /users needs a valid key and changes nothing, so it tells a right key from a wrong one.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
			url: '/users',
			method: 'GET',
			skipSslCertificateValidation: '={{$credentials.ignoreSSLIssues === true}}',
		},
	};
}
