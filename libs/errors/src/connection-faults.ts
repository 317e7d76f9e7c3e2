/**
 * Errors that say the connection to a dependency broke, not that the work was wrong: the
 * PostgreSQL server terminated the session (SQLSTATE class 08, 57P01-57P03), or the socket was
 * reset or refused. Such work may succeed on a new connection; it is never the client's fault.
 */
const CONNECTION_SQLSTATES = /^(08...|57P0[1-3])$/;
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = /Connection terminated|terminating connection|Client has encountered a connection error|Connection is closed/i;

export function isConnectionFault(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth += 1) {
    const { code, sqlState, message } = cause as { code?: unknown; sqlState?: unknown; message?: unknown };
    for (const value of [code, sqlState]) {
      if (typeof value === 'string' && (CONNECTION_SQLSTATES.test(value) || SOCKET_CODES.has(value))) return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
