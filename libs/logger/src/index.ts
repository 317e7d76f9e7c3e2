export { createLogger } from './create-logger.ts';
export type { Logger } from 'pino';
