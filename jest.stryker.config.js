/**
 * The suite Stryker runs against each mutant (npm run mutate, stryker.config.json): jest.config.js
 * limited to the tests that exercise the mutated areas (transport/, client/auditLog*.ts,
 * trigger/). The exactly-once schedules are cut to 100 (from 1000): each still runs every service
 * variant and twist, in about 20 seconds instead of 150. Stryker picks a mutant's tests by name
 * but loads every file listed here for each mutant: each file costs its load time per mutant.
 */
const { join } = require('node:path');

const base = require('./jest.config.js');

process.env.EXACTLY_ONCE_SCHEDULES ??= '100';

// MUTATE_TESTS=test/client,test/trigger/cursor.test.ts: only those tests (a quicker, lower bound).
const only = (process.env.MUTATE_TESTS ?? '').split(',').filter(Boolean);
const ALL = [
	'<rootDir>/test/transport/**/*.test.ts',
	'<rootDir>/test/client/**/*.test.ts',
	'<rootDir>/test/trigger/**/*.test.ts',
	'<rootDir>/test/actions/auditLog*.test.ts',
];

module.exports = {
	...base,
	// Stryker's jest runner loads the environment itself, without resolving <rootDir>.
	testEnvironment: join(__dirname, 'test/helpers/quiet-n8n-log-environment.js'),
	testMatch:
		only.length > 0
			? only.map((path) => `<rootDir>/${path}${path.endsWith('.ts') ? '' : '/**/*.test.ts'}`)
			: ALL,
	// Out until transport/ is mutated (it is being rewritten): they need jest's 30-second timeout.
	testPathIgnorePatterns: [...base.testPathIgnorePatterns, '/test/transport/pacer.simulation'],
	// A mutant that makes a scan page on forever fails a test in 10 seconds, not 30.
	testTimeout: 10000,
	reporters: ['default'],
};
