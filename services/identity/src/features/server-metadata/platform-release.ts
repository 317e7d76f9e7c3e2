import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** GitLab's version format (`17.0.0`, `16.11.2-ee`, `17.1.0-pre`), which clients parse to gate features. */
const GITLAB_VERSION = /^\d+\.\d+\.\d+(-[a-z0-9.]+)?$/;

const rootPackage = z.object({ version: z.string().regex(GITLAB_VERSION) });

/** The platform's release as the root package.json states it, read once at start-up. */
export function platformVersion(packageJsonUrl = new URL('../../../../../package.json', import.meta.url)): string {
  return rootPackage.parse(JSON.parse(readFileSync(packageJsonUrl, 'utf8'))).version;
}

export interface PlatformRelease {
  version: string;
  /** The source revision it was built from; GitLab says `Unknown` when it cannot tell. */
  revision: string;
}
