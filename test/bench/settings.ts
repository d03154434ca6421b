/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/** The benchmark's settings, from its command line and environment (see bench.ts), and what its sections share. */
import os from 'node:os';
import path from 'node:path';

import { SEED } from '../emulator/seed';
import type { ApiCredentials } from '../helpers/n8n';
import type { EmulatorProcess } from './emulator-process';
import type { PlainClient } from './plain-client';
import { positiveInt } from './tools';

export const SMOKE = process.argv.includes('--smoke');
export const RATE_LIMIT_ONLY = process.argv.includes('--only=rate-limit');
export const AUTO_ONLY = process.argv.includes('--only=auto');
export const CAPACITY_ONLY = process.argv.includes('--only=capacity');
export const LATENCY_ONLY = process.argv.includes('--only=latency');
export const BESIDE_ONLY = process.argv.includes('--only=beside');
export const WRITES_ONLY = process.argv.includes('--only=writes');
export const RUNS = SMOKE ? 1 : positiveInt('BENCH_RUNS', 3);
export const LATENCY_MS = positiveInt('BENCH_LATENCY_MS', 20);
/** Items of a bulk write (sections 1, 2, 4, 8 and 9) and of the no-limit runs of section A. */
export const ITEMS = SMOKE ? 20 : positiveInt('BENCH_ITEMS', 500);
/** Section 9's creates: 600, as in the runs of the issue that asked for it. */
export const LATENCY_ITEMS = SMOKE ? 20 : positiveInt('BENCH_ITEMS', 600);
export const BACKLOG = SMOKE ? 400 : 20_000;
export const SMALL_CAP = SMOKE ? 200 : 2_000;
export const RATE_LIMIT_ITEMS = SMOKE ? 40 : 600;
export const WARM_UP_ITEMS = Math.min(ITEMS, 100);
export const CHART = SMOKE
	? path.join(os.tmpdir(), 'bench-rate-limit.png')
	: path.resolve(__dirname, '../../docs/bench-rate-limit.png');
export const PAGE_SIZE = 100;
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fixed key for the local emulator, not a secret
export const API_KEY = 'bench-key-7d3e91';
export const OWNER = SEED.users.maya;

/** What every section runs against. */
export interface BenchContext {
	emulator: EmulatorProcess;
	credentials: ApiCredentials;
	plain: PlainClient;
}
