/**
 * The n8n around this package's nodes in the tests (./n8n.ts runs them): their node types (and
 * the tool form n8n derives), and a credential store holding one credential in memory that
 * resolves the credential's `authenticate` the way n8n's CLI does.
 */
import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';
import {
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	UserError,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
// With the extension: each node has a codex twin (`<Name>.node.json`), which Node's resolution,
// and so tsx's, tries before `.ts` when the extension is left out.
import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import { DataIntegrationManagementTrigger } from '../../nodes/DataIntegrationManagement/DataIntegrationManagementTrigger.node.ts';

const PACKAGE = 'n8n-nodes-data-integration-management';
export const ACTION_NODE_TYPE = `${PACKAGE}.dataIntegrationManagement`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.dataIntegrationManagementTrigger`;
export const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';

export interface ApiCredentials {
	apiKey: string;
	baseUrl: string;
	/** The Ignore SSL Issues (Insecure) toggle; unset in credentials saved before it existed. */
	ignoreSSLIssues?: boolean;
	/** The Allow Changes toggle; unset in credentials saved before it existed. */
	allowChanges?: boolean;
}

export const actionNode: INodeType = new DataIntegrationManagement();

/**
 * The tool form n8n derives from a `usableAsTool` node for AI agents and the MCP Server Trigger:
 * the same node under the type name `…Tool`, which is what its `'@tool'` display options and
 * its run-time check of the node type see.
 */
export const TOOL_NODE_TYPE = `${ACTION_NODE_TYPE}Tool`;
export const toolNode: INodeType = {
	description: { ...actionNode.description, name: `${actionNode.description.name}Tool` },
	methods: actionNode.methods,
	execute: actionNode.execute,
};

export const triggerNode: INodeType = new DataIntegrationManagementTrigger();

const nodeClasses: Record<string, INodeType> = {
	[ACTION_NODE_TYPE]: actionNode,
	[TOOL_NODE_TYPE]: toolNode,
	[TRIGGER_NODE_TYPE]: triggerNode,
};
export const credentialType: ICredentialType = new DataIntegrationManagementApi();

export const nodeTypes: INodeTypes = {
	getByName: (type) => nodeClasses[type],
	getByNameAndVersion: (type, version) =>
		NodeHelpers.getVersionedNodeType(nodeClasses[type], version),
	getKnownTypes: () => ({}),
};

/**
 * n8n's own logger: the one every node context hands out as `this.logger` (n8n-core reads it
 * from its container on first use), taken through that same getter.
 */
export function n8nLogger(): IExecuteFunctions['logger'] {
	for (let prototype: object | null = PollContext.prototype; prototype; ) {
		const getter = Object.getOwnPropertyDescriptor(prototype, 'logger')?.get;
		if (getter) return getter.call({}) as IExecuteFunctions['logger'];
		prototype = Object.getPrototypeOf(prototype) as object | null;
	}
	throw new Error("n8n-core's node contexts have no logger getter");
}

/**
 * What n8n 2.x's credential store throws for a credential deleted or not shared with the
 * workflow: its CredentialNotFoundError, a UserError of n8n-workflow.
 */
export function credentialNotFound(): UserError {
	return new UserError(`Credential with ID "cred-1" does not exist for type "${CREDENTIAL_TYPE}".`);
}

/**
 * n8n's credential store, reduced to one credential held in memory; or, given an error, a store
 * that throws it, as n8n's does for a credential deleted or not shared with the workflow.
 */
class CredentialsStore extends ICredentialsHelper {
	/** How many times n8n read the credential: each read decrypts and resolves it. */
	reads = 0;

	constructor(private readonly credentials: ApiCredentials | Error) {
		super();
	}

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async getDecrypted() {
		this.reads++;
		if (this.credentials instanceof Error) throw this.credentials;
		return { ...this.credentials } as unknown as ICredentialDataDecryptedObject;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by these nodes');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return credentialType.properties;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	/** Applies the credential's `authenticate` (a function, or expressions to resolve), as n8n's CLI does. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialType.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate) throw new Error('The credential declares no authentication');
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) ?? '',
					)
				: value;
		const target = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			target[section] = target[section] ?? {};
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				target[section][resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}
}

/** How many times n8n read the credential of `data` (additionalDataFor's). */
export const credentialReads = (data: IWorkflowExecuteAdditionalData) =>
	(data.credentialsHelper as CredentialsStore | undefined)?.reads ?? 0;

/** What n8n-core needs of n8n around a run: the credential store, hooks, the URLs. */
export function additionalDataFor(
	credentials: ApiCredentials | Error | undefined,
	hooks?: ExecutionLifecycleHooks,
	currentNodeParameters?: INodeParameters,
): IWorkflowExecuteAdditionalData {
	const notAvailable = async () => {
		throw new Error('not available in the test harness');
	};
	return {
		credentialsHelper: credentials ? new CredentialsStore(credentials) : undefined,
		hooks,
		executeWorkflow: notAvailable,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		currentNodeParameters,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: notAvailable,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * The version of the node of `type` (each node of this package has one); a type not of this
 * package (the credential test's stand-in node) is at version 1.
 */
function versionOf(type: string): number {
	return Math.max(...[nodeClasses[type]?.description.version ?? 1].flat());
}

/** A node of `type` at its version, using the one credential. */
export function makeNode(
	type: string,
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode {
	return {
		id: `${type}-node`,
		name: type === TRIGGER_NODE_TYPE ? 'Audit Log Trigger' : 'Data Integration Management',
		type,
		typeVersion: versionOf(type),
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Emulator' } },
		...extra,
	};
}
