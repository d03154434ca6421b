/**
 * The trigger's catch-up against every service the spec allows (test/emulator/variants.ts): one
 * poll over a backlog, how many requests it took, and how many per entry. The spec-following
 * service must stay at ceil(N/100); the others show what each difference costs.
 */
import { SERVICE_VARIANTS, type NewAuditEntry } from '../emulator';
import { pollTrigger, type ApiCredentials } from '../helpers/n8n';
import type { EmulatorProcess } from './emulator-process';

export const VARIANT_BACKLOG = 2_000;
/** A day ago, so the backlog lies in the service's past, as logged entries do. */
const START = Date.now() - 24 * 3600_000;

export interface VariantResult {
	name: string;
	requests: number;
	emitted: number;
	ms: number;
}

function backlog(): NewAuditEntry[] {
	// Every 7th pair shares a timestamp, so ties cross page edges too; one entry every 500 ms.
	return Array.from({ length: VARIANT_BACKLOG }, (_, i) => ({
		timestamp: new Date(START + (i - (i % 7 === 1 ? 1 : 0)) * 500).toISOString(),
	}));
}

export async function measureAuditVariants(
	emulator: EmulatorProcess,
	credentials: ApiCredentials,
): Promise<VariantResult[]> {
	const results: VariantResult[] = [];
	for (const [name, variant] of Object.entries(SERVICE_VARIANTS)) {
		await emulator.reset();
		await emulator.addAuditEntries(backlog());
		await emulator.setAuditLogVariant(variant);
		await emulator.clearRequests();
		const started = performance.now();
		const poll = await pollTrigger({
			credentials,
			parameters: {
				startFrom: 'date',
				startDate: new Date(START).toISOString(),
				options: { maxItemsPerPoll: VARIANT_BACKLOG * 2, lookbackSeconds: 60 },
			},
		});
		const ms = performance.now() - started;
		const requests = (await emulator.requests()).filter(
			(request) => request.path === '/audit-logs',
		).length;
		results.push({ name, requests, emitted: poll.items?.length ?? 0, ms });
	}
	await emulator.reset();
	return results;
}

export function auditVariantsTable(results: VariantResult[]): string[][] {
	return [
		['Service', 'Requests', 'Requests per entry', 'Emitted', 'Time'],
		...results.map(({ name, requests, emitted, ms }) => [
			name,
			String(requests),
			(requests / VARIANT_BACKLOG).toFixed(3),
			String(emitted),
			`${(ms / 1000).toFixed(2)} s`,
		]),
	];
}
