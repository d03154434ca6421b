/**
 * Deterministic seed data: a small analytics team's workspace. Everything is fixed text except
 * the audit log, which a seeded PRNG generates, so every run produces the same state.
 */
import { seededRandom } from '../helpers/random';
import type { AuditLogEntry, User } from '../../nodes/DataIntegrationManagement/client/types';
import type { Store } from './store';
import { SEED } from './seed-ids';
import { INTEGRATIONS } from './seed-integrations';

export { SEED } from './seed-ids';

const EMAIL_DOMAIN = 'northwind-data.example';
const SYSTEM_EMAIL = `system@${EMAIL_DOMAIN}`;

// ----- Users, tags, assets -----

function user(id: string, name: string, createdAt: string): User {
	const email = `${name.toLowerCase().replace(' ', '.')}@${EMAIL_DOMAIN}`;
	return { id, email, createdAt, name };
}

const USERS: User[] = [
	user(SEED.users.maya, 'Maya Patel', '2025-03-14T09:12:44.000Z'),
	user(SEED.users.lucas, 'Lucas Moreau', '2025-04-02T15:40:09.000Z'),
	user(SEED.users.aiko, 'Aiko Tanaka', '2025-06-21T07:05:31.000Z'),
	user(SEED.users.daniel, 'Daniel Okafor', '2025-08-30T11:58:02.000Z'),
	user(SEED.users.sofia, 'Sofia Lindqvist', '2025-11-11T13:27:50.000Z'),
	user(SEED.users.ethan, 'Ethan Brooks', '2026-01-19T08:44:16.000Z'),
	user(SEED.users.priya, 'Priya Raman', '2026-05-06T16:03:27.000Z'),
];

function seedTags(store: Store) {
	const tags = [
		{
			id: SEED.tags.pii,
			name: 'PII',
			description: 'Holds personally identifiable information',
			owner: SEED.users.maya,
			createdAt: '2026-02-10T10:00:00.000Z',
		},
		{
			id: SEED.tags.finance,
			name: 'Finance',
			description: 'Revenue and billing data',
			owner: SEED.users.daniel,
			createdAt: '2026-03-02T14:21:37.000Z',
		},
		{
			id: SEED.tags.gdpr,
			name: 'GDPR',
			description: 'Subject to EU data-subject requests',
			owner: SEED.users.sofia,
			createdAt: '2026-05-18T09:47:05.000Z',
		},
		{
			id: SEED.tags.deprecated,
			name: 'Deprecated',
			description: 'Scheduled for removal',
			owner: SEED.users.ethan,
			createdAt: '2026-08-25T17:12:59.000Z',
		},
	];
	// Seeded tags were made in the product's UI, whose origin value the spec does not show: they
	// carry none until an edit through the API sets TAG_ORIGIN_API.
	for (const tag of tags) {
		store.tags.set(tag.id, { ...tag, lastUpdatedAt: tag.createdAt });
		store.tagRelations.set(tag.id, []);
	}
	store.addTagRelation(SEED.tags.pii, SEED.piiRelation);
	store.addTagRelation(SEED.tags.pii, { resourceId: SEED.assets.ordersDb, resourceType: 'asset' });
	store.addTagRelation(SEED.tags.finance, {
		resourceId: SEED.assets.revenueDashboard,
		resourceType: 'asset',
	});
	store.addTagRelation(SEED.tags.gdpr, {
		resourceId: SEED.integrations.shopToBigQuery,
		resourceType: 'integration',
	});
}

function seedAssets(store: Store) {
	store.assets.set(SEED.assets.ordersDb, {
		id: SEED.assets.ordersDb,
		name: 'Orders database',
		type: 'database',
		description: 'Primary OLTP database of the web shop',
		connection: { host: 'orders-db.internal', port: 5432, database: 'orders' },
	});
	store.assets.set(SEED.assets.revenueDashboard, {
		id: SEED.assets.revenueDashboard,
		name: 'Revenue dashboard',
		type: 'dashboard',
		description: 'Weekly revenue by region',
		connection: { url: 'https://bi.northwind-data.example/dashboards/revenue' },
	});
}

// ----- Audit log -----

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T =>
	items[Math.floor(random() * items.length)];
const between = (random: Random, min: number, max: number) =>
	min + Math.floor(random() * (max - min + 1));

/** A UUID v4 (version and variant bits set) drawn from the PRNG instead of the system's randomness. */
function uuidV4(random: Random): string {
	const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
	bytes[6] = (bytes[6] & 0x0f) | 0x40;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What each kind of actor plausibly does, and the clients it does it from. */
const ACTOR_PROFILES = {
	user: {
		events: [
			'User signed in',
			'User signed out',
			'Tag created',
			'Tag updated',
			'Asset created',
			'Asset updated',
			'Integration paused',
			'Integration resumed',
			'Schema configuration updated',
			'Connector created',
			'API key created',
		],
		ipAddresses: ['203.0.113.24', '203.0.113.87', '198.51.100.12', '198.51.100.140'],
		userAgents: [
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
			'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
			'Mozilla/5.0 (X11; Linux x86_64; rv:143.0) Gecko/20100101 Firefox/143.0',
		],
	},
	api_key: {
		events: [
			'Tag created',
			'Tag updated',
			'Tag relation deleted',
			'Asset created',
			'Asset updated',
			'Connector created',
			'Schema configuration updated',
		],
		ipAddresses: ['192.0.2.10', '192.0.2.54'],
		userAgents: ['n8n', 'python-requests/2.32.3', 'curl/8.9.1'],
	},
	system: {
		events: [
			'Sync started',
			'Sync completed',
			'Sync failed',
			'Integration paused',
			'Schema change detected',
		],
		ipAddresses: ['10.20.0.4'],
		userAgents: ['sync-scheduler/3.2.0'],
	},
} as const;

type ActorType = keyof typeof ACTOR_PROFILES;
const ACTOR_TYPES = Object.keys(ACTOR_PROFILES) as ActorType[];

/** Timestamps over the window; a few groups of 3-7 entries share one exact timestamp (bulk actions). */
function auditTimestamps(random: Random): string[][] {
	const start = Date.parse(SEED.audit.windowStart);
	const span = Date.parse(SEED.audit.windowEnd) - start;
	const groups: string[][] = [];
	let remaining = SEED.audit.count;
	for (let sharedGroups = 0; sharedGroups < 8; sharedGroups++) {
		const size = between(random, 3, 7);
		groups.push(
			Array<string>(size).fill(new Date(start + Math.floor(random() * span)).toISOString()),
		);
		remaining -= size;
	}
	for (; remaining > 0; remaining--) {
		groups.push([new Date(start + Math.floor(random() * span)).toISOString()]);
	}
	// Chronological, as a real log is written; the stable sort keeps each group together.
	return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

function auditEntries(random: Random): AuditLogEntry[] {
	return auditTimestamps(random).flatMap((group) => {
		// One actor per group: entries sharing a timestamp come from one bulk action.
		const type = pick(random, ACTOR_TYPES);
		const profile = ACTOR_PROFILES[type];
		const actor = { type, email: type === 'system' ? SYSTEM_EMAIL : pick(random, USERS).email };
		const context = {
			ipAddress: pick(random, profile.ipAddresses),
			userAgent: pick(random, profile.userAgents),
		};
		return group.map((timestamp) => ({
			id: uuidV4(random),
			timestamp,
			event: pick(random, profile.events),
			actor: { ...actor },
			context: { ...context },
		}));
	});
}

/** Loads the seed into an empty store. */
export function seedStore(store: Store): void {
	for (const seededUser of USERS) store.users.set(seededUser.id, { ...seededUser });
	seedTags(store);
	seedAssets(store);
	for (const [seededIntegration, schemas] of INTEGRATIONS) {
		store.integrations.set(seededIntegration.id, structuredClone(seededIntegration));
		store.schemas.set(seededIntegration.id, structuredClone(Object.fromEntries(schemas)));
	}
	store.auditEntries.push(...auditEntries(seededRandom(20261001)));
}
