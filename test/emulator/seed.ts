/**
 * Deterministic seed data: a small analytics team's workspace. Everything is fixed text except
 * the audit log, which a seeded PRNG generates, so every run produces the same state.
 */
import { seededRandom } from '../helpers/random';
import type {
	AuditLogEntry,
	ColumnConfig,
	Integration,
	SchemaConfig,
	TableConfig,
	User,
} from '../../nodes/DataIntegrationManagement/client/types';
import type { Store } from './store';

/** Ids and names tests refer to. */
export const SEED = {
	users: {
		maya: 'usr_8f2k1m4q9a',
		lucas: 'usr_3j7d0x2p5c',
		aiko: 'usr_5t9w4b7n1e',
		daniel: 'usr_2r6y8v3h0g',
		sofia: 'usr_9c1z5l7s4k',
		ethan: 'usr_4m0p2q6u8w',
		priya: 'usr_7h3e9f1r2t',
	},
	tags: {
		pii: 'tag_6d1f0a93c2e8',
		finance: 'tag_b47e2c90d1a5',
		gdpr: 'tag_3a9c7e15f06b',
		deprecated: 'tag_e20b8d4c7f13',
	},
	/** A relation present on SEED.tags.pii. */
	piiRelation: { resourceId: 'int_4f8a2c71e9b0', resourceType: 'integration' },
	assets: {
		ordersDb: 'ast_91c4e7a2b83d',
		revenueDashboard: 'ast_0f5d2b8e6c14',
	},
	integrations: {
		/** Postgres -> Snowflake, running. */
		ordersToSnowflake: 'int_4f8a2c71e9b0',
		/** MySQL -> BigQuery, paused. */
		shopToBigQuery: 'int_9b3e5d20a7c6',
		/** SQL Server -> Redshift; has a table whose name contains a space. */
		northwindToRedshift: 'int_1c6d8e44f2a9',
	},
	/** A schema, table and columns of SEED.integrations.ordersToSnowflake. */
	schema: 'public',
	table: 'customers',
	hashedColumn: 'email',
	primaryKeyColumn: 'id',
	disabledColumn: 'internal_notes',
	/** A table of SEED.integrations.northwindToRedshift in schema 'dbo' with a space in its name. */
	spacedTable: 'Order Details',
	audit: {
		count: 300,
		/** Inclusive start and exclusive end of the window the seeded entries fall in. */
		windowStart: '2026-10-01T00:00:00.000Z',
		windowEnd: '2026-10-31T00:00:00.000Z',
	},
} as const;

const EMAIL_DOMAIN = 'northwind-data.example';
const SYSTEM_EMAIL = `system@${EMAIL_DOMAIN}`;
const SYNC_INCREMENTAL = 'incremental';
const SYNC_FULL_REFRESH = 'full_refresh';

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

// ----- Integrations and their source schemas -----

/** Destination naming: lower snake case. */
function destinationName(name: string): string {
	return name
		.replace(/([a-z])([A-Z])/g, '$1_$2')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '_');
}

type ColumnOptions = Partial<Pick<ColumnConfig, 'enabled' | 'hashed' | 'isPrimaryKey'>>;
type ColumnSeed = [name: string, options?: ColumnOptions];

const pk = (name: string): ColumnSeed => [name, { isPrimaryKey: true }];
const hashed = (name: string): ColumnSeed => [name, { hashed: true }];
const disabled = (name: string): ColumnSeed => [name, { enabled: false }];

/** A table; an incremental one syncs by its cursor column, a full-refresh one has no cursor. */
function table(
	columns: Array<ColumnSeed | string>,
	options: { cursor?: string; enabled?: boolean } = {},
) {
	return (name: string): TableConfig => ({
		nameInDestination: destinationName(name),
		enabled: options.enabled ?? true,
		syncMode: options.cursor ? SYNC_INCREMENTAL : SYNC_FULL_REFRESH,
		...(options.cursor && { cursorField: options.cursor }),
		columns: Object.fromEntries(
			columns.map((seed) => {
				const [columnName, column = {}] = typeof seed === 'string' ? [seed] : seed;
				const config: ColumnConfig = {
					nameInDestination: destinationName(columnName),
					enabled: column.enabled ?? true,
					hashed: column.hashed ?? false,
					isPrimaryKey: column.isPrimaryKey ?? false,
				};
				return [columnName, config];
			}),
		),
	});
}

function schema(
	prefix: string,
	name: string,
	tables: Record<string, (name: string) => TableConfig>,
	enabled = true,
): [string, SchemaConfig] {
	return [
		name,
		{
			nameInDestination: `${prefix}_${destinationName(name)}`,
			enabled,
			tables: Object.fromEntries(
				Object.entries(tables).map(([tableName, build]) => [tableName, build(tableName)]),
			),
		},
	];
}

function integration(
	id: string,
	name: string,
	source: [string, string],
	destination: [string, string],
	details: { createdAt: string; paused: boolean; latestRunId: string },
): Integration {
	const endpoint = (prefix: string, [endpointName, type]: [string, string]) => ({
		id: `${prefix}_${id.slice(4, 10)}`,
		name: endpointName,
		type,
	});
	return {
		id,
		name,
		...details,
		source: endpoint('src', source),
		destination: endpoint('dst', destination),
	};
}

const INTEGRATIONS: Array<[Integration, Array<[string, SchemaConfig]>]> = [
	[
		integration(
			SEED.integrations.ordersToSnowflake,
			'Orders Postgres to Snowflake',
			['Orders database', 'postgres'],
			['Analytics warehouse', 'snowflake'],
			{ createdAt: '2026-02-03T08:30:00.000Z', paused: false, latestRunId: 'run_7d2e91b0c4f5' },
		),
		[
			schema('orders', 'public', {
				customers: table(
					[
						pk('id'),
						hashed('email'),
						'full_name',
						hashed('phone'),
						'country',
						disabled('internal_notes'),
						'updated_at',
					],
					{ cursor: 'updated_at' },
				),
				orders: table(
					[
						pk('id'),
						'customer_id',
						'status',
						'total_cents',
						'currency',
						'created_at',
						'updated_at',
					],
					{
						cursor: 'updated_at',
					},
				),
				order_items: table([
					pk('order_id'),
					pk('line_number'),
					'sku',
					'quantity',
					'unit_price_cents',
				]),
				payments: table(
					[pk('id'), 'order_id', 'provider', hashed('card_last4'), 'amount_cents', 'paid_at'],
					{
						cursor: 'paid_at',
					},
				),
			}),
			schema('orders', 'billing', {
				invoices: table([pk('id'), 'order_id', 'issued_at', 'amount_cents', disabled('pdf_blob')], {
					cursor: 'issued_at',
				}),
				refunds: table([pk('id'), 'invoice_id', 'reason', 'amount_cents', 'refunded_at'], {
					cursor: 'refunded_at',
				}),
				tax_rates: table([pk('country'), 'rate_percent'], { enabled: false }),
			}),
			schema(
				'orders',
				'audit',
				{
					row_changes: table([pk('id'), 'table_name', 'changed_by', 'changed_at'], {
						cursor: 'changed_at',
					}),
				},
				false,
			),
		],
	],
	[
		integration(
			SEED.integrations.shopToBigQuery,
			'Shop MySQL to BigQuery',
			['Shop catalogue', 'mysql'],
			['Marketing lake', 'bigquery'],
			{ createdAt: '2026-04-17T12:05:00.000Z', paused: true, latestRunId: 'run_c81a5f3e0d29' },
		),
		[
			schema('shop', 'shop', {
				products: table([pk('sku'), 'title', 'category', 'price_cents', 'updated_at'], {
					cursor: 'updated_at',
				}),
				inventory: table([pk('sku'), pk('warehouse_id'), 'on_hand', 'reserved']),
				reviews: table(
					[pk('id'), 'sku', hashed('reviewer_email'), 'rating', 'body', 'created_at'],
					{
						cursor: 'created_at',
					},
				),
			}),
			schema('shop', 'marketing', {
				campaigns: table([pk('id'), 'name', 'channel', 'budget_cents', 'starts_on', 'ends_on']),
				subscribers: table([pk('id'), hashed('email'), disabled('ip_address'), 'subscribed_at'], {
					cursor: 'subscribed_at',
				}),
			}),
		],
	],
	[
		integration(
			SEED.integrations.northwindToRedshift,
			'Northwind SQL Server to Redshift',
			['Northwind ERP', 'sqlserver'],
			['Finance warehouse', 'redshift'],
			{ createdAt: '2026-07-09T16:45:00.000Z', paused: false, latestRunId: 'run_5e0b3c7a19d8' },
		),
		[
			schema('northwind', 'dbo', {
				Customers: table([
					pk('CustomerID'),
					'CompanyName',
					hashed('ContactName'),
					hashed('Phone'),
					'Country',
				]),
				Orders: table([pk('OrderID'), 'CustomerID', 'EmployeeID', 'OrderDate', 'ShippedDate'], {
					cursor: 'OrderDate',
				}),
				'Order Details': table([
					pk('OrderID'),
					pk('ProductID'),
					'UnitPrice',
					'Quantity',
					'Discount',
				]),
				Employees: table([
					pk('EmployeeID'),
					'LastName',
					'FirstName',
					'Title',
					disabled('HomePhone'),
					disabled('Notes'),
				]),
			}),
			schema('northwind', 'sales', {
				Territories: table([pk('TerritoryID'), 'TerritoryDescription', 'RegionID']),
				Shippers: table([pk('ShipperID'), 'CompanyName', hashed('Phone')], { enabled: false }),
			}),
		],
	],
];

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
