import type { IDisplayOptions, INode } from 'n8n-workflow';

/**
 * The action node's versions, and what each one changes: the one place a behaviour depends on
 * the version (the README's "Versioning" says the same for users). A node added in the editor
 * gets the newest; a saved workflow keeps the version it was saved with, so a change that would
 * surprise it comes here, as a new version, rather than to every node.
 */
export const NODE_VERSIONS = [1, 1.1];

const CHANGED_IN = {
	/** Options → Concurrency Mode, when not set, is Auto (Fixed before). */
	autoConcurrencyByDefault: 1.1,
	/** An added, empty text field is sent as "", which clears the value (it was left out before). */
	emptyTextSent: 1.1,
} as const;

/** Whether the node's version has `change`. */
export function hasChange(node: INode, change: keyof typeof CHANGED_IN): boolean {
	return node.typeVersion >= CHANGED_IN[change];
}

/**
 * Display options that show a field only in the versions with `change` (`has`), or only in those
 * without it: how a field whose default differs by version shows each version its own.
 */
export function shownIn(change: keyof typeof CHANGED_IN, has: boolean): IDisplayOptions['show'] {
	const version = CHANGED_IN[change];
	return { '@version': [has ? { _cnd: { gte: version } } : { _cnd: { lt: version } }] };
}
