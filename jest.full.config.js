/**
 * `npm run test:full` (CI runs it): the randomized schedules, the simulations' seeds and the
 * property runs at full size (test/helpers/scale.ts reads TEST_SCALE; workers inherit it).
 */
process.env.TEST_SCALE = 'full';

module.exports = {
	...require('./jest.config'),
	testMatch: ['**/exactly-once.test.ts', '**/*.simulation.test.ts', '**/*.property.test.ts'],
};
