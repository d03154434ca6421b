/** The seed's integrations and their source schemas (./seed.ts loads them). */
import type {
	ColumnConfig,
	Integration,
	SchemaConfig,
	TableConfig,
} from '../../nodes/DataIntegrationManagement/client/types';
import { SEED } from './seed-ids';

const SYNC_INCREMENTAL = 'incremental';
const SYNC_FULL_REFRESH = 'full_refresh';

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

export const INTEGRATIONS: Array<[Integration, Array<[string, SchemaConfig]>]> = [
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
