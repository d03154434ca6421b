/** The addresses an error names (transport/addresses.ts), rule by rule. */
import {
	isWebAddress,
	notFoundOf,
	notFoundWords,
	redirectTarget,
	shownBaseUrl,
	type NotFound,
	type RequestAddress,
} from '../../nodes/DataIntegrationManagement/transport/addresses';
import type { RequestFailure } from '../../nodes/DataIntegrationManagement/transport/failureCause';

const USERS: RequestAddress = { baseUrl: 'https://old.example/v1', path: '/users' };
const CREATE: RequestAddress = {
	...USERS,
	path: '/tags',
	references: { owner: 'usr_9' },
};
const TAG: RequestAddress = {
	baseUrl: 'https://old.example/v1',
	path: '/tags/tag_1',
	ids: ['tag_1'],
};

describe('redirectTarget: where a redirect points, and the Base URL it implies', () => {
	it.each<[string, string | undefined, RequestAddress | undefined, object]>([
		[
			'the same path on another origin: that origin with the base path',
			'https://new.example/v1/users',
			USERS,
			{ shown: 'https://new.example/v1/users', baseUrl: 'https://new.example/v1' },
		],
		[
			'the query, fragment and user info are not shown (they may carry secrets)',
			'https://me:pw@new.example/v1/users?token=x#top',
			USERS,
			{ shown: 'https://new.example/v1/users', baseUrl: 'https://new.example/v1' },
		],
		[
			'http to https on the same host',
			'https://old.example:8443/v1/users',
			{ ...USERS, baseUrl: 'http://old.example/v1' },
			{ shown: 'https://old.example:8443/v1/users', baseUrl: 'https://old.example:8443/v1' },
		],
		[
			'a relative Location, resolved against the request',
			'/api/v1/tags/tag_1',
			TAG,
			{ shown: 'https://old.example/api/v1/tags/tag_1', baseUrl: 'https://old.example/api/v1' },
		],
		[
			'another path: no Base URL implied',
			'https://sso.example/login?next=/v1/users',
			USERS,
			{ shown: 'https://sso.example/login' },
		],
		[
			'the same address again (a loop, or only the query changed): no new Base URL',
			'https://old.example/v1/users?page=2',
			USERS,
			{ shown: 'https://old.example/v1/users' },
		],
		['no Location', undefined, USERS, {}],
		['an empty Location', '  ', USERS, {}],
		['a Location that is no URL', 'http://[bad', USERS, {}],
		[
			'no request known: shown, no Base URL',
			'https://new.example/v1/users',
			undefined,
			{ shown: 'https://new.example/v1/users' },
		],
	])('%s', (_title, location, address, target) => {
		expect(redirectTarget(location, address)).toEqual(target);
	});
});

describe('shownBaseUrl: the Base URL as an error shows it', () => {
	it.each([
		['https://api.example/v1', 'https://api.example/v1'],
		['https://api.example/', 'https://api.example'],
		['https://api.example/v1//', 'https://api.example/v1'],
		['https://me:pw@api.example/v1?x=1', 'https://api.example/v1'],
		['not a url', undefined],
	])('%s → %s', (baseUrl, shown) => {
		expect(shownBaseUrl(baseUrl)).toBe(shown);
	});
});

describe('isWebAddress: a Base URL the node sends to', () => {
	it.each([
		['https://api.example/v1', true],
		['http://127.0.0.1:4010/v1', true],
		['HTTPS://API.EXAMPLE/v1', true],
		['api.example.com/v1', false],
		['localhost:5678/v1', false],
		['htp://api.example/v1', false],
		['xhttp://api.example/v1', false],
		['http://[::1]:4010/v1', true],
		['https://api.example/v1?tenant=a', false],
		['https://api.example/v1#top', false],
		['https://api.example/v1?', false],
		['https://api.example/v1#', false],
		['https://api.example/v1 /x', false],
		['ftp://api.example/v1', false],
		['', false],
	])('%s: %s', (baseUrl, web) => {
		expect(isWebAddress(baseUrl)).toBe(web);
	});
});

describe('notFoundOf: whether a 404 says the address itself is unknown (the Base URL)', () => {
	it.each<[string, RequestFailure, RequestAddress | undefined, boolean]>([
		['a path with no ID (a list, a create)', { status: 404, apiMessage: 'gone' }, USERS, true],
		['no request known', { status: 404, apiMessage: 'gone' }, undefined, true],
		[
			'a create, the words quoting a value it sent: of that value',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			CREATE,
			false,
		],
		[
			"a create, the words quoting none (a gateway's Not Found): of the value sent, or the address",
			{ status: 404, apiMessage: 'Not Found' },
			CREATE,
			false,
		],
		[
			'a create, a value under 3 characters is not matched, yet a candidate',
			{ status: 404, apiMessage: "user 'u9' does not exist" },
			{ ...CREATE, references: { owner: 'u9' } },
			false,
		],
		[
			'a create quoting none, its references empty: the address',
			{ status: 404, apiMessage: 'Not Found' },
			{ ...CREATE, references: { owner: '', parent: undefined } },
			true,
		],
		[
			'a create, a value of 3 characters is matched',
			{ status: 404, apiMessage: 'no user u_9' },
			{ ...CREATE, references: { owner: 'u_9' } },
			false,
		],
		[
			'a create, a value inside a word is not quoted, yet a candidate',
			{ status: 404, apiMessage: 'Not Found' },
			{ ...CREATE, references: { name: 'Foun', description: 'ot F' } },
			false,
		],
		[
			'a create, a value that is no text is not matched',
			{ status: 404, apiMessage: 'no 1234' },
			{ ...CREATE, references: { id: 1234 } },
			true,
		],
		['a create, no error body: of the value sent, or the address', { status: 404 }, CREATE, false],
		[
			"a create, fastify's default repeating the path",
			{ status: 404, apiMessage: 'Route POST:/tags not found' },
			CREATE,
			true,
		],
		[
			'a create, "endpoint" beside a value it sent: of that value',
			{ status: 404, apiMessage: 'Owner usr_9 not found for this endpoint' },
			CREATE,
			false,
		],
		[
			'a create, the value quoted in another case',
			{ status: 404, apiMessage: "user 'USR_9' does not exist" },
			CREATE,
			false,
		],
		[
			'a create under a Base URL without /v1',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			{ ...CREATE, baseUrl: 'https://old.example/api' },
			true,
		],
		[
			'an ID path, the API naming the record',
			{ status: 404, apiMessage: "tag 'tag_1' does not exist" },
			TAG,
			false,
		],
		['an ID path, no error body: the IDs first', { status: 404 }, TAG, false],
		[
			'an ID path under a Base URL without /v1, the API naming the record',
			{ status: 404, apiMessage: "tag 'tag_1' does not exist" },
			{ ...TAG, baseUrl: 'https://old.example/api/' },
			true,
		],
		[
			'an ID path under a Base URL that is no URL',
			{ status: 404 },
			{ ...TAG, baseUrl: 'old.example/v1' },
			true,
		],
		[
			'an ID path under a Base URL ending in /v1/ (a trailing slash)',
			{ status: 404 },
			{ ...TAG, baseUrl: 'https://old.example/v1/' },
			false,
		],
		['an ID path, "No route for …"', { status: 404, apiMessage: 'No route for PUT' }, TAG, true],
		[
			"an ID path, fastify's default",
			{ status: 404, apiMessage: 'Route PUT:/tags/tag_1 not found' },
			TAG,
			true,
		],
		['an ID path, "unknown endpoint"', { status: 404, apiMessage: 'Unknown endpoint' }, TAG, true],
		[
			'an ID path, the words repeating the path',
			{ status: 404, apiMessage: 'no operation PUT /tags/tag_1' },
			TAG,
			true,
		],
		['"routes" is not "route"', { status: 404, apiMessage: 'no tag on these routes' }, TAG, false],
	])('%s: %p', (_title, failure, address, missing) => {
		expect('routeMissing' in notFoundOf(failure, address)).toBe(missing);
	});
});

describe('notFoundOf: what a 404 is of, as the error keeps it', () => {
	it.each<[string, RequestFailure, RequestAddress, NotFound]>([
		['a list: the address', { status: 404, apiMessage: 'gone' }, USERS, { routeMissing: true }],
		['an ID path quoting nothing: the IDs', { status: 404, apiMessage: 'Not Found' }, TAG, {}],
		[
			'an ID path quoting nothing, an owner sent: the IDs and the owner',
			{ status: 404, apiMessage: 'Not Found' },
			{ ...TAG, references: { owner: 'usr_9', parent: '' } },
			{ references: ['owner'] },
		],
		[
			'a create quoting nothing sent: each reference sent, in order',
			{ status: 404, apiMessage: "'u9' or 'p' not found" },
			{ ...CREATE, references: { owner: 'u9', parent: 'p', other: 7 } },
			{ references: ['owner', 'parent'] },
		],
		[
			'a create quoting none of its references, saying "route": the address',
			{ status: 404, apiMessage: 'No route matched' },
			CREATE,
			{ routeMissing: true },
		],
		[
			'a create quoting its owner: that field',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			CREATE,
			{ missingField: 'owner' },
		],
		[
			'two IDs, one of them quoted beside the owner: the IDs and the owner',
			{ status: 404, apiMessage: "tag 'tag_1' has no owner 'usr_9'" },
			{ ...TAG, ids: ['tag_1', 'rel_2'], references: { owner: 'usr_9', parent: 'tag_0' } },
			{ references: ['owner'] },
		],
		[
			'an ID quoted, no reference: the IDs',
			{ status: 404, apiMessage: "tag 'tag_1' not found" },
			{ ...TAG, references: { owner: 'usr_9' } },
			{},
		],
		[
			"a create's 404 as a web page (a proxy's): the address, not the owner",
			{ status: 404, page: 'a web page' },
			CREATE,
			{ routeMissing: true },
		],
		[
			"an ID path's 404 in text: the IDs, not the owner",
			{ status: 404, page: 'text' },
			{ ...TAG, references: { owner: 'usr_9' } },
			{},
		],
		[
			'a word sent (not ID-like) in another case is not matched: "API endpoint" stays the address',
			{ status: 404, apiMessage: 'API endpoint not found' },
			{ ...CREATE, references: { owner: 'api' } },
			{ routeMissing: true },
		],
		[
			'an ID of one letter in another case is not matched: the owner',
			{ status: 404, apiMessage: 'A user usr_9 was not found' },
			{ ...TAG, path: '/tags/a', ids: ['a'], references: { owner: 'usr_9' } },
			{ missingField: 'owner' },
		],
		[
			'an ID-like value in another case is matched',
			{ status: 404, apiMessage: 'no such user: USR-9' },
			{ ...CREATE, references: { owner: 'usr-9' } },
			{ missingField: 'owner' },
		],
		[
			'an owner of 40,000 characters, quoted: named (a RegExp of it is too large for V8)',
			{ status: 404, apiMessage: `no user usr_${'a'.repeat(40_000)}.` },
			{ ...CREATE, references: { owner: `usr_${'a'.repeat(40_000)}` } },
			{ missingField: 'owner' },
		],
		[
			'a value found only inside a word, then alone: matched',
			{ status: 404, apiMessage: 'usr_9x; usr_9 is unknown' },
			CREATE,
			{ missingField: 'owner' },
		],
		[
			'three values quoted: the longest, wherever it is listed',
			{ status: 404, apiMessage: 'no usr, usr_9_long or usr_9' },
			{ ...CREATE, references: { a: 'usr', b: 'usr_9_long', c: 'usr_9' } },
			{ missingField: 'b' },
		],
	])('%s', (_title, failure, address, notFound) => {
		expect(notFoundOf(failure, address)).toEqual(notFound);
	});
});

describe("notFoundWords: a 404's sentence, where it is not the address's", () => {
	it.each<[string, RequestFailure, RequestAddress, string]>([
		[
			'a create: the value quoted and its field',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			CREATE,
			'The service found nothing for "usr_9", the request\'s owner. Check that field, and that the Base URL',
		],
		[
			'a create quoting two values: the longest (an owner, not a name "user")',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			{ ...CREATE, references: { name: 'user', owner: 'usr_9' } },
			'The service found nothing for "usr_9", the request\'s owner.',
		],
		[
			'a value with characters a pattern reads (a dot, brackets)',
			{ status: 404, apiMessage: 'no user u.s[r]9' },
			{ ...CREATE, references: { owner: 'u.s[r]9' } },
			'The service found nothing for "u.s[r]9", the request\'s owner.',
		],
		[
			'an ID path, the words quoting a value sent and no part of the path: that value (an owner)',
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing for "usr_9", the request\'s owner. Check that field, and',
		],
		[
			"a create whose words name its path's resource: a create's path holds no ID, the value's field",
			{ status: 404, apiMessage: "no tags for user 'usr_9'" },
			CREATE,
			'The service found nothing for "usr_9", the request\'s owner.',
		],
		[
			'an ID path, the words quoting its ID too: the ID fields and the owner',
			{ status: 404, apiMessage: "tag 'tag_1' has no owner 'usr_9'" },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing under the IDs the request gives, or for "usr_9", the request\'s owner. Check those fields, and',
		],
		[
			'an ID path, the words quoting its ID as given, not as sent in the path: the ID fields and the owner',
			{ status: 404, apiMessage: "tag 'my tag' has no owner 'usr_9'" },
			{ ...TAG, path: '/tags/my%20tag', ids: ['my tag'], references: { owner: 'usr_9' } },
			'The service found nothing under the IDs the request gives, or for "usr_9", the request\'s owner. Check those fields, and',
		],
		[
			'an ID path, its ID under 3 characters quoted: the ID fields and the owner',
			{ status: 404, apiMessage: 'Tag 17 of owner usr_9 not found' },
			{ ...TAG, path: '/tags/17', ids: ['17'], references: { owner: 'usr_9' } },
			'The service found nothing under the IDs the request gives, or for "usr_9", the request\'s owner. Check those fields, and',
		],
		[
			'an ID path, the words naming its resource, not its ID: the reference',
			{ status: 404, apiMessage: "no tags for user 'usr_9'" },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing for "usr_9", the request\'s owner.',
		],
		[
			'a create, the value quoted in another case: named as sent',
			{ status: 404, apiMessage: "user 'USR_9' does not exist" },
			CREATE,
			'The service found nothing for "usr_9", the request\'s owner.',
		],
		[
			'an ID path, its ID quoted in another case: the ID fields and the owner',
			{ status: 404, apiMessage: "tag 'TAG_1' has no owner 'usr_9'" },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing under the IDs the request gives, or for "usr_9", the request\'s owner. Check those fields, and',
		],
		[
			'an ID path, "endpoint" beside the owner quoted: the owner',
			{ status: 404, apiMessage: 'no owner usr_9 at this endpoint' },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing for "usr_9", the request\'s owner.',
		],
		[
			'an ID path, the words quoting nothing sent: the ID fields or the owner',
			{ status: 404, apiMessage: 'Not Found' },
			{ ...TAG, references: { owner: 'usr_9' } },
			'The service found nothing under the IDs the request gives, or for "usr_9", the request\'s owner. Check those fields, and that the Base URL',
		],
		[
			'a create, the words quoting nothing sent: its owner',
			{ status: 404, apiMessage: 'Not Found' },
			CREATE,
			'The service found nothing for "usr_9", the request\'s owner. Check that field, and that the Base URL',
		],
		[
			'a create, two references quoting neither: both',
			{ status: 404 },
			{ ...CREATE, references: { owner: 'usr_9', parent: 'tag_0' } },
			'The service found nothing for "usr_9", the request\'s owner, or for "tag_0", the request\'s parent. Check those fields,',
		],
	])('%s', (_title, failure, address, words) => {
		expect(notFoundWords(notFoundOf(failure, address), address)).toContain(words);
	});
});
