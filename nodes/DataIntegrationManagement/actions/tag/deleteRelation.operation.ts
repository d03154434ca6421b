import type { INodeProperties } from 'n8n-workflow';

import { tagIdField } from '../../shared/descriptions';
import { pathSegment, readRequired } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { deleteTagRelation } from '../../client/tags';
import { withWarning } from '../written';
import type { Execute } from '../operation';

export const changesData = true;

export const record = 'tagId';

export const properties: INodeProperties[] = [
	tagIdField,
	{
		displayName: 'Resource ID',
		name: 'resourceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ast_7c3e91',
		description:
			'The ID of the resource the tag is attached to, e.g. an asset ID (ast_…) or an integration ID (int_…)',
	},
	{
		displayName: 'Resource Type',
		name: 'resourceType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. asset',
		description:
			'The kind of resource the ID belongs to, as the service names it in lower case, e.g. asset or integration',
	},
];

export const execute: Execute = async function (itemIndex, pacer, item) {
	const tagId = pathSegment.call(this, itemIndex, properties, record, item.record);
	const relation = {
		resourceId: readRequired.call(this, itemIndex, properties, 'resourceId'),
		resourceType: readRequired.call(this, itemIndex, properties, 'resourceType'),
	};
	const { message, offSpec } = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ tagId, ...relation },
		deleteTagRelation.call(this, tagId, relation, pacer),
		' If they are right, the tag may no longer be on that resource (an earlier run may have removed it): nothing is left to delete.',
	);
	// The API answers with a message only, so the item says what was removed.
	const deleted = { deleted: true, tagId, ...relation, message: message ?? '' };
	return offSpec ? withWarning(offSpec, deleted) : deleted;
};
