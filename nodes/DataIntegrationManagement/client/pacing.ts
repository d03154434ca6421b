/**
 * How the requests of one execution are paced: the router hands its concurrency to the
 * transport, which tells it each answer's time and waits out 429s through it.
 */
export { paceRequestsWith, type Pacer } from '../transport';
