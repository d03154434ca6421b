/**
 * `npm test`: every node run goes through n8n-core against the emulator on loopback; the long
 * checks at a small size (test/helpers/scale.ts). Two workers: most tests wait on the emulator.
 */
module.exports = {
	testEnvironment: '<rootDir>/test/helpers/quiet-n8n-log-environment.js',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	maxWorkers: 2,
	testTimeout: 30000,
	reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
