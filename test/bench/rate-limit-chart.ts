/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The chart of section 5 (docs/bench-rate-limit.png): requests in flight and items created over
 * time, Concurrency Auto against fixed 32, under the first limit (50/s).
 */
import { writeFileSync } from 'node:fs';

import type { RateLimitSpec, TrafficEntry } from '../emulator';
import { drawChart, type Color, type Series } from './chart';
import { LIMITS, type RateCell, type Variant } from './rate-limit';

const AUTO_COLOR: Color = [30, 90, 200];
const FIXED_COLOR: Color = [210, 60, 40];
const LIMIT_COLOR: Color = [140, 140, 140];
const SAMPLE_MS = 20;

/** Requests in flight at the emulator, sampled every SAMPLE_MS from the first arrival. */
function inFlight(traffic: TrafficEntry[]): Array<[number, number]> {
	const start = Math.min(...traffic.map((entry) => entry.arrivedAt));
	const end = Math.max(...traffic.map((entry) => entry.answeredAt));
	const points: Array<[number, number]> = [];
	for (let t = start; t <= end + SAMPLE_MS; t += SAMPLE_MS) {
		const count = traffic.filter((entry) => entry.arrivedAt <= t && entry.answeredAt > t).length;
		points.push([(t - start) / 1000, count]);
	}
	return points;
}

/** Items created so far, at each answer that created one. */
function completed(traffic: TrafficEntry[]): Array<[number, number]> {
	const start = Math.min(...traffic.map((entry) => entry.arrivedAt));
	const answers = traffic
		.filter((entry) => entry.status < 300)
		.map((entry) => entry.answeredAt)
		.sort((a, b) => a - b);
	return [
		[0, 0],
		...answers.map((at, index): [number, number] => [(at - start) / 1000, index + 1]),
	];
}

/** What the limit lets through by each second, drawn up to where it leaves the panel. */
function limitLine(limit: RateLimitSpec, xMax: number, yMax: number): Series {
	return {
		label: `limit: ${limit.burst} + ${limit.requestsPerSecond}/s`,
		color: LIMIT_COLOR,
		thin: true,
		points: [
			[0, limit.burst],
			[
				Math.min(xMax, (yMax - limit.burst) / limit.requestsPerSecond),
				Math.min(yMax, limit.burst + limit.requestsPerSecond * xMax),
			],
		],
	};
}

/** The chart of Auto against fixed 32 under the first limit, written as a PNG to `file`. */
export function writeRateLimitChart(cells: RateCell[], items: number, file: string): void {
	const limit = LIMITS[0]!;
	const cell = (variant: Variant) =>
		cells.find((candidate) => candidate.limit === limit && candidate.variant === variant)!;
	const auto = cell('auto');
	const fixed = cell('c32');
	const xMax = Math.ceil(Math.max(auto.run.ms, fixed.run.ms) / 1000);
	const yMax = Math.ceil(items / 100) * 100;
	const series = (label: string, color: Color, points: Array<[number, number]>): Series => ({
		label,
		color,
		points,
	});
	const canvas = drawChart({
		title: `${items} x tag create, limit ${limit.requestsPerSecond}/s (burst ${limit.burst}), 20 ms latency: Auto against fixed 32`,
		xMax,
		xStep: xMax > 20 ? 5 : 1,
		xLabel: 'seconds',
		panels: [
			{
				title: 'requests in flight (429s included)',
				yMax: 40,
				yStep: 10,
				series: [
					series(`auto`, AUTO_COLOR, inFlight(auto.run.traffic)),
					series(`fixed 32`, FIXED_COLOR, inFlight(fixed.run.traffic)),
				],
			},
			{
				title: 'items created',
				yMax,
				yStep: Math.max(10, Math.ceil(items / 600) * 100),
				series: [
					limitLine(limit, xMax, yMax),
					series(
						`auto (${auto.run.failed} failed, ${auto.run.refused} x 429)`,
						AUTO_COLOR,
						completed(auto.run.traffic),
					),
					series(
						`fixed 32 (${fixed.run.failed} failed, ${fixed.run.refused} x 429)`,
						FIXED_COLOR,
						completed(fixed.run.traffic),
					),
				],
			},
		],
	});
	writeFileSync(file, canvas.png());
}
