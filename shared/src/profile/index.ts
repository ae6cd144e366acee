export * from './io-profile.schema.ts';
export * from './observed.ts';
export * from './size-class.ts';
export * from './from-fio.ts';
