/**
 * Runs this package's nodes the way n8n does, through n8n-core: a workflow executed by
 * `WorkflowExecute`, a poll through n8n-core's `PollContext` and `TriggersAndPollers`, list
 * searches through `LoadOptionsContext`, and the credential test through `RoutingNode`, as
 * n8n's credentials tester does. Only the credential store is ours: it hands n8n-core the
 * decrypted credential and resolves the credential's declarative `authenticate` block the way
 * n8n's CLI does.
 */
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	RoutingNode,
	TriggersAndPollers,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
// With the extension: each node has a codex twin (`<Name>.node.json`), which Node's resolution,
// and so tsx's, tries before `.ts` when the extension is left out.
import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import { DataIntegrationManagementTrigger } from '../../nodes/DataIntegrationManagement/DataIntegrationManagementTrigger.node.ts';

const PACKAGE = 'n8n-nodes-data-integration-management';
export const ACTION_NODE_TYPE = `${PACKAGE}.dataIntegrationManagement`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.dataIntegrationManagementTrigger`;
const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';

export interface ApiCredentials {
	apiKey: string;
	baseUrl: string;
	/** The Ignore SSL Issues (Insecure) toggle; unset in credentials saved before it existed. */
	ignoreSSLIssues?: boolean;
	/** The Allow Changes toggle; unset in credentials saved before it existed. */
	allowChanges?: boolean;
}

const actionNode = new DataIntegrationManagement();

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

const nodeClasses: Record<string, INodeType> = {
	[ACTION_NODE_TYPE]: actionNode,
	[TOOL_NODE_TYPE]: toolNode,
	[TRIGGER_NODE_TYPE]: new DataIntegrationManagementTrigger(),
};
const credentialType: ICredentialType = new DataIntegrationManagementApi();

const nodeTypes: INodeTypes = {
	getByName: (type) => nodeClasses[type],
	getByNameAndVersion: (type, version) =>
		NodeHelpers.getVersionedNodeType(nodeClasses[type], version),
	getKnownTypes: () => ({}),
};

/** n8n's credential store, reduced to one credential held in memory. */
class CredentialsStore extends ICredentialsHelper {
	constructor(private readonly credentials: ApiCredentials) {
		super();
	}

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async getDecrypted() {
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

function additionalDataFor(
	credentials: ApiCredentials | undefined,
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
 * The newest version the node of `type` describes: what a node added in the editor gets. A type
 * not of this package (the credential test's stand-in node) is at version 1.
 */
export function newestVersion(type: string): number {
	const description = nodeClasses[type]?.description;
	return description ? Math.max(...[description.version].flat()) : 1;
}

function makeNode(type: string, parameters: INodeParameters, extra: Partial<INode> = {}): INode {
	return {
		id: `${type}-node`,
		name: type === TRIGGER_NODE_TYPE ? 'Audit Log Trigger' : 'Data Integration Management',
		type,
		typeVersion: newestVersion(type),
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Emulator' } },
		...extra,
	};
}

export interface RunActionOptions {
	credentials: ApiCredentials;
	parameters: INodeParameters;
	/** The input items; one empty item by default, as after a manual trigger. */
	items?: IDataObject[];
	/** Runs the node with "On Error: Continue" (n8n's `continueOnFail()`). */
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** The node's version; the newest by default (give 1 for what saved workflows hold). */
	typeVersion?: number;
	/** Runs the node's tool form (the `…Tool` type) instead of the node. */
	asTool?: boolean;
	/** Runs the node with no credential selected (`credentials` is then only the store's). */
	noCredentialSelected?: boolean;
}

export interface RunActionResult {
	items: INodeExecutionData[];
	error?: ExecutionError;
	run: IRun;
}

/** Executes the action node as the only node of a workflow, fed with `items`. */
export async function runActionNode(options: RunActionOptions): Promise<RunActionResult> {
	return await executeNode({
		node: makeNode(options.asTool ? TOOL_NODE_TYPE : ACTION_NODE_TYPE, options.parameters, {
			...(options.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			...(options.typeVersion ? { typeVersion: options.typeVersion } : {}),
			...(options.noCredentialSelected ? { credentials: undefined } : {}),
		}),
		nodeTypes,
		items: options.items ?? [{}],
		credentials: options.credentials,
		mode: options.mode,
	});
}

/**
 * Executes `node` as the only node of a workflow run by n8n-core's `WorkflowExecute`, fed with
 * `items` (one input item each). Also used by the benchmark for n8n's HTTP Request node.
 */
export async function executeNode(options: {
	node: INode;
	nodeTypes: INodeTypes;
	items: IDataObject[];
	credentials?: ApiCredentials;
	mode?: WorkflowExecuteMode;
}): Promise<RunActionResult> {
	const { node } = options;
	const mode = options.mode ?? 'manual';
	const workflow = new Workflow({
		id: 'workflow-under-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: options.nodeTypes,
	});
	const hooks = new ExecutionLifecycleHooks(mode, 'execution-1', {
		id: workflow.id,
		name: 'test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const input = options.items.map((json) => ({ json }));
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [input] }, source: null }] },
	});
	const workflowExecute = new WorkflowExecute(
		additionalDataFor(options.credentials, hooks),
		mode,
		runExecutionData,
	);
	const run = await workflowExecute.processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: run.data.resultData.error ?? taskData?.error,
		run,
	};
}

/** Calls one of the action node's `listSearch` or `loadOptions` methods through n8n-core. */
export async function callNodeMethod<T>(options: {
	credentials: ApiCredentials;
	kind: 'listSearch' | 'loadOptions';
	method: string;
	parameters: INodeParameters;
	filter?: string;
	/** The parameter being filled, as n8n's editor names it, so `&sibling` names resolve. */
	path?: string;
}): Promise<T> {
	const node = makeNode(ACTION_NODE_TYPE, options.parameters);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalDataFor(options.credentials, undefined, options.parameters),
		options.path ?? `parameters.${options.method}`,
	);
	const methods = nodeClasses[ACTION_NODE_TYPE].methods?.[options.kind] as
		| Record<string, (this: LoadOptionsContext, filter?: string) => Promise<T>>
		| undefined;
	const method = methods?.[options.method];
	if (!method) throw new Error(`No ${options.kind} method named ${options.method}`);
	return await method.call(context, options.filter);
}

export interface PollOptions {
	credentials: ApiCredentials;
	parameters: INodeParameters;
	/** Static data as n8n stored it after the previous poll (JSON), or undefined on the first. */
	staticData?: IDataObject;
	/** 'trigger' for an active workflow, 'manual' for the editor's "Fetch test event". */
	mode?: 'trigger' | 'manual';
	/** What `getPollBudgetMs()` answers (n8n-core's default, 5 minutes, when not given). */
	pollBudgetMs?: number;
	/** The workflow's id; one id for every test unless given. */
	workflowId?: string;
}

export interface PollResult {
	items: INodeExecutionData[] | null;
	/** The workflow's static data after the poll, through a JSON round trip as n8n saves it. */
	staticData: IDataObject;
}

/** One poll of the trigger through n8n-core's real poll context. */
export async function pollTrigger(options: PollOptions): Promise<PollResult> {
	return await triggerWorkflow(options).poll();
}

/**
 * The trigger of one active workflow, as n8n's scheduler holds it: every poll runs through a new
 * PollContext on the same workflow object, so polls share its static data in memory, also while
 * they overlap (n8n starts a poll on every tick without waiting for the one before).
 */
export function activeTrigger(options: Omit<PollOptions, 'mode'>): TriggerWorkflow {
	return triggerWorkflow({ ...options, mode: 'trigger' });
}

export interface TriggerWorkflow {
	poll: () => Promise<PollResult>;
	/** The workflow's static data as it is in memory now, also during a poll. */
	liveStaticData: () => IDataObject;
}

function triggerWorkflow(options: PollOptions): TriggerWorkflow {
	const node = makeNode(TRIGGER_NODE_TYPE, options.parameters);
	const workflow = new Workflow({
		id: options.workflowId ?? 'workflow-under-test',
		nodes: [node],
		connections: {},
		active: options.mode !== 'manual',
		nodeTypes,
		staticData: JSON.parse(JSON.stringify(options.staticData ?? {})) as IDataObject,
	});
	const mode = options.mode ?? 'trigger';
	const poll = async (): Promise<PollResult> => {
		const context = new PollContext(
			workflow,
			node,
			additionalDataFor(options.credentials),
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			options.pollBudgetMs === undefined ? undefined : () => options.pollBudgetMs!,
		);
		const result = await new TriggersAndPollers().runPollFunction(workflow, node, context);
		return {
			items: result ? result[0] : null,
			staticData: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
		};
	};
	return { poll, liveStaticData: () => workflow.staticData };
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Runs the credential's `test` request through n8n-core's RoutingNode, as n8n's tester does. */
export async function testCredential(credentials: ApiCredentials): Promise<CredentialTestResult> {
	const testRequest = credentialType.test?.request;
	if (!testRequest) throw new Error('The credential declares no test request');
	const probeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest },
				},
			],
		},
	};
	const node = makeNode('credentialTest', {});
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => probeType,
			getByNameAndVersion: () => probeType,
			getKnownTypes: () => ({}),
		},
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalDataFor(credentials),
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, probeType, {
			id: 'cred-1',
			name: 'Emulator',
			type: CREDENTIAL_TYPE,
			data: { ...credentials },
		}).runNode();
		return { status: 'OK', message: 'Connection successful!' };
	} catch (error) {
		const status = (error as { cause?: { response?: { status?: number } }; httpCode?: string })
			.httpCode;
		return {
			status: 'Error',
			message: status ? `HTTP ${status}: ${error.message}` : error.message,
		};
	}
}
