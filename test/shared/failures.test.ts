/**
 * Why an error that no one declared failed (shared/failures.ts): n8n's own errors about what the
 * node was given ask for a change of configuration; anything else is a defect of the node.
 */
import {
	ExpressionError,
	NodeApiError,
	NodeOperationError,
	UserError,
	type Failure,
	type INode,
} from 'n8n-workflow';

import {
	declaredError,
	failureOf,
	undeclaredCause,
	withItemsSent,
} from '../../nodes/DataIntegrationManagement/shared/failures';
import { credentialNotFound } from '../helpers/n8n';

const node = { name: 'Data Integration Management' } as INode;

describe('undeclaredCause', () => {
	it.each<[string, unknown, Failure['cause']]>([
		['an expression that failed', new ExpressionError('invalid syntax'), 'configuration-invalid'],
		[
			'no credential selected (n8n-core)',
			new NodeOperationError(node, 'Node does not have any credentials set'),
			'configuration-invalid',
		],
		['a credential deleted or not shared', credentialNotFound(), 'configuration-invalid'],
		[
			'a parameter n8n could not get',
			new UserError('Could not get parameter'),
			'configuration-invalid',
		],
		['a TypeError', new TypeError('x is undefined'), 'node-defect'],
		['a plain error', new Error('unexpected'), 'node-defect'],
		['a thrown text', 'boom', 'node-defect'],
		['nothing', undefined, 'node-defect'],
	])('%s', (_title, error, cause) => {
		expect(undeclaredCause(error)).toEqual({ cause });
	});
});

describe('failureOf', () => {
	it('gives what the error declares', () => {
		const declared: Failure = { cause: 'rate-limited', retryAfterMs: 150_000 };
		const error = new NodeOperationError(node, 'limited', { failure: declared });
		expect(failureOf(error)).toEqual(declared);
	});

	it('decides what no one declared', () => {
		expect(failureOf(credentialNotFound())).toEqual({ cause: 'configuration-invalid' });
		expect(failureOf(new Error('unexpected'))).toEqual({ cause: 'node-defect' });
		expect(failureOf(undefined)).toEqual({ cause: 'node-defect' });
	});
});

describe('declaredError', () => {
	it('keeps the NodeApiError itself, with what it declares, as n8n does when handed one to wrap', () => {
		const declared: Failure = { cause: 'temporarily-unavailable' };
		const error = new NodeApiError(
			node,
			{ message: 'down' },
			{ httpCode: '503', failure: declared },
		);

		expect(declaredError(node, error)).toBe(error);
		expect(error).toMatchObject({ failure: declared, httpCode: '503' });
	});

	it('declares on one that declares nothing what undeclaredCause gives it', () => {
		const error = new NodeApiError(node, { message: 'undeclared' });

		expect(declaredError(node, error)).toBe(error);
		expect(error.failure).toEqual(undeclaredCause(error));
	});

	it.each([
		['a NodeApiError', new NodeApiError(node, { message: 'down' }, { httpCode: '503' })],
		['a NodeOperationError', new NodeOperationError(node, 'refused', { itemIndex: 0 })],
	])('keeps %s itself, naming the item it is given, or the one it named', (_, error) => {
		expect(declaredError(node, error, 4)).toBe(error);
		expect(error.context.itemIndex).toBe(4);
		expect(declaredError(node, error)).toBe(error);
		expect(error.context.itemIndex).toBe(4);
	});

	it.each([
		['a TypeError, with its item', new TypeError('x is undefined'), 3, 'node-defect'],
		['a UserError', new UserError('Could not get parameter'), undefined, 'configuration-invalid'],
	])(
		'wraps anything else in a NodeOperationError declaring its cause: %s',
		(_, error, item, cause) => {
			const wrapped = declaredError(node, error, item);

			expect(wrapped).toBeInstanceOf(NodeOperationError);
			expect(wrapped).toMatchObject({ message: error.message, failure: { cause } });
			expect((wrapped as NodeOperationError).context.itemIndex).toBe(item);
		},
	);
});

describe('withItemsSent', () => {
	it.each([
		[
			[0, 1, 3, 4],
			'Items 0 and 1 had already made their change; items 3 and 4 had already been sent and may have taken effect: running the node again sends them again.',
		],
		[
			[3],
			'Item 3 had already been sent and may have taken effect: running the node again sends it again.',
		],
		[[0], 'Item 0 had already made its change: running the node again sends it again.'],
	])('items sent %j around item 2: one sentence, capitalised once', (sent, note) => {
		const error = new NodeApiError(node, { message: 'down' }, { description: 'Why.' });

		expect(withItemsSent(error, 2, sent)).toBe(error);
		expect(error.description).toBe(`Why.\n\n${note}`);
	});
});
