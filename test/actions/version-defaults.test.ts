/**
 * Each node version shows, as an option's default, what it runs when the option is not set:
 * n8n's own display rules (`displayParameter`, as its editor applies them) pick the Concurrency
 * Mode a version shows, and running the node with that default set gives what it runs unset.
 */
import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { NODE_VERSIONS } from '../../nodes/DataIntegrationManagement/actions/versions';
import { useEmulator } from '../helpers/emulator';
import { createAssetsVia, namedAssets, startCountingProxy, type CountingProxy } from './support';

const { emulator, credentials } = useEmulator();
const { description } = new DataIntegrationManagement();

/**
 * The Options fields n8n shows in each operation of a node at `typeVersion` (or of its tool
 * form), one list per operation: every Options collection shown, its fields shown.
 */
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

it('the table above covers every node version', () => {
	expect(NODE_VERSIONS).toEqual([1, 1.1]);
});
