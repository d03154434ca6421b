// Jest's Node environment, with n8n's own log held back: n8n-core logs every error a node throws
// (winston's console transport, which writes to `console._stdout`), and most tests throw errors
// on purpose. Those lines are kept per test and printed only when that test fails, under its
// name; a test's own console output (seeds, totals) passes through as usual.
const { TestEnvironment } = require('jest-environment-node');

const WINSTON = /[\\/]node_modules[\\/]winston[\\/]/;

class QuietN8nLogEnvironment extends TestEnvironment {
	async setup() {
		await super.setup();
		this.heldBack = [];
		const stream = this.global.console._stdout;
		const write = stream.write;
		stream.write = (chunk, ...rest) => {
			if (!WINSTON.test(new Error().stack ?? '')) return write.call(stream, chunk, ...rest);
			this.heldBack.push(String(chunk).trimEnd());
			return true;
		};
		this.restore = () => (stream.write = write);
	}

	async teardown() {
		this.restore?.();
		await super.teardown();
	}

	async handleTestEvent(event) {
		if (event.name === 'test_start') this.heldBack = [];
		if (event.name === 'test_done' && event.test.errors.length > 0 && this.heldBack.length > 0) {
			process.stderr.write(
				`\nn8n's log during the failed test "${event.test.name}":\n  ${this.heldBack.join('\n  ')}\n`,
			);
		}
	}
}

module.exports = QuietN8nLogEnvironment;
