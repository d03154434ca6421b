// The test environment of mutation runs (jest.stryker.config.js): the quiet n8n-log environment,
// and once a test fails while Stryker has a mutant active, every later test of that mutant's run
// is skipped, since one failure already kills it (Stryker's jest runner turns jest's bail off).
const QuietN8nLogEnvironment = require('../helpers/quiet-n8n-log-environment');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
// Module state: jest runs Stryker's runs in band, so every test file of a run shares it.
let killedMutant;

class BailEnvironment extends QuietN8nLogEnvironment {
	async handleTestEvent(event, state) {
		await super.handleTestEvent(event, state);
		const mutant = process.env[ACTIVE_MUTANT];
		if (mutant === undefined) return;
		if (event.name === 'test_start' && killedMutant === mutant) event.test.mode = 'skip';
		if (event.name === 'test_done' && event.test.errors.length > 0) killedMutant = mutant;
	}
}

module.exports = BailEnvironment;
