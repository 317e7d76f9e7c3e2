import { describe, expect, it } from '@jest/globals';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { ForbiddenError, InsufficientScopeError, InvalidTokenError, RefusedError, UnauthorizedError } from '@platform/errors';
import { errorToGrpcStatus, grpcErrorToDomain } from './status-mapping.ts';

function overTheWire(error: Error): Error {
  const { code, details } = errorToGrpcStatus(error);
  return grpcErrorToDomain(Object.assign(new Error(details), { code, details, metadata: new Metadata() }) as ServiceError);
}

describe('gRPC status mapping', () => {
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
