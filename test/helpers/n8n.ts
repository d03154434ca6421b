/**
 * Runs this package's nodes the way n8n does, through n8n-core: a workflow executed by
 * `WorkflowExecute`, a poll through n8n-core's `PollContext` and `TriggersAndPollers`, list
 * searches through `LoadOptionsContext`, and the credential test through `RoutingNode`, as
 * n8n's credentials tester does (./credential-test.ts). Only the credential store is ours
 * (./n8n-host.ts): it hands n8n-core the decrypted credential and resolves the credential's
 * `authenticate` the way n8n's CLI does.
 */
import {
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	TriggersAndPollers,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ExecutionError,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import {
	ACTION_NODE_TYPE,
	actionNode,
	additionalDataFor,
	credentialReads,
	makeNode,
	nodeTypes,
	TOOL_NODE_TYPE,
	TRIGGER_NODE_TYPE,
	triggerNode,
	type ApiCredentials,
} from './n8n-host';

export {
	ACTION_NODE_TYPE,
	credentialNotFound,
	n8nLogger,
	TOOL_NODE_TYPE,
	toolNode,
	TRIGGER_NODE_TYPE,
	type ApiCredentials,
} from './n8n-host';
export { testCredential, type CredentialTestResult } from './credential-test';

export interface RunActionOptions {
	/** The credential; or the error n8n's store throws for one deleted or not shared. */
	credentials: ApiCredentials | Error;
	parameters: INodeParameters;
	/** The input items; one empty item by default, as after a manual trigger. */
	items?: IDataObject[];
	/**
	 * Runs the node with "On Error: Continue" (n8n's `continueOnFail()`); 'errorOutput': with
	 * "Continue (using error output)", whose items `errorItems` gives.
	 */
	continueOnFail?: boolean | 'errorOutput';
	mode?: WorkflowExecuteMode;
	/** Runs the node's tool form (the `…Tool` type) instead of the node. */
	asTool?: boolean;
	/** Runs the node with no credential selected (`credentials` is then only the store's). */
	noCredentialSelected?: boolean;
}

export interface RunActionResult {
	items: INodeExecutionData[];
	/** The items of the error output (On Error: Continue (using error output)). */
	errorItems: INodeExecutionData[];
	error?: ExecutionError;
	run: IRun;
	/** How many times n8n read the credential during the run. */
	credentialReads: number;
}

/** Executes the action node as the only node of a workflow, fed with `items`. */
export async function runActionNode(options: RunActionOptions): Promise<RunActionResult> {
	return await executeNode({
		node: makeNode(options.asTool ? TOOL_NODE_TYPE : ACTION_NODE_TYPE, options.parameters, {
			...(options.continueOnFail
				? {
						onError:
							options.continueOnFail === 'errorOutput'
								? 'continueErrorOutput'
								: 'continueRegularOutput',
					}
				: {}),
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
	credentials?: ApiCredentials | Error;
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
	const additionalData = additionalDataFor(options.credentials, hooks);
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const run = await workflowExecute.processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		errorItems: taskData?.data?.main?.[1] ?? [],
		error: run.data.resultData.error ?? taskData?.error,
		run,
		credentialReads: credentialReads(additionalData),
	};
}

/** Calls one of the nodes' `listSearch` or `loadOptions` methods, by its name, through n8n-core. */
export async function callNodeMethod<T>(options: {
	credentials: ApiCredentials;
	method: string;
	parameters: INodeParameters;
	filter?: string;
	/** The parameter being filled, as n8n's editor names it, so `&sibling` names resolve. */
	path?: string;
}): Promise<T> {
	type Method = (this: LoadOptionsContext, filter?: string) => Promise<T>;
	const methodOf = (type: INodeType) =>
		(['listSearch', 'loadOptions'] as const)
			.map((kind) => (type.methods?.[kind] as Record<string, Method> | undefined)?.[options.method])
			.find(Boolean);
	// The node that has the method: the action node's lists, or the trigger's.
	const [type, method] =
		[
			[ACTION_NODE_TYPE, methodOf(actionNode)] as const,
			[TRIGGER_NODE_TYPE, methodOf(triggerNode)] as const,
		].find(([, found]) => found) ?? [];
	if (!type || !method) throw new Error(`No list method named ${options.method}`);
	const node = makeNode(type, options.parameters);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalDataFor(options.credentials, undefined, options.parameters),
		options.path ?? `parameters.${options.method}`,
	);
	return await method.call(context, options.filter);
}

export interface PollOptions {
	/** The credential; or the error n8n's store throws for one deleted or not shared. */
	credentials: ApiCredentials | Error;
	parameters: INodeParameters;
	/** Static data as n8n stored it after the previous poll (JSON), or undefined on the first. */
	staticData?: IDataObject;
	/** 'trigger' for an active workflow, 'manual' for the editor's "Fetch test event". */
	mode?: 'trigger' | 'manual';
	/** What `getPollBudgetMs()` answers (n8n-core's default, 5 minutes, when not given). */
	pollBudgetMs?: number;
	/** The workflow's id; a new one for each `pollTrigger` or `activeTrigger` unless given. */
	workflowId?: string;
	/**
	 * How the workflow was activated, as the poll context says (`getActivationMode`): 'activate'
	 * unless given; n8n's durable scheduler runs its scheduled polls with 'update'.
	 */
	activation?: WorkflowActivateMode;
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

/** Trigger workflows made so far: each has an id of its own, as what n8n's process keeps is by id. */
let triggerWorkflows = 0;

function triggerWorkflow(options: PollOptions): TriggerWorkflow {
	const node = makeNode(TRIGGER_NODE_TYPE, options.parameters);
	const workflow = new Workflow({
		id: options.workflowId ?? `workflow-under-test-${++triggerWorkflows}`,
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
			mode === 'manual' ? 'manual' : (options.activation ?? 'activate'),
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
