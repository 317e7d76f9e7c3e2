/**
 * Errors of the domain, free of any transport. The HTTP layer (`@platform/http`) and the gRPC
 * layer (`@platform/grpc`) each map them with one table.
 */
export class DomainError extends Error {
  override name = 'DomainError';
}

/** A request parameter is missing or malformed: GitLab answers `{"error": "<message>"}`. */
export class InputError extends DomainError {
  override name = 'InputError';
}

/** A record failed validation field by field: GitLab answers `{"message": {"field": ["..."]}}`. */
export class FieldValidationError extends DomainError {
  override name = 'FieldValidationError';
  readonly fields: Record<string, string[]>;
  constructor(fields: Record<string, string[]>) {
    super(
      Object.entries(fields)
        .map(([field, problems]) => `${field} ${problems.join(', ')}`)
        .join('; '),
    );
    this.fields = fields;
  }
}

/**
 * A well-formed request the resource's current state refuses (a transfer into one of its own
 * subgroups, say): GitLab answers 400 `{"message": "<its sentence>"}`.
 */
export class RefusedError extends DomainError {
  override name = 'RefusedError';
}

/** A record failed validation where GitLab lists full messages: 400 `{"message": ["Name has already been taken"]}`. */
export class InvalidRecordError extends DomainError {
  override name = 'InvalidRecordError';
  readonly messages: string[];
  constructor(messages: string[]) {
    super(messages.join(', '));
    this.messages = messages;
  }
}

/** A well-formed request GitLab will not process for this kind of record: 422 `{"message": "<its sentence>"}`. */
export class UnprocessableError extends DomainError {
  override name = 'UnprocessableError';
}

/** `resource` is the GitLab word, as in `404 User Not Found`. */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  readonly resource: string;
  constructor(resource = '') {
    super(resource ? `${resource} Not Found` : 'Not Found');
    this.resource = resource;
  }
}

export class UnauthorizedError extends DomainError {
  override name = 'UnauthorizedError';
  constructor(message = 'Unauthorized') {
    super(message);
  }
}

/** A token that exists but can no longer be used (expired): OAuth's `invalid_token`, as GitLab answers. */
export class InvalidTokenError extends UnauthorizedError {
  override name = 'InvalidTokenError';
  constructor(description: string) {
    super(description);
  }
}

export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  constructor(message = 'Forbidden') {
    super(message);
  }
}

export class ConflictError extends DomainError {
  override name = 'ConflictError';
}

/** The request asked for a state the resource is already in (GitLab's 304). */
export class NotModifiedError extends DomainError {
  override name = 'NotModifiedError';
  constructor() {
    super('Not Modified');
  }
}

/** A dependency (another service, the database) cannot answer now. */
export class UnavailableError extends DomainError {
  override name = 'UnavailableError';
}

/**
 * The token is valid but its scopes do not cover the request (OAuth 2's `insufficient_scope`).
 * `scopes` are those that would have been accepted, as GitLab lists them.
 */
export class InsufficientScopeError extends ForbiddenError {
  override name = 'InsufficientScopeError';
  readonly scopes: string[];
  constructor(scopes: string[]) {
    super('The request requires higher privileges than provided by the access token.');
    this.scopes = scopes;
  }
}
