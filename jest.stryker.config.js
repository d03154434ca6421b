/**
 * The suite Stryker runs against each mutant (npm run mutate, stryker.config.json): jest.config.js
 * limited to the tests of the area being mutated (MUTATE_TESTS, set by npm run mutate from AREAS
 * in test/mutation/summary.ts; every test when unset), pure tests first and the randomized
 * exactly-once schedules last (test/mutation/fast-first-sequencer.js), and a mutant's run stops at
 * its first failing test (test/mutation/bail-environment.js). The exactly-once schedules run at
 * npm test's size (140: every variant and twist).
 */
const { join } = require('node:path');

const base = require('./jest.config.js');

// MUTATE_TESTS=test/client,test/trigger/cursor.test.ts: only those folders and files.
const only = (process.env.MUTATE_TESTS ?? '').split(',').filter(Boolean);

module.exports = {
	...base,
	// Stryker's jest runner loads the environment and the sequencer itself, without <rootDir>.
	testEnvironment: join(__dirname, 'test/mutation/bail-environment.js'),
	testSequencer: join(__dirname, 'test/mutation/fast-first-sequencer.js'),
	// The code is a root too, so that jest can tell which test files import a mutated file, even
	// through a node (jest.enableFindRelatedTests in stryker.config.json).
	roots: [...base.roots, '<rootDir>/nodes', '<rootDir>/credentials'],
	testMatch:
		only.length > 0
			? only.map((path) => `<rootDir>/${path}${path.endsWith('.ts') ? '' : '/**/*.test.ts'}`)
			: base.testMatch,
	// The simulation's many-seed targets take minutes per mutant; controller.test and shared-pace.test
	// check the pacer's rules one by one.
	testPathIgnorePatterns: [
		...base.testPathIgnorePatterns,
		'/test/pacing/pacer.simulation',
		'/test/pacing/drawn.simulation',
	],
	// A mutant that makes a scan page on forever fails a test in 10 seconds, not 30.
	testTimeout: 10000,
	reporters: ['default'],
};
