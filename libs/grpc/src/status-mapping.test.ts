import { describe, expect, it } from '@jest/globals';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ForbiddenError, InsufficientScopeError, InvalidTokenError, RefusedError, UnauthorizedError } from '@platform/errors';
import * as errors from '@platform/errors';
import { errorToGrpcStatus, grpcErrorToDomain } from './status-mapping.ts';

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

function overTheWire(error: Error): Error {
  const { code, details } = errorToGrpcStatus(error);
  return grpcErrorToDomain(Object.assign(new Error(details), { code, details, metadata: new Metadata() }) as ServiceError);
}

describe('gRPC status mapping', () => {
  it('has a row for every domain error', () => {
    const names = everyDomainError().map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['InputError', 'MethodNotAllowedError', 'TooManyRequestsError']));
    for (const [name, error] of everyDomainError()) {
      expect([name, status[errorToGrpcStatus(error).code]]).not.toEqual([name, 'INTERNAL']);
    }
  });

  it('answers a rate limit as an exhausted resource and a refused state as a failed precondition', () => {
    expect(errorToGrpcStatus(new errors.TooManyRequestsError()).code).toBe(status.RESOURCE_EXHAUSTED);
    expect(errorToGrpcStatus(new errors.NotAcceptableError('Branch cannot be merged'))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'Branch cannot be merged',
    });
  });

  it('keeps an insufficient scope and the scopes it names across the wire', () => {
    const received = overTheWire(new InsufficientScopeError(['sudo']));
    expect(received).toBeInstanceOf(InsufficientScopeError);
    expect((received as InsufficientScopeError).scopes).toEqual(['sudo']);
  });

  it('keeps other refusals plain forbidden errors with their message', () => {
    const received = overTheWire(new ForbiddenError('Must be admin to use sudo'));
    expect(received).not.toBeInstanceOf(InsufficientScopeError);
    expect(received).toEqual(new ForbiddenError('Must be admin to use sudo'));
  });

  it('keeps an unusable token and its description across the wire, apart from plain refusals', () => {
    const expired = overTheWire(new InvalidTokenError('Token has expired.'));
    expect(expired).toBeInstanceOf(InvalidTokenError);
    expect(expired.message).toBe('Token has expired.');
    expect(overTheWire(new UnauthorizedError())).not.toBeInstanceOf(InvalidTokenError);
  });

  it('keeps a refusal of the resource state and its sentence across the wire', () => {
    expect(overTheWire(new RefusedError('Project is already in this namespace.'))).toEqual(
      new RefusedError('Project is already in this namespace.'),
    );
  });
});
