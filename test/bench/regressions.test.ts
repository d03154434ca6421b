/**
 * The benchmark's regression rule, row by row: a figure is held against its committed value
 * with TOLERANCE, or with its resolution where that is wider (figures quantized by the service).
 */
import { regressions, type Figures } from './regressions';
import { higher, lower, type Measure, type Verdict } from './tools';

const committed: Figures = {
	'poll, s': { value: 1, better: 'lower' },
	share: { value: 0.9, better: 'higher' },
	'429s': { value: 0.03, better: 'lower' },
};
const verdictOf = (measure: Measure): Verdict => ['target', 'figure', 'limit', true, measure];

describe('regressions', () => {
	test.each([
		['lower, within 15%', lower('poll, s', 1.15), false],
		['lower, past 15%', lower('poll, s', 1.16), true],
		['lower, better', lower('poll, s', 0.5), false],
		['lower, past 15% but within its resolution', lower('poll, s', 2, 1), false],
		['lower, past its resolution', lower('poll, s', 2.01, 1), true],
		['higher, within 15%', higher('share', 0.77), false],
		['higher, past 15%', higher('share', 0.76), true],
		['higher, past 15% but within its resolution', higher('share', 0.7, 0.2), false],
		['a small share, past 15% but within its resolution', lower('429s', 0.045, 0.02), false],
		['a small share, past its resolution', lower('429s', 0.051, 0.02), true],
		['a figure not committed', lower('new', 100), false],
	])('%s', (_name, measure, regressed) => {
		expect(regressions([verdictOf(measure)], committed)).toEqual(
			regressed ? [[measure.key, String(committed[measure.key].value), String(measure.value)]] : [],
		);
	});

	test('a verdict without a figure is not held', () => {
		expect(regressions([['target', 'figure', 'limit', false]], committed)).toEqual([]);
	});
});
