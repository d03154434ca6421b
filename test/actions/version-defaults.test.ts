/**
 * Each node version shows, as an option's default, what it runs when the option is not set:
 * n8n's own display rules (`displayParameter`, as its editor applies them) pick the Concurrency
 * Mode a version shows, and running the node with that default set gives what it runs unset.
 */
import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { NODE_VERSIONS } from '../../nodes/DataIntegrationManagement/actions/versions';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { createAssetsVia, namedAssets, startCountingProxy, type CountingProxy } from './support';

const { emulator, credentials } = useEmulator();
const { description } = new DataIntegrationManagement();

/**
 * The Options fields n8n shows in each operation of a node at `typeVersion` (or of its tool
 * form), one list per operation: every Options collection shown, its fields shown.
 */
const OPERATION_KEYS = Object.entries(operationsByResource).flatMap(([resource, operations]) =>
	Object.keys(operations).map((operation) => `${resource}.${operation}`),
);

function shownOptions(typeVersion: number, asTool = false): INodeProperties[][] {
	const node = { typeVersion };
	// n8n tells the tool form by its type's name.
	const type = asTool ? { ...description, name: `${description.name}Tool` } : description;
	const shown = (values: INodeParameters, property: INodeProperties) =>
		NodeHelpers.displayParameter(values, property, node, type);
	return Object.entries(operationsByResource).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) =>
			description.properties
				.filter((property) => property.name === 'options')
				.filter((options) => shown({ resource, operation }, options))
				.flatMap((options) =>
					(options.options as INodeProperties[]).filter((field) => shown({}, field)),
				),
		),
	);
}

describe.each([
	[1, 'fixed'],
	[1.1, 'auto'],
	[1.2, 'auto'],
])('node version %s', (typeVersion, unsetMode) => {
	it(`shows one Concurrency Mode in every operation's Options, defaulting to ${unsetMode}`, () => {
		const modes = shownOptions(typeVersion).map((fields) =>
			fields.filter((field) => field.name === 'concurrencyMode').map((field) => field.default),
		);
		expect(modes).toHaveLength(12);
		for (const defaults of modes) expect(defaults).toEqual([unsetMode]);
	});

	it('shows neither Concurrency field in its tool form', () => {
		const names = shownOptions(typeVersion, true).flatMap((fields) => fields.map((f) => f.name));
		expect(names).not.toContain('concurrencyMode');
		expect(names).not.toContain('concurrency');
	});

	describe('runs, with the option unset, what the default it shows runs', () => {
		let proxy: CountingProxy;
		beforeAll(async () => (proxy = await startCountingProxy(emulator())));
		afterAll(async () => await proxy.close());

		it('(the most requests in flight, 8 creates)', async () => {
			emulator().setLatency(40);
			const mostInFlight = async (options?: { concurrencyMode: string }) => {
				proxy.resetCount();
				const result = await createAssetsVia(
					proxy,
					credentials(),
					namedAssets(8),
					options,
					false,
					typeVersion,
				);
				expect(result.error).toBeUndefined();
				return proxy.maxInFlight;
			};
			const unset = await mostInFlight();
			const shown = await mostInFlight({ concurrencyMode: unsetMode });
			expect(unset > 1).toBe(unsetMode === 'auto');
			expect(shown > 1).toBe(unsetMode === 'auto');
		});
	});
});

describe.each([
	[1, 'raw'],
	[1.1, 'raw'],
	[1.2, 'columns'],
])('node version %s', (typeVersion, unsetOutput) => {
	const outputOf = (operation: string) =>
		shownOptions(typeVersion)[OPERATION_KEYS.indexOf(operation)].find(
			(field) => field.name === 'output',
		)?.default;

	it(`shows Get Schemas' Output defaulting to ${unsetOutput}, and each other Output its one default`, () => {
		expect(outputOf('integration.getSchemas')).toBe(unsetOutput);
		expect(outputOf('integration.getColumns')).toBe('columns');
		expect(outputOf('auditLog.getAll')).toBe('full');
	});

	it("gives with Get Schemas' Output unset what the default it shows gives", async () => {
		const parameters = {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: SEED.integrations.ordersToSnowflake,
		};
		const run = async (options?: { output: string }) =>
			(
				await runActionNode({
					credentials: credentials(),
					parameters: { ...parameters, ...(options && { options }) },
					typeVersion,
				})
			).items.map((item) => item.json);
		expect(await run()).toEqual(await run({ output: unsetOutput }));
	});
});

it('the tables above cover every node version', () => {
	expect(NODE_VERSIONS).toEqual([1, 1.1, 1.2]);
});
