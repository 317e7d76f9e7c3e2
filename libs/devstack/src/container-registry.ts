/**
 * The Distribution registry (`docker-registry` from Debian) as a peer of the packages service:
 * token authentication against the platform's `GET /jwt/auth`, notifications to the platform,
 * deletion enabled. The key the packages service signs tokens with and the certificate the
 * registry verifies them with are generated once and kept in the data directory.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const REGISTRY_BINARY = '/usr/bin/docker-registry';
export const REGISTRY_INSTALL_HINT = 'apt-get install -y docker-registry (Debian), or sh scripts/bootstrap.sh as root';
/** GitLab's audience and issuer for registry tokens. */
export const REGISTRY_SERVICE = 'container_registry';
export const REGISTRY_ISSUER = 'gitlab-issuer';

export interface RegistryKeys {
  /** PKCS#8 PEM private key the packages service signs tokens with. */
  keyFile: string;
  /** PEM certificate of that key, the registry's `rootcertbundle`. */
  certFile: string;
}

/**
 * The token key pair in `dir`, generated the first time (with the openssl CLI, which writes the
 * self-signed certificate Node cannot): tokens stay valid across restarts.
 */
export async function ensureRegistryKeys(dir: string): Promise<RegistryKeys> {
  const keyFile = path.join(dir, 'registry-token.key');
  const certFile = path.join(dir, 'registry-token.crt');
  if (existsSync(keyFile) && existsSync(certFile)) return { keyFile, certFile };
  await mkdir(dir, { recursive: true });
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '3650'];
  await run('openssl', [...args, '-subj', '/CN=collab-platform registry token signer']);
  await chmod(keyFile, 0o600);
  return { keyFile, certFile };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, (error, _stdout, stderr) => {
      if (error)
        reject(new Error(`${command} ${args.join(' ')} failed (apt-get install -y openssl if it is missing): ${stderr || error.message}`));
      else resolve();
    });
  });
}

export interface RegistryConfigOptions {
  port: number;
  /** Where clients get tokens: the gateway's `/jwt/auth`. */
  realm: string;
  certFile: string;
  storageDir: string;
  /** The platform's notification endpoint and the secret it expects as `Authorization`. */
  notificationUrl: string;
  notificationSecret: string;
  httpSecret: string;
}

/** The registry's configuration; JSON is YAML, which is what the registry reads. */
export function registryConfig(options: RegistryConfigOptions): string {
  return JSON.stringify(
    {
      version: 0.1,
      log: { level: 'warn', formatter: 'text' },
      storage: { filesystem: { rootdirectory: options.storageDir }, delete: { enabled: true }, cache: { blobdescriptor: 'inmemory' } },
      http: { addr: `127.0.0.1:${options.port}`, secret: options.httpSecret },
      auth: {
        token: {
          realm: options.realm,
          service: REGISTRY_SERVICE,
          issuer: REGISTRY_ISSUER,
          rootcertbundle: options.certFile,
        },
      },
      notifications: {
        endpoints: [
          {
            name: 'platform',
            url: options.notificationUrl,
            headers: { Authorization: [options.notificationSecret] },
            timeout: '5s',
            threshold: 5,
            backoff: '1s',
          },
        ],
      },
    },
    null,
    2,
  );
}

/** Writes the configuration below `dir` and answers its path. */
export async function writeRegistryConfig(dir: string, options: RegistryConfigOptions): Promise<string> {
  await mkdir(options.storageDir, { recursive: true });
  const file = path.join(dir, 'registry-config.yml');
  await writeFile(file, registryConfig(options));
  return file;
}

/** The registry's command line, or an error naming the install command when the binary is missing. */
export function registryCommand(configFile: string): { command: string; args: string[] } {
  if (!existsSync(REGISTRY_BINARY)) throw new Error(`${REGISTRY_BINARY} is missing: ${REGISTRY_INSTALL_HINT}`);
  return { command: REGISTRY_BINARY, args: ['serve', configFile] };
}

/** A kept secret in `file`, generated the first time. */
export async function keptSecret(file: string, generate: () => string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(path.dirname(file), { recursive: true });
  const value = generate();
  await writeFile(file, value, { mode: 0o600 });
  return value;
}
