// HTTP request/response schemas shared by the server, the web app and the CLI; the records they
// carry live in records/.
export * from './contract.ts';
export * from './catalog-info.ts';
export * from './limits.ts';
export * from './fleet.ts';
