/**
 * What a person trying the emulator finds at the two addresses `npm run emulator` prints: GET on
 * the base URL lists the operations (no API key needed, not recorded), GET on /__emulator the test
 * controls. Neither is an operation of the API description; the nodes never call them.
 */
import type { FastifyInstance } from 'fastify';
import { API_KEY_HEADER } from '../../credentials/DataIntegrationManagementApi.credentials';

/** Registers both indexes; call it before the routes they list, whose prefixes they are. */
export function registerIndexes(app: FastifyInstance, api: string, control: string): void {
	const listed = { [api]: new Set<string>(), [control]: new Set<string>() };
	app.addHook('onRoute', ({ method, url }) => {
		const list = listed[url.slice(0, url.indexOf('/', 1))];
		if (list && method !== 'HEAD' && !url.endsWith('*')) list.add(`${method} ${url}`);
	});
	app.get(api, async () => ({
		operations: [...listed[api]],
		authentication: `an API key in the ${API_KEY_HEADER} header`,
		controls: control,
	}));
	app.get(control, async () => ({ controls: [...listed[control]] }));
}
