import { ERROR_CODES } from './choices';

/** The body of an error answer, as the specification gives it. */
export type ErrorBody = { code: string; message: string };

/** The error `code` for an HTTP status; statuses choices.ts does not list fall back to the nearest class. */
export function errorCodeFor(status: number): string {
	if (status in ERROR_CODES) return ERROR_CODES[status as keyof typeof ERROR_CODES];
	return status >= 500 ? ERROR_CODES[500] : ERROR_CODES[400];
}

/** A failure the API reports to the client as `{ code, message }` with an HTTP status. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
		this.name = 'ApiError';
	}

	toBody(): ErrorBody {
		return { code: errorCodeFor(this.status), message: this.message };
	}
}

export function badRequest(message: string): ApiError {
	return new ApiError(400, message);
}

export function notFound(message: string): ApiError {
	return new ApiError(404, message);
}
