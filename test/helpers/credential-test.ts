/** The credential's test, run through n8n-core's RoutingNode as n8n's credentials tester does. */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialTestRequest,
	type INodeType,
} from 'n8n-workflow';

import {
	additionalDataFor,
	CREDENTIAL_TYPE,
	credentialType,
	makeNode,
	type ApiCredentials,
} from './n8n-host';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Runs the credential's `test` request through n8n-core's RoutingNode, as n8n's tester does. */
export async function testCredential(credentials: ApiCredentials): Promise<CredentialTestResult> {
	const testRequest = credentialType.test?.request;
	if (!testRequest) throw new Error('The credential declares no test request');
	const probeType = probeNodeType(testRequest);
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
		return testerResult(error as TestError, credentialType.test!);
	}
}

type TestError = Error & {
	cause?: { code?: string; response?: { status: number; statusText?: string } };
};

/**
 * What n8n 2.x's tester (`CredentialsTester.testCredentials`) makes of the error RoutingNode threw:
 * a `responseCode` rule's message for the status, else the status text, a network code, the message.
 */
function testerResult(error: TestError, test: ICredentialTestRequest): CredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		const rule = test.rules?.find(
			(candidate) =>
				candidate.type === 'responseCode' && candidate.properties.value === response.status,
		);
		if (rule) return { status: 'Error', message: rule.properties.message };
		if (response.status < 199 || response.status > 299) {
			const message = response.statusText || `Received HTTP status code: ${response.status}`;
			return { status: 'Error', message };
		}
	} else if (error.cause?.code) return { status: 'Error', message: error.cause.code };
	return { status: 'Error', message: error.message };
}

/** A node whose one property routes the credential's test request, as n8n's tester builds it. */
function probeNodeType(testRequest: ICredentialTestRequest['request']): INodeType {
	return {
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
}
