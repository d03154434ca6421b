// Prints one plain closing line ("Summary: N passed, N failed") that CI systems can read. A run
// with --randomize (npm test) adds its seed, which replays the order the tests ran in.
class SummaryReporter {
	constructor(globalConfig) {
		this.globalConfig = globalConfig;
	}

	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const { randomize, seed } = this.globalConfig;
		const order = randomize
			? `; seed ${seed} (replay the order: npx jest --randomize --seed=${seed})`
			: '';
		process.stdout.write(
			`\nSummary: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped${order}\n`,
		);
	}
}

module.exports = SummaryReporter;
