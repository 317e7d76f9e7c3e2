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
  UnprocessableError,
  UnauthorizedError,
} from '@platform/errors';
import { errorToHttp } from './error-mapping.ts';

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
    [new NotModifiedError(), 304, undefined],
  ])('maps %p to %i', (error, status, body) => {
    expect(errorToHttp(error)).toEqual({ status, body });
  });

  it("treats unreadable request bodies as the client's fault", () => {
    expect(errorToHttp(Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed' }))?.status).toBe(400);
    expect(errorToHttp(Object.assign(new Error('x'), { type: 'entity.too.large' }))?.status).toBe(413);
  });

  it('leaves unknown errors unmapped, for the 500 handler', () => {
    expect(errorToHttp(new Error('boom'))).toBeUndefined();
  });
});
