import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { descriptionField, fieldsCollection, ownerLocator } from '../../shared/descriptions';
import { readCollection, readRequired, requiredText } from '../readers';
import { createTag } from '../../client/tags';
import { writtenItem } from '../written';
import { nameField } from '../namedCreate';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import type { Execute } from '../operation';

const additionalFields = fieldsCollection('additionalFields', [descriptionField]);

export const changesData = true;

export const record = 'name';

export const properties: INodeProperties[] = [
	nameField('tag', 'PII'),
	{ ...ownerLocator, required: true },
	additionalFields,
];

export const execute: Execute = async function (itemIndex, pacer, item) {
	const body: IDataObject = {
		name: requiredText.call(this, itemIndex, properties, record, item.record),
		owner: readRequired.call(this, itemIndex, properties, 'owner'),
		...readCollection.call(this, itemIndex, additionalFields),
	};
	const created = createTag.call(this, body, pacer);
	const owner = { owner: body.owner as string };
	const answer = namingFieldsIfNotFound(this.getNode(), properties, {}, created, '', owner);
	return writtenItem(await answer, body);
};
