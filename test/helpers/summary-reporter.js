// Prints one plain closing line ("Summary: N passed, N failed") that CI systems can read.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`\nSummary: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
		);
	}
}

module.exports = SummaryReporter;
