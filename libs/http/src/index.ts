export { createServiceApp } from './service-app.ts';
export type { ServiceAppOptions, ReadinessChecks } from './service-app.ts';
export { errorToHttp, errorMiddleware } from './error-mapping.ts';
export { parseParams, requestParams, queryValues, params, integerList, dateParam, sortParam, idOrPathParams } from './params.ts';
export {
  decodeCursor,
  encodeCursor,
  keysetHeaders,
  keysetOf,
  keysetShape,
  pageParams,
  pageShape,
  sendKeysetPage,
  sendPage,
  setPaginationHeaders,
} from './pagination.ts';
export type { KeysetCursor, PageQuery, PageRequest } from './pagination.ts';
export { baseUrlOf } from './base-url.ts';
export { requestLogging } from './request-logging.ts';
export { admission, REQUESTS_IN_PROGRESS } from './admission.ts';
export { listen, isDraining } from './listen.ts';
export type { ListeningServer } from './listen.ts';
export { callerOf } from './request-context.ts';
export { routesOf, createRouter, routeCatalogue, reply, RouteReply, HTTP_METHODS } from './routes.ts';
export type {
  RouteDefinition,
  RouteContext,
  RouteSpec,
  RouteAccess,
  CatalogueEntry,
  HttpMethod,
  ListRouteSpec,
  ListContext,
  ListResult,
  ListParams,
  SortDirection,
} from './routes.ts';
export { requestBodies, parseQueryString, nestParams, DEFAULT_BODY_LIMITS } from './request-body.ts';
export type { BodyLimits, UploadedFile } from './request-body.ts';
export { rejectMalformedUrl, rejectMalformedParams, malformedUrlError, MAX_PARAM_DEPTH } from './malformed-input.ts';
export { exactJsonContentType, jsonArrayText, jsonText, JsonArrayText, JsonText, sendJsonText } from './json-responses.ts';
export { HttpStatusError } from './http-status-error.ts';
export { openApiDocument } from './openapi.ts';
export { createMetricsRegistry, describeRequest, isLoopback, mayReadMetrics, metricsEndpoint, requestTimer } from './metrics.ts';
