import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * The action node's versions, and what each one changes: the one place a behaviour depends on
 * the version (the README's "Versioning" says the same for users). A node added in the editor
 * gets the newest; a saved workflow keeps the version it was saved with, so a change that would
 * surprise it comes here, as a new version, rather than to every node.
 */
export const NODE_VERSIONS = [1, 1.1, 1.2];

const CHANGED_IN = {
	/** Options → Concurrency Mode, when not set, is Auto (Fixed before). */
	autoConcurrencyByDefault: 1.1,
	/** An added, empty text field is sent as "", which clears the value (it was left out before). */
	emptyTextSent: 1.1,
	/** Get Schemas' Output, when not set, is One Item per Column, as Get Columns' is (Raw before). */
	columnsByDefault: 1.2,
	/**
	 * The tool form (AI agents, MCP clients) gives what the node gives when Output is not set (it
	 * gave Compact in Get Schemas and Audit Log → Get Many).
	 */
	toolOutputAsNode: 1.2,
	/** Audit Log → Get Many's Compact output names the actor's email `actorEmail` (`actor`). */
	compactActorEmail: 1.2,
	/**
	 * Update Schemas picks a change's schema, table and column as Get Columns does: from a list, or
	 * by name (option lists before).
	 */
	changeLocators: 1.2,
} as const;

export type Change = keyof typeof CHANGED_IN;

/** Whether a node of `typeVersion` has `change`. */
export function hasChange({ typeVersion }: { typeVersion: number }, change: Change): boolean {
	return typeVersion >= CHANGED_IN[change];
}

/**
 * Display options showing a field in node version `version` only (the newest: in it and later),
 * so that each version shows its own defaults.
 */
export function shownInVersion(version: number): IDisplayOptions['show'] {
	const newest = version === NODE_VERSIONS[NODE_VERSIONS.length - 1];
	return { '@version': [newest ? { _cnd: { gte: version } } : version] };
}

/**
 * One copy of the fields `build` makes for each node version, each shown in its version only
 * (`shownInVersion`). Copies are top-level fields, as n8n's own versioned fields are, so that
 * whatever reads a description for one version (the editor, n8n's workflow SDK) sees one of each.
 */
export function perVersion(build: (version: number) => INodeProperties[]): INodeProperties[] {
	return NODE_VERSIONS.flatMap((version) =>
		build(version).map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, ...shownInVersion(version) },
			},
		})),
	);
}
