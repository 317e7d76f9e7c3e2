/**
 * Installs the pre-receive hook where git finds it (`core.hooksPath`, set per push through the
 * environment, so that repositories on disk carry no copies) and describes each push to it.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUSH_POLICY_VARIABLE, type PushPolicy } from './branch-protection.ts';

const HOOK_PROGRAM = fileURLToPath(new URL('./pre-receive.ts', import.meta.url));

function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export class PreReceiveHook {
  readonly directory: string;

  constructor(options: { dataDirectory: string }) {
    this.directory = path.join(options.dataDirectory, 'hooks');
  }

  /** Writes the hook: a shell script running the hook program with this service's node. */
  async install(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const file = path.join(this.directory, 'pre-receive');
    const script = `#!/bin/sh\nexec ${shellQuoted(process.execPath)} --disable-warning=ExperimentalWarning ${shellQuoted(HOOK_PROGRAM)}\n`;
    await writeFile(file, script);
    await chmod(file, 0o755);
  }

  /** The environment of a push: git's hooks directory and the policy the hook applies. */
  environment(policy: PushPolicy): Record<string, string> {
    return {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: this.directory,
      [PUSH_POLICY_VARIABLE]: JSON.stringify(policy),
    };
  }
}
