import { describe, expect, it } from '@jest/globals';
import { headEnd, parseCgiHead } from './git-http-backend.ts';

describe('CGI responses of git http-backend', () => {
  it('finds the end of the header block, CRLF or LF, and where the body starts', () => {
    expect(headEnd(Buffer.from('Status: 200 OK\r\nContent-Type: x\r\n\r\nPACK'))).toEqual({ head: 31, body: 35 });
    expect(headEnd(Buffer.from('Content-Type: x\n\nbody'))).toEqual({ head: 15, body: 17 });
    expect(headEnd(Buffer.from('Content-Type: x\r\n'))).toBeUndefined();
  });

  it('reads the status and keeps the other headers', () => {
    expect(parseCgiHead('Status: 404 Not Found\r\nContent-Type: text/plain\r\nExpires: Fri, 01 Jan 1980 00:00:00 GMT')).toEqual({
      status: 404,
      headers: [
        ['Content-Type', 'text/plain'],
        ['Expires', 'Fri, 01 Jan 1980 00:00:00 GMT'],
      ],
    });
    expect(parseCgiHead('Content-Type: application/x-git-upload-pack-advertisement').status).toBe(200);
  });

  it('refuses what is no CGI header block', () => {
    expect(() => parseCgiHead('garbage')).toThrow('malformed CGI header line');
    expect(() => parseCgiHead('Status: soon')).toThrow('malformed CGI status');
  });
});
