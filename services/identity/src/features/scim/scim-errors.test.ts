import { describe, expect, it } from '@jest/globals';
import { ConflictError, FieldValidationError, ForbiddenError, InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { HttpStatusError } from '@platform/http';
import { errorToScim, SCIM_ERROR_SCHEMA, ScimFilterError, ScimNotFoundError } from './scim-errors.ts';

describe('errorToScim', () => {
  it.each([
    [new ScimFilterError('bad filter'), 400, 'invalidFilter', 'bad filter'],
    [new InputError('userName is missing'), 400, 'invalidValue', 'userName is missing'],
    [new FieldValidationError({ email: ['is invalid'] }), 400, 'invalidValue', 'email is invalid'],
    [new UnauthorizedError('forged caller'), 401, undefined, 'Unauthorized'],
    [new ForbiddenError('not yours'), 403, undefined, 'not yours'],
    [new ScimNotFoundError('Group acme not found'), 404, undefined, 'Group acme not found'],
    [new NotFoundError('User'), 404, undefined, 'User Not Found'],
    [new ConflictError('Username has already been taken'), 409, 'uniqueness', 'Username has already been taken'],
  ])('answers %p in the SCIM error schema', (error, status, scimType, detail) => {
    const mapped = errorToScim(error);
    expect(mapped?.status).toBe(status);
    expect(mapped?.body).toEqual({
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(status),
      ...(scimType ? { scimType } : {}),
      detail,
    });
  });

  it('keeps the status of a request refused before any SCIM route ran, such as malformed parameters or an unsupported charset', () => {
    expect(errorToScim(new HttpStatusError(400, 'The parameters are nested too deeply'))).toEqual({
      status: 400,
      body: { schemas: [SCIM_ERROR_SCHEMA], status: '400', detail: '400 Bad request - The parameters are nested too deeply' },
    });
    const charset = Object.assign(new Error('unsupported charset "X-BOGUS"'), { status: 415, type: 'charset.unsupported' });
    expect(errorToScim(charset)).toEqual({
      status: 415,
      body: { schemas: [SCIM_ERROR_SCHEMA], status: '415', detail: '415 Unsupported Media Type' },
    });
  });

  it('leaves unknown errors to the caller, which logs them and answers 500', () => {
    expect(errorToScim(new Error('boom'))).toBeUndefined();
  });
});
