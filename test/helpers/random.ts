/** mulberry32: a small, well-known seeded generator of numbers in [0, 1), the same for one seed. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * How long something takes: `ms`, or drawn uniformly between `ms` and `maxMs`; and one time in
 * `tailOneIn`, drawn at random, `tailMs` instead (a heavy tail). `tailMs` comes with `tailOneIn`.
 */
export interface Spread {
	ms: number;
	maxMs?: number;
	tailMs?: number;
	tailOneIn?: number;
}

/** One duration of `spread`, ms; draws from `random` only for what is set (a plain `ms`: none). */
export function drawMs(spread: Spread, random: () => number): number {
	const { ms, maxMs, tailMs, tailOneIn } = spread;
	if (tailOneIn !== undefined && random() * tailOneIn < 1) return tailMs ?? ms;
	return maxMs === undefined ? ms : ms + random() * (maxMs - ms);
}
