import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const protoDir = import.meta.dirname;

/** Runs the check on a copy of proto/, so a test can change the copy's generated code. */
function runCheck(copy: string): { status: number | null; stderr: string } {
  const binaries = [path.join(protoDir, 'node_modules', '.bin'), path.join(protoDir, '..', 'node_modules', '.bin')];
  const result = spawnSync('sh', [path.join(copy, 'check-generated.sh')], {
    encoding: 'utf8',
    env: { ...process.env, PATH: [...binaries, process.env.PATH].join(path.delimiter) },
  });
  return { status: result.status, stderr: result.stderr };
}

describe('check-generated.sh', () => {
  let copy: string;

  beforeEach(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'proto-'));
    cpSync(protoDir, copy, { recursive: true, filter: (source) => path.basename(source) !== 'node_modules' });
    symlinkSync(path.join(protoDir, 'node_modules'), path.join(copy, 'node_modules'));
  });
  afterEach(() => rmSync(copy, { recursive: true, force: true }));

  it('passes when gen/ is what the .proto files generate', () => {
    expect(runCheck(copy)).toEqual({ status: 0, stderr: '' });
  });

  it('fails naming npm run proto:gen when generated code was edited by hand', () => {
    appendFileSync(path.join(copy, 'gen', 'identity', 'v1', 'identity.ts'), '// edited\n');
    const result = runCheck(copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('run `npm run proto:gen`');
  });

  it('fails when a generated file is missing', () => {
    rmSync(path.join(copy, 'gen', 'admin', 'v1', 'events.ts'));
    expect(runCheck(copy).status).toBe(1);
  });
});
