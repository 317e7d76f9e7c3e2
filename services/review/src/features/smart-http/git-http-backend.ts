/**
 * Serves git's smart HTTP protocol through the real `git http-backend`, run as a CGI program:
 * the request body is streamed to it (gzip bodies included; it inflates them itself) and its
 * output streamed back, headers translated.
 */
import { spawn } from 'node:child_process';
import type { Request, Response } from 'express';
import { gitEnvironment, GIT_MISSING } from '../repositories/git-command.ts';

export interface CgiHead {
  status: number;
  headers: Array<[string, string]>;
}

/** The CGI response header block (without the blank line): `Status: 200 OK` and the headers. */
export function parseCgiHead(block: string): CgiHead {
  let status = 200;
  const headers: Array<[string, string]> = [];
  for (const line of block.split(/\r?\n/).filter(Boolean)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`malformed CGI header line: ${line}`);
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
    else headers.push([name, value]);
  }
  if (!Number.isInteger(status) || status < 100 || status > 599) throw new Error(`malformed CGI status: ${block}`);
  return { status, headers };
}

/** Where the header block ends in `buffer`, and where the body starts; undefined until it does. */
export function headEnd(buffer: Buffer): { head: number; body: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { head: crlf, body: crlf + 4 };
  if (lf >= 0) return { head: lf, body: lf + 2 };
  return undefined;
}

/**
 * Runs `git http-backend` for one request on the bare repository at `repositoryPath`;
 * `pathInfo` is what follows the repository in the URL (`/info/refs`, `/git-upload-pack`).
 * Resolves once the program exited and its whole output was written, leaving the response
 * open for the caller to end.
 */
export function runGitHttpBackend(options: {
  req: Request;
  res: Response;
  repositoryPath: string;
  pathInfo: string;
  /** Who pushes: git refuses receive-pack without one. */
  remoteUser?: string;
  /** More variables for git and its hooks (the pre-receive hook's push policy). */
  environment?: Record<string, string>;
}): Promise<void> {
  const { req, res } = options;
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const cgi: Record<string, string> = {
    GIT_PROJECT_ROOT: options.repositoryPath,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: options.pathInfo,
    REQUEST_METHOD: req.method,
    QUERY_STRING: query,
    SERVER_PROTOCOL: 'HTTP/1.1',
    REMOTE_ADDR: req.ip ?? '',
    ...(options.remoteUser ? { REMOTE_USER: options.remoteUser } : {}),
    ...options.environment,
  };
  const copied: Array<[string, string]> = [
    ['content-type', 'CONTENT_TYPE'],
    ['content-length', 'CONTENT_LENGTH'],
    ['content-encoding', 'HTTP_CONTENT_ENCODING'],
    ['git-protocol', 'HTTP_GIT_PROTOCOL'],
  ];
  for (const [header, variable] of copied) {
    const value = req.headers[header];
    if (typeof value === 'string') cgi[variable] = value;
  }

  return new Promise((resolve, reject) => {
    const child = spawn('git', ['http-backend'], { env: gitEnvironment(cgi), stdio: ['pipe', 'pipe', 'pipe'] });
    let pending: Buffer = Buffer.alloc(0);
    let headersSent = false;
    const stderr: Buffer[] = [];
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      child.kill();
      reject(error);
    };

    child.on('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? new Error(GIT_MISSING) : error));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // The client hanging up mid-request must not leave git waiting for the rest of the body.
    child.stdin.on('error', () => undefined);
    req.pipe(child.stdin);

    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        if (!res.write(chunk)) {
          child.stdout.pause();
          res.once('drain', () => child.stdout.resume());
        }
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const end = headEnd(pending);
      if (!end) return;
      try {
        const head = parseCgiHead(pending.subarray(0, end.head).toString('latin1'));
        res.status(head.status);
        for (const [name, value] of head.headers) res.setHeader(name, value);
        // Packs must reach the client byte for byte; no proxy may buffer or transform them.
        res.setHeader('Cache-Control', res.getHeader('Cache-Control') ?? 'no-cache');
        res.flushHeaders();
        headersSent = true;
        const body = pending.subarray(end.body);
        if (body.length > 0) res.write(body);
      } catch (error) {
        fail(error as Error);
      }
    });

    child.on('close', (code) => {
      if (failed) return;
      if (!headersSent) {
        failed = true;
        reject(new Error(`git http-backend exited (${code}) without a response: ${Buffer.concat(stderr).toString('utf8').trim()}`));
        return;
      }
      resolve();
    });
  });
}
