// The client reads the platform's answers with the shared wire rows (src/shared/wire): one definition
// for the platform, the client, the widgets and the OpenAPI document.
export * from '../shared/wire/index.ts';
