/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Stryker's JSON report into docs/mutation.md's per-area part (test/mutation/summary.ts): counts,
 * score, and areas or reasons a run did not touch kept. Pure: no Stryker run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { AREAS, countAreas, score, updateDocument, type MutationReport } from './summary';

const ROOT = '/repo';
const NODE = 'nodes/DataIntegrationManagement';
const mutant = (status: string, line: number, replacement = 'false') => ({
	mutatorName: 'ConditionalExpression',
	replacement,
	status,
	location: { start: { line, column: 5 } },
});
const report: MutationReport = {
	files: {
		[`${NODE}/client/auditLogPlacement.ts`]: {
			mutants: [
				mutant('Killed', 3),
				mutant('Survived', 9, 'true'),
				mutant('Timeout', 4),
				mutant('NoCoverage', 1),
				mutant('CompileError', 2),
			],
		},
		[`${NODE}/client/assets.ts`]: { mutants: [mutant('Survived', 1)] },
	},
};
const FACTS = { date: '2026-11-25', commit: 'abc1234', minutes: 7 };

describe('the mutation summary', () => {
	it('counts an area from its files only, and scores killed and timed out over the rest', () => {
		const areas = countAreas(report, ROOT);
		expect([...areas.keys()]).toEqual(['client/auditLog*.ts']);
		const client = areas.get('client/auditLog*.ts')!;
		expect(client).toMatchObject({ killed: 1, survived: 1, timeout: 1, noCoverage: 1 });
		expect(client.files).toEqual(['auditLogPlacement.ts']);
		expect(client.survivors).toEqual([
			'- `auditLogPlacement.ts:1:5` ConditionalExpression `false` (no coverage)',
			'- `auditLogPlacement.ts:9:5` ConditionalExpression `true`',
		]);
		expect(score(client)).toBe(50);
	});

	it('rewrites the measured area, keeps the others and the reasons given to survivors', () => {
		const first = updateDocument('# Mutation testing\n', countAreas(report, ROOT), FACTS);
		expect(first).toContain(
			'| client/auditLog*.ts | 1 | 1 | 1 | 1 | 50.0% | 7 min | 2026-11-25, `abc1234` |',
		);
		expect(first).toContain('| trigger/ | not measured yet |');
		const reasoned = first.replace(
			'ConditionalExpression `true`',
			'ConditionalExpression `true` — equivalent: the loop ends either way',
		);
		const again = updateDocument(reasoned, countAreas(report, ROOT), { ...FACTS, minutes: 8 });
		expect(again).toContain('`true` — equivalent: the loop ends either way');
		expect(again).toContain('| 8 min |');
		expect(again.match(/### client\/auditLog\*\.ts/g)).toHaveLength(1);
		expect(updateDocument(again, new Map(), FACTS)).toBe(again);
	});

	it('names only tests that exist for each area, so no area is measured with fewer by mistake', () => {
		const missing = AREAS.flatMap(({ tests }) => tests).filter(
			(path) => !existsSync(join(__dirname, '../..', path)),
		);
		expect(missing).toEqual([]);
	});
});
