/**
 * A request refused before it reaches the domain (unreadable URL or body), carrying its HTTP
 * status as express's own body parsers do; `errorToHttp` renders it with a GitLab body.
 */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  readonly status: number;
  /** The whole response body when GitLab words this refusal in its own way. */
  readonly body: unknown;
  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** GitLab's answer to a JSON body that does not parse. */
export const INVALID_JSON_BODY = { error: 'The request body is not valid JSON' } as const;
