/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/** Small tools shared by the benchmark's sections: figures, timing, checks, progress, tables. */

export function positiveInt(name: string, fallback: number): number {
	const text = process.env[name];
	if (!text) return fallback;
	if (!/^\d+$/.test(text) || Number(text) < 1)
		throw new Error(`${name} must be a whole number of 1 or more`);
	return Number(text);
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Wall time, and CPU time of this process (all its threads: the client side, never the emulator). */
export async function timed<T>(
	run: () => Promise<T>,
): Promise<{ ms: number; cpuMs: number; value: T }> {
	const cpu = process.cpuUsage();
	const start = performance.now();
	const value = await run();
	const ms = performance.now() - start;
	const { user, system } = process.cpuUsage(cpu);
	return { ms, cpuMs: (user + system) / 1000, value };
}

export function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(`bench check failed: ${message}`);
}

export const benchStart = performance.now();
/** Progress on stderr, so stdout holds only the report. */
export function progress(message: string) {
	process.stderr.write(`[${seconds(performance.now() - benchStart).padStart(8)}] ${message}\n`);
}

/**
 * One line of the report's Targets table: `pass` undefined when it could not be measured; a
 * `measure` is held against the committed figures (./regressions.ts).
 */
export type Verdict = [
	target: string,
	figure: string,
	limit: string,
	pass: boolean | undefined,
	measure?: Measure,
];

/** A figure the benchmark keeps: its stable name, its value, and which way is better. */
export interface Measure {
	key: string;
	value: number;
	better: 'lower' | 'higher';
	/** The least change the measurement can show (one request's turn at 1 a second: 1 s). */
	resolution?: number;
}

export const lower = (key: string, value: number, resolution?: number): Measure => ({
	key,
	value,
	better: 'lower',
	resolution,
});
export const higher = (key: string, value: number, resolution?: number): Measure => ({
	key,
	value,
	better: 'higher',
	resolution,
});

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** Each run's time in seconds, as the report lists them. */
export const runsInSeconds = (values: number[]) =>
	values.map((ms) => (ms / 1000).toFixed(2)).join(' ');
export const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const times = (ratio: number) => `${ratio.toFixed(2)}x`;
export const number = (value: number) => value.toLocaleString('en');

export function table(rows: string[][], indent = '  '): string {
	const widths = rows[0].map((_, column) =>
		Math.max(...rows.map((row) => (row[column] ?? '').length)),
	);
	return rows
		.map(
			(row) =>
				indent +
				row
					.map((cell, column) => cell.padEnd(widths[column]))
					.join('   ')
					.trimEnd(),
		)
		.join('\n');
}

/**
 * `measure` for each of `settings`, one run of each in turn, round after round (a setting's own
 * `runsOf` may be fewer), so the machine's drift over a section falls on every setting alike:
 * each setting's results, in the order of `settings`.
 */
export async function interleaved<S, R>(
	settings: S[],
	runsOf: (setting: S) => number,
	measure: (setting: S, run: number) => Promise<R>,
): Promise<R[][]> {
	const results = settings.map((): R[] => []);
	const rounds = Math.max(...settings.map(runsOf));
	for (let run = 1; run <= rounds; run++)
		for (const [index, setting] of settings.entries())
			if (run <= runsOf(setting)) results[index].push(await measure(setting, run));
	return results;
}
