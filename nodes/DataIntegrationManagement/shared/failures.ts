import { ExecutionBaseError, NodeApiError, UserError, type Failure } from 'n8n-workflow';

/**
 * Why an error that leaves a node failed, when nothing declared it where it was made (every error
 * the nodes make declares its own; transport/failureCause.ts for requests): n8n's own errors about
 * what the node was given (an expression, a parameter: ExecutionBaseError; a credential deleted or
 * not shared with the workflow: n8n's CredentialNotFoundError, a UserError) need someone to change
 * it; any other error is a defect of the node.
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

/**
 * `error`, declaring why it failed: what it declares, or else `undeclaredCause`. What n8n 2.41
 * does when a node hands it a NodeApiError to wrap (`new NodeApiError(node, error, { failure })`
 * gives back the error itself, the declaration set on it), written for what it is: the
 * constructor takes the service's JSON answer, not an error. n8n 1.x leaves the field unread.
 */
export function declaring(error: NodeApiError): NodeApiError {
	error.failure = failureOf(error);
	return error;
}
