/**
 * Which fields a field reads, and where a form shows a field above one it reads. A field reads
 * what its list reads (a `loadOptions` method, or a resource locator's list search: the
 * node's LIST_READS), what it declares to n8n (`loadOptionsDependsOn`), and the fields its
 * `displayOptions` name. n8n's names: `&name` (in a list) and a plain name in a collection's
 * `displayOptions` are a field beside it; `/name`, and any other name a list reads, a top-level
 * field. Which fields a form shows is n8n's own decision (`NodeHelpers.displayParameter`), for
 * every node version and every value of the fields the `displayOptions` name.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { LIST_READS } from '../../nodes/DataIntegrationManagement/shared/listReads';

/** A field another reads: one beside it, or one at the top of the form. */
export interface Read {
	name: string;
	scope: 'sibling' | 'top';
	why: string;
}

/** The list methods a field calls: an options field's, and its locator's list modes'. */
export function listMethodsOf(field: INodeProperties): string[] {
	const methods = [
		field.typeOptions?.loadOptionsMethod,
		...(field.modes ?? []).map((mode) => mode.typeOptions?.searchListMethod),
	];
	return methods.filter((method): method is string => typeof method === 'string');
}

function readOfPath(path: string, why: string): Read {
	return path.startsWith('&')
		? { name: path.slice(1), scope: 'sibling', why }
		: { name: path.split('.')[0], scope: 'top', why };
}

/** What `field` itself reads (its lists, its declared dependencies, its displayOptions). */
export function readsOf(field: INodeProperties): Read[] {
	const reads = listMethodsOf(field).flatMap((method) => {
		const paths = (LIST_READS as Record<string, readonly string[] | undefined>)[method];
		if (!paths) throw new Error(`${field.name}'s list ${method} is not in LIST_READS`);
		return paths.map((path) => readOfPath(path, `its list (${method}) reads it`));
	});
	for (const path of field.typeOptions?.loadOptionsDependsOn ?? []) {
		reads.push(readOfPath(path, 'it declares it in loadOptionsDependsOn'));
	}
	const { show = {}, hide = {} } = field.displayOptions ?? {};
	for (const key of [...Object.keys(show), ...Object.keys(hide)]) {
		if (key.startsWith('@')) continue;
		const why = 'its displayOptions name it';
		reads.push(
			key.startsWith('/')
				? { name: key.slice(1), scope: 'top', why }
				: { name: key, scope: 'sibling', why },
		);
	}
	return reads;
}

/** The groups of fields that sit side by side inside `field`: a collection's, each section's. */
function innerGroups(field: INodeProperties): INodeProperties[][] {
	if (field.type === 'collection') return [(field.options ?? []) as INodeProperties[]];
	if (field.type !== 'fixedCollection') return [];
	return ((field.options ?? []) as INodePropertyCollection[]).map((section) => section.values);
}

/** The top-level reads of `field` and of every field inside it. */
function topReadsWithin(field: INodeProperties): Read[] {
	const own = readsOf(field).filter((read) => read.scope === 'top');
	return [...own, ...innerGroups(field).flat().flatMap(topReadsWithin)];
}

/** Every combination of values of the fields the group's displayOptions name. */
function settings(group: INodeProperties[]): INodeParameters[] {
	const keys = new Set(
		group.flatMap((field) => readsOf(field).filter((read) => read.why.includes('displayOptions'))),
	);
	let combinations: INodeParameters[] = [{}];
	for (const key of new Set([...keys].map((read) => read.name))) {
		const values = group
			.filter((field) => field.name === key)
			.flatMap((field) =>
				field.type === 'boolean'
					? [true, false]
					: field.type === 'options'
						? (field.options ?? []).map((option) => ('value' in option ? option.value : ''))
						: [field.default],
			);
		if (values.length === 0) continue;
		combinations = combinations.flatMap((combination) =>
			[...new Set(values)].map((value) => ({ ...combination, [key]: value }) as INodeParameters),
		);
	}
	return combinations;
}

export interface FormWalk {
	description: INodeTypeDescription;
	version: number;
}

/** The values of a setting that the form shows, as "resource=tag, operation=create". */
const describeSetting = (setting: INodeParameters, shown: INodeProperties[]) =>
	Object.entries(setting)
		.filter(([key]) => shown.some((field) => field.name === key))
		.map(([key, value]) => `${key}=${String(value)}`)
		.join(', ');

/** Where one group shows a field above a field it reads, under one setting. */
function misplacedIn(shown: INodeProperties[], where: string, top: boolean): string[] {
	const problems: string[] = [];
	shown.forEach((field, index) => {
		const reads = top
			? [...readsOf(field), ...innerGroups(field).flat().flatMap(topReadsWithin)]
			: readsOf(field).filter((read) => read.scope === 'sibling');
		for (const read of reads) {
			const at = shown.findIndex((other) => other.name === read.name);
			if (at !== -1 && at < index) continue;
			const place = at === -1 ? 'which is not shown with it' : 'which comes after it';
			problems.push(
				`${where}: "${field.displayName}" reads "${read.name}" (${read.why}), ${place}`,
			);
		}
	});
	return problems;
}

/** Every place in one group (and the groups inside it) that shows a field above one it reads. */
export function misplacedReads(
	walk: FormWalk,
	group: INodeProperties[],
	where = `version ${walk.version}`,
	root?: INodeParameters,
): string[] {
	const problems = new Set<string>();
	const node = { typeVersion: walk.version };
	for (const setting of settings(group)) {
		const shown = group.filter((field) =>
			NodeHelpers.displayParameter(setting, field, node, walk.description, root ?? setting),
		);
		const values = describeSetting(setting, shown);
		const here = values ? `${where} (${values})` : where;
		misplacedIn(shown, here, root === undefined).forEach((problem) => problems.add(problem));
		for (const field of shown) {
			for (const inner of innerGroups(field)) {
				const path = `${here} → ${field.displayName}`;
				misplacedReads(walk, inner, path, root ?? setting).forEach((p) => problems.add(p));
			}
		}
	}
	return [...problems];
}
