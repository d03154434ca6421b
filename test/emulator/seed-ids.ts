/** The seed's ids and names that tests refer to (the data itself: ./seed.ts). */
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
