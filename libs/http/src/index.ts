export { createServiceApp } from './service-app.ts';
export type { ServiceAppOptions, ReadinessChecks } from './service-app.ts';
export { errorToHttp, errorMiddleware } from './error-mapping.ts';
export { callerOf, asyncHandler } from './request-context.ts';
export { parseParams, requestParams, params, integerList, dateParam, sortParam, idOrPathParams } from './params.ts';
export {
  decodeCursor,
  encodeCursor,
  keysetShape,
  pageParams,
  pageShape,
  sendKeysetPage,
  sendPage,
  setPaginationHeaders,
} from './pagination.ts';
export type { KeysetCursor, PageRequest } from './pagination.ts';
export { baseUrlOf } from './base-url.ts';
export { requestLogging } from './request-logging.ts';
export { listen, isDraining } from './listen.ts';
export type { ListeningServer } from './listen.ts';
export { routesOf, createRouter, routeCatalogue, reply, RouteReply, HTTP_METHODS } from './routes.ts';
export type { RouteDefinition, RouteContext, RouteSpec, RouteAccess, CatalogueEntry, HttpMethod } from './routes.ts';
