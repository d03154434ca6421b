import { ExecutionBaseError, UserError, type Failure } from 'n8n-workflow';

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
