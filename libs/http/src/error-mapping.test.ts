import { describe, expect, it } from '@jest/globals';
import {
  ConflictError,
  FieldValidationError,
  ForbiddenError,
  InputError,
  InvalidTokenError,
  InsufficientScopeError,
  NotFoundError,
  NotModifiedError,
  RefusedError,
  InvalidRecordError,
  MethodNotAllowedError,
  NotAcceptableError,
  TooManyRequestsError,
  UnprocessableError,
  UnauthorizedError,
} from '@platform/errors';
import * as errors from '@platform/errors';
import { errorToHttp } from './error-mapping.ts';

/**
 * Every domain error `@platform/errors` exports, built once: those whose constructor takes more
 * than a sentence get arguments of their shape, so a new error class needs no change here.
 */
function everyDomainError(): Array<[string, Error]> {
  const special: Record<string, () => Error> = {
    FieldValidationError: () => new errors.FieldValidationError({ name: ['is invalid'] }),
    InvalidRecordError: () => new errors.InvalidRecordError(['Name is invalid']),
    InsufficientScopeError: () => new errors.InsufficientScopeError(['api']),
  };
  return Object.entries(errors)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof errors.DomainError)
    .map(([name, Class]) => [name, special[name]?.() ?? new (Class as new (message: string) => Error)('A sentence')]);
}

describe('errorToHttp', () => {
  it.each([
    [new InputError('email is missing'), 400, { error: 'email is missing' }],
    [new FieldValidationError({ key: ['is invalid'] }), 400, { message: { key: ['is invalid'] } }],
    [
      new RefusedError('Transfer failed: Group is already a root group.'),
      400,
      { message: 'Transfer failed: Group is already a root group.' },
    ],
    [new InvalidRecordError(['Name has already been taken']), 400, { message: ['Name has already been taken'] }],
    [
      new UnprocessableError('PUT operations are not supported for legacy feature flags'),
      422,
      { message: 'PUT operations are not supported for legacy feature flags' },
    ],
    [new NotFoundError('User'), 404, { message: '404 User Not Found' }],
    [new NotFoundError(), 404, { message: '404 Not Found' }],
    [new UnauthorizedError('forged caller'), 401, { message: '401 Unauthorized' }],
    [new InvalidTokenError('Token has expired.'), 401, { error: 'invalid_token', error_description: 'Token has expired.' }],
    [new ForbiddenError(), 403, { message: '403 Forbidden' }],
    [new ForbiddenError('Must be admin to use sudo'), 403, { message: '403 Forbidden - Must be admin to use sudo' }],
    [
      new InsufficientScopeError(['api', 'read_api']),
      403,
      {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api read_api',
      },
    ],
    [new ConflictError('Email has already been taken'), 409, { message: 'Email has already been taken' }],
    [
      new ConflictError(['Another open merge request already exists for this source branch: !1']),
      409,
      { message: ['Another open merge request already exists for this source branch: !1'] },
    ],
    [
      new UnprocessableError(["You can't use same project/branch for source and target"]),
      422,
      { message: ["You can't use same project/branch for source and target"] },
    ],
    [new ForbiddenError(['Prohibited']), 403, { message: ['Prohibited'] }],
    [new ForbiddenError('You cannot ban blocked users.', { statusLine: false }), 403, { message: 'You cannot ban blocked users.' }],
    [
      new ConflictError({ name: ['has already been taken'], path: ['has already been taken'] }),
      409,
      { message: { name: ['has already been taken'], path: ['has already been taken'] } },
    ],
    [new MethodNotAllowedError(), 405, { message: '405 Method Not Allowed' }],
    [new NotAcceptableError('Branch cannot be merged'), 406, { message: 'Branch cannot be merged' }],
    [new TooManyRequestsError(), 429, { message: { error: 'This endpoint has been requested too many times. Try again later.' } }],
    [new NotModifiedError(), 304, undefined],
  ])('maps %p to %i', (error, status, body) => {
    expect(errorToHttp(error)).toEqual({ status, body });
  });

  it('has a row for every domain error', () => {
    const names = everyDomainError().map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['InputError', 'MethodNotAllowedError', 'TooManyRequestsError']));
    for (const [name, error] of everyDomainError()) expect([name, errorToHttp(error)]).toEqual([name, expect.anything()]);
  });

  it("treats unreadable request bodies as the client's fault", () => {
    expect(errorToHttp(Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed' }))?.status).toBe(400);
    expect(errorToHttp(Object.assign(new Error('x'), { type: 'entity.too.large' }))?.status).toBe(413);
  });

  it('leaves unknown errors unmapped, for the 500 handler', () => {
    expect(errorToHttp(new Error('boom'))).toBeUndefined();
  });
});
