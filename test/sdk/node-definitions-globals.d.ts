/**
 * The names n8n's generated node definitions use without importing them (n8n's workflow builder
 * supplies them): the SDK's own types, and an expression as n8n writes one, `={{ … }}`.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- n8n's definitions write Expression<string>, Expression<number>: the same text
type Expression<_Value> = `={{${string}}}`;
type IDataObject = import('@n8n/workflow-sdk').IDataObject;
type NodeConfig<Params> = import('@n8n/workflow-sdk').NodeConfig<Params>;
type CredentialReference = import('@n8n/workflow-sdk').CredentialReference;
type Items<Json> = import('@n8n/workflow-sdk/dist/types/base').Items<Json>;
