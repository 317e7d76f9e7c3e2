import { describe, expect, it } from '@jest/globals';
import { malformedUrlError } from './malformed-input.ts';

describe('malformedUrlError', () => {
  it('passes URLs that encode nothing, or encode well', () => {
    expect(malformedUrlError('/api/v4/users/1')).toBeUndefined();
    expect(malformedUrlError('/api/v4/users?search=a+b&per_page=20')).toBeUndefined();
    expect(malformedUrlError('/api/v4/projects/group%2Fproject?search=%C3%A9')).toBeUndefined();
  });

  it('refuses undecodable percent-encoding and NUL, in the path and in the query', () => {
    expect(malformedUrlError('/api/v4/users/%ZZ')?.message).toBe('Invalid percent-encoding in the path');
    expect(malformedUrlError('/api/v4/users/a%00')?.message).toBe('Invalid null byte in the path');
    expect(malformedUrlError('/api/v4/users?search=%E0%A4')?.message).toBe('Invalid percent-encoding in the query string');
    expect(malformedUrlError('/api/v4/users?search=a%00')?.message).toBe('Invalid null byte in the query string');
    expect(malformedUrlError('/api/v4/users/a\0')?.message).toBe('Invalid null byte in the path');
  });
});
