/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: reads the scale from the environment; runs under Node in this repo only */
/**
 * How large the long checks run: `npm test` proves each guarantee on a small scale, in minutes;
 * `npm run test:full` (TEST_SCALE=full), which CI runs, runs the randomized schedules, the
 * simulations' seeds and the property runs at full size.
 */
export const FULL_SCALE = process.env.TEST_SCALE === 'full';

/** `small` in `npm test`, `full` in `npm run test:full`. */
export const atScale = (small: number, full: number): number => (FULL_SCALE ? full : small);
