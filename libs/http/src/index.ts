export { createServiceApp } from './service-app.ts';
export type { ServiceAppOptions, ReadinessChecks } from './service-app.ts';
export { errorToHttp, errorMiddleware } from './error-mapping.ts';
export { callerOf, asyncHandler } from './request-context.ts';
export { parseParams, requestParams, params } from './params.ts';
export { pageParams, pageShape, setPaginationHeaders, sendPage } from './pagination.ts';
export type { PageRequest } from './pagination.ts';
export { baseUrlOf } from './base-url.ts';
export { requestLogging } from './request-logging.ts';
