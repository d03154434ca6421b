import type { operations as asset } from './asset';
import type { operations as auditLog } from './auditLog';
import type { operations as connector } from './connector';
import type { operations as integration } from './integration';
import type { operations as tag } from './tag';
import type { operations as user } from './user';

/**
 * The action node's resources, each with the keys of its operations: what the `resource` and
 * `operation` parameters may hold. Derived from each resource's `operations` map (the one place
 * an operation's key is written); types the router and the Resource option list, so a misspelt
 * key does not compile. It imports the resources, which never import it back.
 */
export type NodeMap = {
	asset: keyof typeof asset;
	auditLog: keyof typeof auditLog;
	connector: keyof typeof connector;
	integration: keyof typeof integration;
	tag: keyof typeof tag;
	user: keyof typeof user;
};

export type Resource = keyof NodeMap;
