/* eslint-disable no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A small sequential step runner for the end-to-end run. Each step prints what it checked, one
 * line per check. A failed step is reported with its error; by default it stops the run (later
 * steps depend on it), and the steps after it are listed as not run. Steps that others do not
 * depend on can be marked `independent`, so the run goes on after they fail.
 */

/** Records one thing a step checked, and prints it. */
export type Check = (what: string) => void;

interface Tally {
	passed: number;
	failed: number;
	notRun: number;
	checks: number;
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

export class StepRunner {
	private readonly tally: Tally = { passed: 0, failed: 0, notRun: 0, checks: 0 };

	private stopped = false;

	private readonly startedAt = Date.now();

	/** Runs `body` unless an earlier step stopped the run. */
	async step(
		title: string,
		body: (check: Check) => Promise<void>,
		options: { independent?: boolean } = {},
	) {
		if (this.stopped) {
			this.tally.notRun++;
			console.log(`- ${title} (not run)`);
			return;
		}
		console.log(`▶ ${title}`);
		const started = Date.now();
		const check: Check = (what) => {
			this.tally.checks++;
			console.log(`  ✓ ${what}`);
		};
		try {
			await body(check);
			this.tally.passed++;
			console.log(`  (${seconds(Date.now() - started)})`);
		} catch (error) {
			this.tally.failed++;
			const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
			console.log(`  ✗ FAILED: ${message.split('\n').join('\n    ')}`);
			if (!options.independent) this.stopped = true;
		}
	}

	/** Prints the totals; true when every step ran and passed. */
	summarize(): boolean {
		const { passed, failed, notRun, checks } = this.tally;
		const ok = failed === 0 && notRun === 0;
		console.log(
			`\n${ok ? 'PASS' : 'FAIL'}: ${passed} steps passed, ${failed} failed, ${notRun} not run; ` +
				`${checks} checks; ${seconds(Date.now() - this.startedAt)}`,
		);
		return ok;
	}
}
