// The order of test files in mutation runs (jest.stryker.config.js): tests of pure functions
// first, then the fake-clock simulations, then those that run a node through n8n-core, the
// randomized exactly-once schedules last, so that a mutant is killed by the quickest test that
// can kill it (bail-environment.js).
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const RUNS_A_NODE = /helpers\/n8n'|emulator/;
const RANDOMIZED = /exactly-once/;
const SIMULATION = /\.simulation\.test\.ts$/;

function cost(path) {
	if (RANDOMIZED.test(path)) return 3;
	if (RUNS_A_NODE.test(readFileSync(path, 'utf8'))) return 2;
	return SIMULATION.test(path) ? 1 : 0;
}

class FastFirstSequencer extends Sequencer {
	sort(tests) {
		return tests
			.map((test) => ({ test, cost: cost(test.path) }))
			.sort((a, b) => a.cost - b.cost || a.test.path.localeCompare(b.test.path))
			.map(({ test }) => test);
	}
}

module.exports = FastFirstSequencer;
