import type { operations as asset } from './asset';
import type { operations as auditLog } from './auditLog';
import type { operations as connector } from './connector';
import type { operations as integration } from './integration';
import type { operations as tag } from './tag';
import type { operations as user } from './user';

/**
 * The resources and their operations' keys (from each `operations` map): what `resource` and
 * `operation` may hold. Types the router and the Resource list, so a misspelt key does not compile.
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
