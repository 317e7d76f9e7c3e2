/**
 * Errors of the domain, free of any transport. The HTTP layer (`@platform/http`) and the gRPC
 * layer (`@platform/grpc`) each map them with one table.
 */
export class DomainError extends Error {
  override name = 'DomainError';
}

/**
 * How a refusal is worded: one sentence, or as GitLab words what its model validations refuse, the
 * list of a record's full messages (`["You can't use same project/branch for source and target"]`)
 * or its messages field by field (`{"name": ["has already been taken"]}`).
 */
export type Wording = string | readonly string[] | Readonly<Record<string, readonly string[]>>;

/** A wording as one sentence. */
function sentenceOf(wording: Wording): string {
  if (typeof wording === 'string') return wording;
  if (Array.isArray(wording)) return wording.join(', ');
  return Object.entries(wording as Record<string, readonly string[]>)
    .map(([field, problems]) => `${field} ${problems.join(', ')}`)
    .join('; ');
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
    super(sentenceOf(fields));
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
  readonly wording: Wording;
  constructor(wording: Wording) {
    super(sentenceOf(wording));
    this.wording = wording;
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

/**
 * A refusal of who asks: 403 `{"message": "403 Forbidden - <its sentence>"}`, or `{"message": <its wording>}`
 * when not a sentence or when `statusLine` is false (what GitLab's services refuse, answered without the status line).
 */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  readonly wording: Wording;
  readonly statusLine: boolean;
  constructor(wording: Wording = 'Forbidden', options: { statusLine?: boolean } = {}) {
    super(sentenceOf(wording));
    this.wording = wording;
    this.statusLine = options.statusLine ?? true;
  }
}

/** The request collides with the resource's current state (a record that exists, a stale sha): 409 `{"message": <its wording>}`. */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  readonly wording: Wording;
  constructor(wording: Wording) {
    super(sentenceOf(wording));
    this.wording = wording;
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
