/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The floor: a plain HTTP client on one keep-alive connection (node:http, no n8n), sending the
 * same requests as the node, one after another, and parsing each JSON answer.
 */
import http from 'node:http';

import type { AuditLogPage, Envelope } from '../../nodes/DataIntegrationManagement/client/types';

export class PlainClient {
	private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

	constructor(
		private readonly baseUrl: string,
		private readonly apiKey: string,
	) {}

	async request<T>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: Envelope<T> }> {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const headers: http.OutgoingHttpHeaders = {
			accept: 'application/json',
			'x-api-key': this.apiKey,
		};
		if (payload !== undefined) {
			headers['content-type'] = 'application/json';
			headers['content-length'] = Buffer.byteLength(payload);
		}
		return await new Promise((resolve, reject) => {
			const request = http.request(
				`${this.baseUrl}${path}`,
				{ method, headers, agent: this.agent },
				(response) => {
					let text = '';
					response.setEncoding('utf8');
					response.on('data', (chunk: string) => (text += chunk));
					response.on('end', () => {
						try {
							resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) as Envelope<T> });
						} catch (error) {
							reject(error);
						}
					});
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(payload);
		});
	}

	/** POST /tags once per body, sequentially; returns the created ids. */
	async createTags(bodies: Array<{ name: string; owner: string }>): Promise<string[]> {
		const ids: string[] = [];
		for (const body of bodies) {
			const { status, json } = await this.request<{ id: string }>('POST', '/tags', body);
			if (status !== 201 && status !== 200) throw new Error(`POST /tags answered ${status}`);
			ids.push(json.data!.id);
		}
		return ids;
	}

	/**
	 * GET /audit-logs oldest first from `startTime`, by pages of 100 until `totalItems`, a short
	 * page or `maxPages`: the same queries the trigger sends. Returns pages and entries read.
	 */
	async readAuditLog(
		startTime: string,
		maxPages = Infinity,
	): Promise<{ pages: number; entries: number }> {
		let pages = 0;
		let entries = 0;
		for (let offset = 0; pages < maxPages; offset += 100) {
			const query = new URLSearchParams({
				limit: '100',
				offset: String(offset),
				sortBy: 'timestamp',
				sortOrder: 'asc',
				startTime,
			});
			const { status, json } = await this.request<AuditLogPage>('GET', `/audit-logs?${query}`);
			if (status !== 200) throw new Error(`GET /audit-logs answered ${status}`);
			pages++;
			const items = json.data?.items ?? [];
			entries += items.length;
			if (items.length < 100 || offset + items.length >= (json.data?.totalItems ?? 0)) break;
		}
		return { pages, entries };
	}

	close(): void {
		this.agent.destroy();
	}
}
