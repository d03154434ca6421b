/**
 * The names errors give fields are the fields' display names, as the node shows them: an empty
 * required field, and the fields a "not found" answer names. Operations and fields are walked,
 * so a new one is covered.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { leaves, OPERATIONS, operationFields, withValue } from './error-walk';
import { WORKING_PARAMETERS } from './working-parameters';

const { emulator, credentials } = useEmulator();

/** Every required text field (plain or a resource locator) of every operation. */
const REQUIRED_TEXT = OPERATIONS.flatMap(({ resource, operation, key }) =>
	leaves(operationFields(resource, operation))
		.filter(({ property }) => property.required)
		.filter(({ property }) => ['string', 'resourceLocator'].includes(property.type))
		.map((leaf) => ({ resource, operation, key, leaf, label: leaf.property.displayName })),
);

/** The labels a not-found description names: each is followed by the quoted value sent. */
function labelsIn(description: string): string[] {
	const named = /^The service found nothing for (.*?)\. Check that/.exec(description)?.[1] ?? '';
	return [...named.matchAll(/(?:^|, | and )([A-Z][\w ]*?) "(?:[^"\\]|\\.)*"/g)].map((m) => m[1]);
}

async function firstItemError(
	parameters: INodeParameters,
	items?: IDataObject[],
): Promise<IDataObject> {
	const result = await runActionNode({
		credentials: credentials(),
		parameters,
		items,
		continueOnFail: true,
	});
	return result.items[0]?.json ?? {};
}

describe('the field names errors give are display names', () => {
	it('walks the required text fields of the operations', () => {
		expect(REQUIRED_TEXT.map(({ key, leaf }) => `${key} ${leaf.path.join('.')}`)).toEqual(
			expect.arrayContaining(['tag.create name', 'tag.deleteRelation resourceType']),
		);
	});

	it.each(REQUIRED_TEXT)('$key: $label left empty is named "$label"', async (field) => {
		const { resource, operation, key, leaf, label } = field;
		// n8n itself refuses an empty required field written in the node; from an expression, the node sees it.
		const parameters = withValue(
			{ resource, operation, ...WORKING_PARAMETERS[key] },
			leaf,
			'={{ $json.v }}',
		);
		const json = await firstItemError(parameters, [{ v: '' }]);
		expect(json.error).toBe(`The field "${label}" is empty: its expression gave no value (item 0)`);
	});

	it('names, in a not-found answer, only display names of the operation fields', async () => {
		const named: Record<string, string[]> = {};
		for (const { resource, operation, key } of OPERATIONS) {
			emulator().reset();
			emulator().injectFault({ kind: 'status', status: 404, message: 'gone', count: 10 });
			const json = await firstItemError({ resource, operation, ...WORKING_PARAMETERS[key] });
			const labels = labelsIn(String(json.description ?? ''));
			if (labels.length === 0) continue;
			const displayNames = leaves(operationFields(resource, operation)).map(
				({ property }) => property.displayName,
			);
			expect({ key, unknown: labels.filter((label) => !displayNames.includes(label)) }).toEqual({
				key,
				unknown: [],
			});
			named[key] = labels;
		}
		expect(named).toEqual({
			'tag.create': ['Owner'],
			'tag.update': ['Tag ID'],
			'tag.deleteRelation': ['Tag ID', 'Resource ID', 'Resource Type'],
			'asset.update': ['Asset ID'],
			'integration.get': ['Integration ID'],
			'integration.getSchemas': ['Integration ID'],
			'integration.updateSchemas': ['Integration ID'],
			'integration.getColumns': ['Integration ID', 'Schema', 'Table'],
		});
	});
});
