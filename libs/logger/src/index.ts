export { createLogger, withRequestId } from './create-logger.ts';
export type { Logger } from 'pino';
