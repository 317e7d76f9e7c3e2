/**
 * Errors of the domain, free of any transport. The HTTP layer (`@platform/http`) and the gRPC
 * layer (`@platform/grpc`) each map them with one table.
 */
export class DomainError extends Error {
  override name = 'DomainError';
}

/**
 * How a refusal is worded: one sentence, or the list of a record's full error messages, as GitLab
 * words what its model validations refuse (`["You can't use same project/branch for source and target"]`).
 */
export type Wording = string | readonly string[];

/** The sentence of a wording, and its list when it is one. */
function worded(wording: Wording): { message: string; messages: readonly string[] | undefined } {
  return typeof wording === 'string' ? { message: wording, messages: undefined } : { message: wording.join(', '), messages: wording };
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

/** A well-formed request GitLab will not process for this kind of record: 422 `{"message": <its wording>}`. */
export class UnprocessableError extends DomainError {
  override name = 'UnprocessableError';
  readonly messages: readonly string[] | undefined;
  constructor(wording: Wording) {
    const { message, messages } = worded(wording);
    super(message);
    this.messages = messages;
  }
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

/** A refusal of who asks: 403 `{"message": "403 Forbidden - <its sentence>"}`, or `{"message": [...]}` when worded as a list. */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  readonly messages: readonly string[] | undefined;
  constructor(wording: Wording = 'Forbidden') {
    const { message, messages } = worded(wording);
    super(message);
    this.messages = messages;
  }
}

/** The request collides with the resource's current state (a record that exists, a stale sha): 409 `{"message": <its wording>}`. */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  readonly messages: readonly string[] | undefined;
  constructor(wording: Wording) {
    const { message, messages } = worded(wording);
    super(message);
    this.messages = messages;
  }
}

/** The operation is not allowed in the resource's current state (merging a closed merge request): GitLab's 405. */
export class MethodNotAllowedError extends DomainError {
  override name = 'MethodNotAllowedError';
  constructor(message = 'Method Not Allowed') {
    super(message);
  }
}

/** The resource cannot be brought to the state asked for (a merge that conflicts): GitLab's 406 with its sentence. */
export class NotAcceptableError extends DomainError {
  override name = 'NotAcceptableError';
}

/** The caller reached a rate limit: GitLab's 429. */
export class TooManyRequestsError extends DomainError {
  override name = 'TooManyRequestsError';
  constructor(message = 'This endpoint has been requested too many times. Try again later.') {
    super(message);
  }
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
