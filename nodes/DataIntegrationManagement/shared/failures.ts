import {
	ExecutionBaseError,
	NodeApiError,
	NodeOperationError,
	UserError,
	type Failure,
	type INode,
} from 'n8n-workflow';

/**
 * Why an undeclared error failed: n8n's own errors about what the node was given (an expression, a
 * parameter, a credential not shared) need someone to change it; any other is a node defect.
 */
export function undeclaredCause(error: unknown): Failure {
	return error instanceof ExecutionBaseError || error instanceof UserError
		? { cause: 'configuration-invalid' }
		: { cause: 'node-defect' };
}

/** Why `error` failed: what it declares, or else `undeclaredCause`. */
export function failureOf(error: unknown): Failure {
	return (error as { failure?: Failure } | undefined)?.failure ?? undeclaredCause(error);
}

type NodeError = NodeApiError | NodeOperationError;

/**
 * `error` as a node throws it, declaring why it failed and naming its item: a node error as it is
 * (as n8n 2.41 does with one it is handed to wrap; n8n 1.x leaves `failure` unread), else wrapped.
 */
export function declaredError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError))
		return new NodeOperationError(node, error as Error, { itemIndex, failure: failureOf(error) });
	error.failure = failureOf(error);
	if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
	return error;
}

/**
 * The failure of item `failed` (the lowest that failed), saying which items had made their
 * changes before it, and which later ones had been sent and may have: a re-run sends them again.
 */
export function withItemsSent(error: unknown, failed: number, sent: number[]): unknown {
	const [earlier, later] = [sent.filter((i) => i < failed), sent.filter((i) => i > failed)];
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const items = (indexes: number[], first = true) =>
		`${first ? 'I' : 'i'}tem${indexes.length === 1 ? '' : 's'} ${listOf(indexes)}`;
	const said = [
		earlier.length &&
			`${items(earlier)} had already made ${earlier.length === 1 ? 'its' : 'their'} change`,
		later.length &&
			`${items(later, !earlier.length)} had already been sent and may have taken effect`,
	].filter(Boolean);
	if (!said.length) return error;
	const note = `${said.join('; ')}: running the node again sends ${earlier.length + later.length === 1 ? 'it' : 'them'} again.`;
	error.description = error.description ? `${error.description}\n\n${note}` : note;
	return error;
}

/** "3", "3 and 5", "3, 4 and 5", with runs of four or more shortened: "3 to 9 and 12". */
function listOf(indexes: number[]): string {
	const runs: string[] = [];
	for (let i = 0; i < indexes.length; ) {
		let end = i;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		runs.push(
			end - i >= 3 ? `${indexes[i]} to ${indexes[end]}` : indexes.slice(i, end + 1).join(','),
		);
		i = end + 1;
	}
	return listed(runs.flatMap((run) => run.split(',')));
}

/** "A", "A and B", "A, B and C". */
export function listed(parts: string[]): string {
	return parts.length === 1
		? parts[0]
		: `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
