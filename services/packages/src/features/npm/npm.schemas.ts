import { z } from 'zod';
import { params } from '@platform/http';

/** npm's rule for package names, scope included (`@acme/kit`). */
const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Semantic versions as npm writes them (`1.2.3`, `1.2.3-beta.1+build.5`). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const npmPackageName = () => z.string().max(214).regex(NPM_NAME, { message: 'is invalid' });

const distTag = () =>
  z
    .string()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'is invalid' })
    // A tag that reads as a version would shadow it in `npm install pkg@<tag>`.
    .refine((tag) => !SEMVER.test(tag), { message: 'is invalid' });

/** One version's package.json, as `npm publish` sends it; fields beyond these are kept as they are. */
const versionManifest = z.looseObject({
  name: z.string(),
  version: z.string().regex(SEMVER, { message: 'is invalid' }),
  dist: z.looseObject({ shasum: z.string().optional(), integrity: z.string().optional() }).optional(),
});

/**
 * What `npm publish` PUTs: the package document with one version and its tarball, base64. Read
 * once the caller may publish (GitLab authorizes before it looks at the body).
 */
export const npmPublishInput = z.object({
  package_name: npmPackageName(),
  name: z.string(),
  versions: z.record(z.string(), versionManifest),
  _attachments: z.record(z.string(), z.looseObject({ data: z.string().min(1), length: z.number().int().nonnegative().optional() })),
  'dist-tags': z.record(z.string(), z.string()).default({}),
});
export type NpmPublishInput = z.infer<typeof npmPublishInput>;

/** What `npm deprecate` PUTs: the package document, each version's `deprecated` read. */
export const npmDeprecateInput = z.object({
  package_name: npmPackageName(),
  versions: z.record(z.string(), z.looseObject({ deprecated: z.string().optional() })),
});
export type NpmDeprecateInput = z.infer<typeof npmDeprecateInput>;

/** What the first step of `npm unpublish <name>@<version>` PUTs: the document without that version. */
export const npmKeptVersionsInput = z.object({
  versions: z.record(z.string(), z.unknown()).default({}),
  'dist-tags': z.record(z.string(), z.string()).default({}),
});

export const projectNpmPackageParams = z.object({ id: params.idOrPath(), package_name: npmPackageName() });
export const instanceNpmPackageParams = z.object({ package_name: npmPackageName() });

const fileName = () => z.string().min(1).max(255);
export const projectNpmFileParams = projectNpmPackageParams.extend({ file_name: fileName() });
export const instanceNpmFileParams = instanceNpmPackageParams.extend({ file_name: fileName() });

export const projectDistTagParams = projectNpmPackageParams.extend({ tag: distTag() });
export const instanceDistTagParams = instanceNpmPackageParams.extend({ tag: distTag() });

/** npm's unpublish requests name the document revision they read; this registry keeps none, so any is taken. */
export const projectNpmRevisionParams = projectNpmPackageParams.extend({ rev: z.string().max(255) });
export const projectNpmFileRevisionParams = projectNpmRevisionParams.extend({ file_name: fileName() });
