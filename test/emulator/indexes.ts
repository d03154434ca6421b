/**
 * What a person trying the emulator finds at the two addresses `npm run emulator` prints: GET on
 * the base URL (with or without a trailing slash) lists what the service holds now, the IDs to try
 * (seeded at start and on reset), and the operations; GET on /__emulator the test controls. No API
 * key needed, not recorded. Neither is an operation of the API description; the nodes never call
 * them. `npm run emulator` prints a short version of the IDs at start (idsToTry).
 */
import type { FastifyInstance } from 'fastify';
import { API_KEY_HEADER } from '../../credentials/DataIntegrationManagementApi.credentials';
import type { Store } from './store';

/** What the service holds: each record's ID with what names it, each integration's tables. */
export function workspace(store: Store) {
	const named = ({ id, name }: { id: string; name: string }) => ({ id, name });
	return {
		integrations: [...store.integrations.values()].map(({ id, name, paused }) => ({
			id,
			name,
			paused,
			/** Each schema's table names, as Get Columns and Update Schemas take them. */
			schemas: Object.fromEntries(
				Object.entries(store.schemas.get(id) ?? {}).map(([schema, { tables }]) => [
					schema,
					Object.keys(tables),
				]),
			),
		})),
		users: [...store.users.values()].map(({ id, name, email }) => ({ id, name, email })),
		tags: [...store.tags.values()].map(named),
		assets: [...store.assets.values()].map(({ id, name, type }) => ({ id, name, type })),
		connectors: [...store.connectors.values()].map(({ id, name, type }) => ({ id, name, type })),
	};
}

export type Workspace = ReturnType<typeof workspace>;

/** Entries shown per kind in the short version. */
const SHOWN = 3;

/** The workspace in one line per kind: its first IDs, each with its name (a user's email). */
export function idsToTry(held: Workspace): string[] {
	const line = (kind: string, entries: string[]) => {
		const more = entries.length > SHOWN ? `; and ${entries.length - SHOWN} more` : '';
		const listed = entries.length === 0 ? 'none yet' : entries.slice(0, SHOWN).join('; ') + more;
		return `${kind.padEnd(13)}${listed}`;
	};
	const idAndName = ({ id, name }: { id: string; name: string }) => `${id} ${name}`;
	return [
		line(
			'integrations',
			held.integrations.map((entry) => `${idAndName(entry)}${entry.paused ? ' (paused)' : ''}`),
		),
		line(
			'users',
			held.users.map(({ id, email }) => `${id} ${email}`),
		),
		line('tags', held.tags.map(idAndName)),
		line('assets', held.assets.map(idAndName)),
		line('connectors', held.connectors.map(idAndName)),
	];
}

/** The two test controls a person trying the trigger needs, as shell commands on `control`. */
export function controlCommands(control: string): string[] {
	const now = '$(date -u +%Y-%m-%dT%H:%M:%SZ)';
	return [
		'Give the trigger a new audit entry (it emits it at its next poll, within a minute):',
		`  curl -X POST ${control}/audit-logs -H 'content-type: application/json' \\`,
		`    -d "{\\"entries\\":[{\\"timestamp\\":\\"${now}\\",\\"event\\":\\"Tag created\\"}]}"`,
		`Put the emulator back to its seed:  curl -X POST ${control}/reset`,
	];
}

/** Registers both indexes; call it before the routes they list, whose prefixes they are. */
export function registerIndexes(
	app: FastifyInstance,
	{ api, control, store }: { api: string; control: string; store: Store },
): void {
	const listed = { [api]: new Set<string>(), [control]: new Set<string>() };
	const indexes = [api, `${api}/`, control, `${control}/`];
	app.addHook('onRoute', ({ method, url }) => {
		const list = listed[url.slice(0, url.indexOf('/', 1))];
		if (list && method !== 'HEAD' && !url.endsWith('*') && !indexes.includes(url))
			list.add(`${method} ${url}`);
	});
	const apiIndex = async () => ({
		workspace: workspace(store),
		operations: [...listed[api]],
		authentication: `an API key in the ${API_KEY_HEADER} header`,
		controls: control,
	});
	const controlIndex = async () => ({ controls: [...listed[control]] });
	for (const url of [api, `${api}/`]) app.get(url, apiIndex);
	for (const url of [control, `${control}/`]) app.get(url, controlIndex);
}
