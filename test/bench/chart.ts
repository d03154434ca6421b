/**
 * A line chart drawn into a pixel buffer and written as a PNG by pngjs: the benchmark's figure in
 * docs/performance.md.
 */
import { PNG } from 'pngjs';

export type Color = readonly [number, number, number];

/** A 3×5 pixel font: each glyph is five rows of three pixels, top row first. */
// prettier-ignore
const FONT: Record<string, string> = {
	'0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111',
	'4': '101101111001001', '5': '111100111001111', '6': '111100111101111', '7': '111001001010010',
	'8': '111101111101111', '9': '111101111001111', A: '010101111101101', B: '110101110101110',
	C: '011100100100011', D: '110101101101110', E: '111100110100111', F: '111100110100100',
	G: '011100101101011', H: '101101111101101', I: '111010010010111', J: '001001001101010',
	K: '101101110101101', L: '100100100100111', M: '101111111101101', N: '110101101101101',
	O: '010101101101010', P: '110101110100100', Q: '010101101110011', R: '110101110101101',
	S: '011100010001110', T: '111010010010010', U: '101101101101111', V: '101101101101010',
	W: '101101111111101', X: '101101010101101', Y: '101101010010010', Z: '111001010100111',
	' ': '000000000000000', '.': '000000000000010', '/': '001001010100100', ':': '000010000010000',
	'-': '000000111000000', '(': '010100100100010', ')': '010001001001010', ',': '000000000010100',
	'%': '101001010100101', '=': '000111000111000', '+': '000010111010000',
};

export class Canvas {
	private readonly image: PNG;

	constructor(
		readonly width: number,
		readonly height: number,
		background: Color = [255, 255, 255],
	) {
		this.image = new PNG({ width, height, colorType: 2 });
		for (let i = 0; i < width * height; i++) this.image.data.set([...background, 255], i * 4);
	}

	dot(x: number, y: number, color: Color): void {
		const [px, py] = [Math.round(x), Math.round(y)];
		if (px < 0 || py < 0 || px >= this.width || py >= this.height) return;
		this.image.data.set(color, (py * this.width + px) * 4);
	}

	rect(x: number, y: number, width: number, height: number, color: Color): void {
		for (let dy = 0; dy < height; dy++)
			for (let dx = 0; dx < width; dx++) this.dot(x + dx, y + dy, color);
	}

	/** A straight line `thickness` pixels wide, drawn as squares stepped along it. */
	line(x0: number, y0: number, x1: number, y1: number, color: Color, thickness = 1): void {
		const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
		const offset = Math.floor(thickness / 2);
		for (let step = 0; step <= steps; step++) {
			const x = x0 + ((x1 - x0) * step) / steps;
			const y = y0 + ((y1 - y0) * step) / steps;
			this.rect(Math.round(x) - offset, Math.round(y) - offset, thickness, thickness, color);
		}
	}

	/** Upper-case text in the 3×5 font, each font pixel `scale` pixels wide. */
	text(x: number, y: number, text: string, color: Color, scale = 2): void {
		[...text.toUpperCase()].forEach((char, index) => {
			const glyph = FONT[char] ?? FONT[' '];
			for (let bit = 0; bit < 15; bit++) {
				if (glyph[bit] === '1')
					this.rect(
						x + (index * 4 + (bit % 3)) * scale,
						y + Math.floor(bit / 3) * scale,
						scale,
						scale,
						color,
					);
			}
		});
	}

	static textWidth(text: string, scale = 2): number {
		return (text.length * 4 - 1) * scale;
	}

	/** The image as a PNG: 8-bit RGB, no alpha channel. */
	png(): Buffer {
		return PNG.sync.write(this.image, { colorType: 2, deflateLevel: 9 });
	}
}

export interface Series {
	label: string;
	color: Color;
	/** [x, y] in the chart's units, x ascending. */
	points: Array<[number, number]>;
	/** A thin line (reference lines) instead of the default 2 pixels. */
	thin?: boolean;
}

export interface Panel {
	title: string;
	yMax: number;
	yStep: number;
	series: Series[];
}

const INK: Color = [40, 40, 40];
const GRID: Color = [225, 225, 225];

/**
 * Panels stacked over one x axis (seconds), each with its title, y grid and legend; every
 * series is drawn as a step-free polyline through its points.
 */
export function drawChart(options: {
	title: string;
	xMax: number;
	xStep: number;
	xLabel: string;
	panels: Panel[];
	width?: number;
	panelHeight?: number;
}): Canvas {
	const width = options.width ?? 960;
	const panelHeight = options.panelHeight ?? 240;
	const left = 56;
	const right = 24;
	const top = 40;
	const gap = 44;
	const height = top + options.panels.length * (panelHeight + gap) + 16;
	const canvas = new Canvas(width, height);
	canvas.text(left, 12, options.title, INK);
	const plotWidth = width - left - right;
	const xOf = (x: number) => left + (x / options.xMax) * plotWidth;

	options.panels.forEach((panel, index) => {
		const y0 = top + index * (panelHeight + gap) + 20;
		const yOf = (y: number) =>
			y0 + panelHeight - (Math.min(y, panel.yMax) / panel.yMax) * panelHeight;
		canvas.text(left, y0 - 16, panel.title, INK);
		for (let y = 0; y <= panel.yMax; y += panel.yStep) {
			canvas.line(left, yOf(y), left + plotWidth, yOf(y), GRID);
			const label = String(y);
			canvas.text(left - 8 - Canvas.textWidth(label), yOf(y) - 5, label, INK);
		}
		for (let x = 0; x <= options.xMax + 1e-9; x += options.xStep) {
			canvas.line(xOf(x), y0, xOf(x), y0 + panelHeight, GRID);
			const label = String(Math.round(x * 100) / 100);
			canvas.text(xOf(x) - Canvas.textWidth(label) / 2, y0 + panelHeight + 6, label, INK);
		}
		canvas.line(left, y0, left, y0 + panelHeight, INK);
		canvas.line(left, y0 + panelHeight, left + plotWidth, y0 + panelHeight, INK);
		for (const series of panel.series) {
			for (let i = 1; i < series.points.length; i++) {
				const [xa, ya] = series.points[i - 1];
				const [xb, yb] = series.points[i];
				canvas.line(xOf(xa), yOf(ya), xOf(xb), yOf(yb), series.color, series.thin ? 1 : 2);
			}
		}
		let legendX = left + plotWidth;
		for (const series of [...panel.series].reverse()) {
			legendX -= Canvas.textWidth(series.label) + 28;
			canvas.rect(legendX, y0 - 12, 14, 6, series.color);
			canvas.text(legendX + 18, y0 - 16, series.label, INK);
		}
	});
	const xLabel = options.xLabel;
	canvas.text(left + plotWidth - Canvas.textWidth(xLabel), height - 14, xLabel, INK);
	return canvas;
}
