/**
 * Offline checks of the deployment files (no Docker engine, no cluster needed):
 * deploy/Dockerfile, docker-compose.yml and deploy/k8s/*.yaml against each other and against
 * what the services read (`src/config.ts`) and how they start (`package.json` `start`).
 *
 * The deployable services are found, not listed: `gateway` and every `services/<name>` with a
 * `src/main.ts` and `src/config.ts`. Each must have a Dockerfile target, a compose service and
 * a Kubernetes Deployment of the same name, so a new service fails here until it is deployed.
 *
 * Every check returns a list of problems; the last block feeds deliberately broken copies of the
 * real files to the same checks, to show that each kind of mistake is caught.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { configKeys } from '@platform/config';
import { compileCacheFillArgs, parseStartScript } from '@platform/devstack';

// YAML documents are free-form; the checks below look at them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML has no static shape
type Yaml = any;
type Env = Record<string, string | undefined>;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

/** Images the deployment may pull; our own images are `collab-platform/<Dockerfile target>`. */
const ALLOWED_IMAGES = [/^node:24(?:[.-][\w.-]*)?$/, /^postgres:[\w.-]+$/, /^apache\/kafka:[\w.-]+$/, /^registry:2(?:\.[\w.-]+)?$/];
const OWN_IMAGE = /^collab-platform\/([a-z0-9-]+)(?::[\w.-]+)?$/;
/** Variables every process may be given besides its config.ts keys (OpenTelemetry's own). */
const EXTRA_ENV = /^OTEL_[A-Z0-9_]+$/;
const isPortKey = (key: string) => /(?:^|_)PORT$/.test(key);

// ---------------------------------------------------------------------------------------------
// The services and what they read
// ---------------------------------------------------------------------------------------------

interface ServiceInfo {
  name: string;
  /** Package directory, relative to the repository root. */
  dir: string;
  packageName: string;
  startScript: string;
  /** Every key of the schema config.ts exports (`configSchema`). */
  keys: string[];
  /** Keys without a default that are not optional: the schema refuses to start without them. */
  required: string[];
  /**
   * What a deployment must name: the required keys, keys whose default is a loopback address (in
   * a container, that is the container itself) and keys marked `setByDeployment` (the topology,
   * the operator's choices). A marked optional key may be passed through unset (compose's `KEY:`,
   * an optional Secret reference) for the operator to fill in.
   */
  mustSet: string[];
  /** The default of each *PORT key: where the service listens when not told. */
  portDefaults: Record<string, number>;
  readConfig: (env: Env) => Record<string, unknown>;
}

/** The keys named by a ConfigError ("Invalid configuration: A: ...; B: ..."). */
function failingKeys(error: unknown): string[] {
  const message = String((error as Error).message ?? error).replace(/^Invalid configuration: /, '');
  return [...message.matchAll(/(?:^|; )([A-Z][A-Z0-9_]*):/g)].map((match) => match[1]!);
}

function tryConfig(service: ServiceInfo, env: Env): { config?: Record<string, unknown>; failing: string[] } {
  try {
    return { config: service.readConfig(env), failing: [] };
  } catch (error) {
    if ((error as Error).name !== 'ConfigError') throw error;
    return { failing: failingKeys(error) };
  }
}

async function discoverServices(): Promise<ServiceInfo[]> {
  const dirs = ['gateway', ...readdirSync(path.join(repo, 'services')).map((name) => `services/${name}`)];
  const services: ServiceInfo[] = [];
  for (const dir of dirs.sort()) {
    if (!existsSync(path.join(repo, dir, 'src/main.ts')) || !existsSync(path.join(repo, dir, 'src/config.ts'))) continue;
    const pkg = JSON.parse(read(`${dir}/package.json`)) as { name: string; scripts?: { start?: string } };
    const module = (await import(path.join(repo, dir, 'src/config.ts'))) as {
      readConfig: ServiceInfo['readConfig'];
      configSchema: z.ZodObject;
    };
    const keys = configKeys(module.configSchema);
    services.push({
      name: path.basename(dir),
      dir,
      packageName: pkg.name,
      startScript: pkg.scripts?.start ?? '',
      keys: keys.map((entry) => entry.name),
      required: keys.filter((entry) => entry.need === 'required').map((entry) => entry.name),
      mustSet: keys.filter((entry) => entry.need !== 'optional').map((entry) => entry.name),
      portDefaults: Object.fromEntries(
        keys.filter((e) => isPortKey(e.name) && typeof e.default === 'number').map((e) => [e.name, e.default as number]),
      ),
      readConfig: module.readConfig,
    });
  }
  return services;
}

// ---------------------------------------------------------------------------------------------
// Workspace: which packages a service needs at run time
// ---------------------------------------------------------------------------------------------

interface WorkspacePackage {
  dir: string;
  dependencies: Record<string, string>;
}

function workspacePackages(): Map<string, WorkspacePackage> {
  const globs = (parseYaml(read('pnpm-workspace.yaml'), 'pnpm-workspace.yaml')[0]?.packages ?? []) as string[];
  const packages = new Map<string, WorkspacePackage>();
  for (const glob of globs) {
    const dirs = glob.endsWith('/*')
      ? readdirSync(path.join(repo, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${glob.slice(0, -2)}/${entry.name}`)
      : [glob];
    for (const dir of dirs) {
      const file = path.join(repo, dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; dependencies?: Record<string, string> };
      packages.set(pkg.name, { dir, dependencies: pkg.dependencies ?? {} });
    }
  }
  return packages;
}

/** Workspace packages reachable from `name` through `dependencies` (not devDependencies). */
function runtimeClosure(name: string, packages: Map<string, WorkspacePackage>): Set<string> {
  const seen = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const [dependency, spec] of Object.entries(packages.get(current)?.dependencies ?? {})) {
      if (spec.startsWith('workspace:')) queue.push(dependency);
    }
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------
// Dockerfile
// ---------------------------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string | undefined;
  from: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue; // comments, also inside continuations
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    const match = /^(\w+)\s+([\s\S]*)$/.exec(full);
    if (match) instructions.push({ op: match[1]!.toUpperCase(), args: match[2]!.trim() });
  }
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.op === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const as = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({ from: words[0]!, name: as >= 0 ? words[as + 1] : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** A stage's instructions, its ancestors' first (FROM <stage> inherits them). */
function chainInstructions(stages: Stage[], name: string): Instruction[] {
  const chain: Stage[] = [];
  for (let stage = stages.find((s) => s.name === name); stage; stage = stages.find((s) => s.name === stage!.from)) {
    if (chain.includes(stage)) break;
    chain.unshift(stage);
  }
  return chain.flatMap((stage) => stage.instructions);
}

/** A stage's instructions of one kind, its ancestors' first. */
function inherited(stages: Stage[], name: string, op: string): string[] {
  return chainInstructions(stages, name)
    .filter((i) => i.op === op)
    .map((i) => i.args);
}

function execForm(args: string | undefined): string[] | undefined {
  if (!args?.startsWith('[')) return undefined;
  try {
    return JSON.parse(args) as string[];
  } catch {
    return undefined;
  }
}

interface Model {
  services: ServiceInfo[];
  readme: string;
  dockerfile: Stage[];
  packageManager: string;
  workspace: Map<string, WorkspacePackage>;
  dockerignore: string[];
  compose: Yaml;
  k8s: { file: string; doc: Yaml }[];
  kustomization: Yaml;
  k8sFiles: string[];
}

function checkDockerfile(model: Model): string[] {
  const problems: string[] = [];
  const { dockerfile: stages } = model;
  const names = new Set(stages.map((stage) => stage.name).filter(Boolean));
  for (const stage of stages) {
    if (!names.has(stage.from) && !ALLOWED_IMAGES.some((allowed) => allowed.test(stage.from))) {
      problems.push(`Dockerfile: stage ${stage.name ?? '?'} is FROM ${stage.from}, not an allowed image`);
    }
  }
  const pnpmVersion = model.packageManager.replace(/^pnpm@/, '');
  const pnpmArg = stages.flatMap((s) => s.instructions).find((i) => i.op === 'ARG' && /^PNPM_VERSION=/.test(i.args));
  if (pnpmArg?.args !== `PNPM_VERSION=${pnpmVersion}`) {
    problems.push(`Dockerfile: ARG PNPM_VERSION must be ${pnpmVersion} (package.json packageManager)`);
  }
  const install = stages.flatMap((s) => s.instructions).find((i) => i.op === 'RUN' && /\bpnpm install\b/.test(i.args));
  if (!install) {
    problems.push('Dockerfile: no RUN pnpm install');
  } else {
    for (const flag of ['--frozen-lockfile', '--ignore-scripts']) {
      if (!install.args.includes(flag)) problems.push(`Dockerfile: pnpm install lacks ${flag}`);
    }
    // A filtered install must select every service with its workspace dependencies ("<dir>...").
    const filters = [...install.args.matchAll(/--filter(?:-prod)?[= ]['"]?([^\s'"]+)/g)].map((m) => m[1]!);
    const selectors = filters.filter((f) => !f.startsWith('!'));
    for (const service of selectors.length > 0 ? model.services : []) {
      const selected = selectors.some((selector) => {
        const dirGlob = selector
          .replace(/\.\.\.$/, '')
          .replace(/^\{(.*)\}$/, '$1')
          .replace(/^\.\//, '');
        const pattern = new RegExp(`^${dirGlob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);
        return selector.endsWith('...') && (pattern.test(service.dir) || selector.startsWith(`${service.packageName}...`));
      });
      if (!selected) problems.push(`Dockerfile: pnpm install --filter does not select ${service.dir} with its dependencies ("...")`);
    }
    // Packages left out of the image must not be needed by any service at run time.
    const excluded = filters.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
    for (const service of model.services) {
      const closure = runtimeClosure(service.packageName, model.workspace);
      for (const name of excluded.filter((e) => closure.has(e))) {
        problems.push(`Dockerfile: pnpm install filters out ${name}, which ${service.name} depends on`);
      }
    }
    for (const name of excluded.filter((e) => !model.workspace.has(e))) {
      problems.push(`Dockerfile: pnpm install filters out ${name}, not a workspace package`);
    }
  }

  for (const service of model.services) {
    const target = service.name;
    if (!names.has(target)) {
      problems.push(`Dockerfile: no target "${target}" (FROM ... AS ${target}) for ${service.dir}`);
      continue;
    }
    const workdir = inherited(stages, target, 'WORKDIR').at(-1);
    if (workdir !== `/app/${service.dir}`) problems.push(`Dockerfile ${target}: WORKDIR ${workdir}, expected /app/${service.dir}`);
    const user = inherited(stages, target, 'USER').at(-1);
    if (user !== 'node') problems.push(`Dockerfile ${target}: USER ${user ?? '(root)'}, expected node`);

    const defaults = service.portDefaults;
    const wanted = service.keys
      .filter(isPortKey)
      .map((key) => defaults[key])
      .sort();
    const exposed = inherited(stages, target, 'EXPOSE')
      .flatMap((args) => args.split(/\s+/))
      .map((port) => Number(port.replace(/\/tcp$/, '')))
      .sort();
    if (JSON.stringify(exposed) !== JSON.stringify(wanted)) {
      problems.push(`Dockerfile ${target}: EXPOSE ${exposed.join(' ')}, but ${service.dir} listens on ${wanted.join(' ')}`);
    }

    const healthcheck = inherited(stages, target, 'HEALTHCHECK').at(-1) ?? '';
    const httpKey = service.keys.includes('HTTP_PORT') ? 'HTTP_PORT' : 'PORT';
    const probe = execForm(/\bCMD\s+(\[[\s\S]*\])\s*$/.exec(healthcheck)?.[1])?.join(' ') ?? '';
    if (!probe.includes('/-/health') || !probe.includes(`process.env.${httpKey} || ${defaults[httpKey]}`)) {
      problems.push(`Dockerfile ${target}: HEALTHCHECK must fetch /-/health on process.env.${httpKey} || ${defaults[httpKey]}`);
    }

    // The start script is where a service's runtime settings live: the image runs the same.
    let start: ReturnType<typeof parseStartScript> | undefined;
    try {
      start = parseStartScript(service.startScript, `${service.dir}/package.json`);
    } catch (error) {
      problems.push((error as Error).message);
    }
    const cmd = execForm(inherited(stages, target, 'CMD').at(-1));
    const expected = start ? ['node', ...start.args] : undefined;
    if (!cmd || !expected || JSON.stringify(cmd) !== JSON.stringify(expected)) {
      problems.push(`Dockerfile ${target}: CMD ${JSON.stringify(cmd)}, expected ${JSON.stringify(expected)} (package.json start)`);
    }
    const env = inherited(stages, target, 'ENV').join(' ');
    const wantedEnv = { ...start?.env, OTEL_SERVICE_NAME: target };
    for (const [name, value] of Object.entries(wantedEnv)) {
      const assignment = `${name}=${value}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (!new RegExp(`(^|\\s)${assignment}(\\s|$)`).test(env)) problems.push(`Dockerfile ${target}: ENV ${name}=${value} missing`);
    }
    // The compile cache a start script names is filled when the image is built, by the user that
    // runs the service: the cache's directory is named after the uid.
    if (start?.env.NODE_COMPILE_CACHE !== undefined) {
      const fill = JSON.stringify(['node', ...compileCacheFillArgs(start)]);
      let user = 'root';
      const fillingUsers = chainInstructions(stages, target).flatMap((instruction) => {
        if (instruction.op === 'USER') user = instruction.args;
        return instruction.op === 'RUN' && JSON.stringify(execForm(instruction.args)) === fill ? [user] : [];
      });
      if (!fillingUsers.includes('node')) problems.push(`Dockerfile ${target}: no RUN ${fill} as node, to fill the compile cache`);
    }
  }

  for (const needed of ['**/node_modules', '.git']) {
    if (!model.dockerignore.includes(needed)) problems.push(`.dockerignore: ${needed} missing`);
  }
  const kept = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'libs', 'services', 'gateway', 'proto'];
  for (const pattern of model.dockerignore.filter((p) => kept.includes(p.replace(/^\/|\/$/g, '')))) {
    problems.push(`.dockerignore: ${pattern} is needed in the image`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// References between containers: "http://identity:3001", "identity:50051", "kafka:9092"
// ---------------------------------------------------------------------------------------------

const SCHEME_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'postgresql:': 5432, 'postgres:': 5432 };

function hostReferences(value: string): { host: string; port: number }[] {
  return value.split(',').flatMap((item) => {
    const text = item.trim();
    if (text.includes('://')) {
      try {
        const url = new URL(text);
        const port = url.port ? Number(url.port) : SCHEME_PORTS[url.protocol];
        return port ? [{ host: url.hostname, port }] : [];
      } catch {
        return [];
      }
    }
    const match = /^([a-z0-9][a-z0-9.-]*):(\d+)$/i.exec(text);
    return match ? [{ host: match[1]!, port: Number(match[2]) }] : [];
  });
}

function imageProblem(where: string, image: unknown, targets: Set<string>): string | undefined {
  if (typeof image !== 'string') return `${where}: no image`;
  const own = OWN_IMAGE.exec(image);
  if (own) return targets.has(own[1]!) ? undefined : `${where}: image ${image} is no Dockerfile target`;
  return ALLOWED_IMAGES.some((allowed) => allowed.test(image)) ? undefined : `${where}: image ${image} is not allowed`;
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------------

/** `${VAR:-default}`, `${VAR-default}`, `${VAR}`, as compose resolves them with VAR unset. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/gi, (_all, _name, fallback: string | undefined) => fallback ?? '');
}

function composeEnv(service: Yaml): { env: Env; raw: Record<string, unknown> } {
  const environment = service?.environment ?? {};
  const raw: Record<string, unknown> = Array.isArray(environment)
    ? Object.fromEntries(
        (environment as string[]).map((entry) => {
          const at = entry.indexOf('=');
          return at < 0 ? [entry, null] : [entry.slice(0, at), entry.slice(at + 1)];
        }),
      )
    : environment;
  // A key without a value is passed through from the host: unset here.
  const env = Object.fromEntries(
    Object.entries(raw)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, interpolate(String(value))]),
  );
  return { env, raw };
}

function composeContainerPorts(service: Yaml): number[] {
  const ports: number[] = [];
  for (const entry of [...(service?.ports ?? []), ...(service?.expose ?? [])]) {
    if (typeof entry === 'object' && entry !== null) ports.push(Number(entry.target));
    else
      ports.push(
        Number(
          String(entry)
            .replace(/\/(tcp|udp)$/, '')
            .split(':')
            .at(-1),
        ),
      );
  }
  return ports;
}

function checkCompose(model: Model): string[] {
  const problems: string[] = [];
  const services: Record<string, Yaml> = model.compose?.services ?? {};
  const targets = new Set(model.dockerfile.map((stage) => stage.name).filter((name): name is string => Boolean(name)));
  const byName = new Map(model.services.map((service) => [service.name, service]));

  /** Ports each compose service listens on, for checking references to it. */
  const listening = new Map<string, Set<number>>();
  for (const [name, service] of Object.entries(services)) {
    const info = service?.build ? byName.get(service.build.target) : undefined;
    if (info) {
      const { config } = tryConfig(info, composeEnv(service).env);
      listening.set(name, new Set(info.keys.filter(isPortKey).map((key) => Number(config?.[key]))));
    } else if (/^postgres:/.test(service?.image ?? '')) {
      listening.set(name, new Set([5432]));
    } else if (/^registry:/.test(service?.image ?? '')) {
      listening.set(name, new Set([5000]));
    } else if (/^apache\/kafka:/.test(service?.image ?? '')) {
      const advertised = String(composeEnv(service).env.KAFKA_ADVERTISED_LISTENERS ?? '');
      const ports = [...advertised.matchAll(/\/\/([^:,]+):(\d+)/g)].filter((m) => m[1] === name).map((m) => Number(m[2]));
      if (ports.length === 0) problems.push(`compose ${name}: KAFKA_ADVERTISED_LISTENERS does not advertise ${name}:<port>`);
      listening.set(name, new Set(ports));
    }
  }

  for (const [name, service] of Object.entries(services)) {
    const where = `compose ${name}`;
    if (service?.build) {
      const build = service.build;
      if (path.resolve(repo, build.context ?? '.') !== repo) problems.push(`${where}: build.context must be the repository root`);
      if (build.dockerfile !== 'deploy/Dockerfile') problems.push(`${where}: build.dockerfile must be deploy/Dockerfile`);
      if (!targets.has(build.target)) problems.push(`${where}: build.target ${build.target} is no stage of deploy/Dockerfile`);
      if (service.image !== undefined && OWN_IMAGE.exec(service.image)?.[1] !== build.target) {
        problems.push(`${where}: image ${service.image} should be collab-platform/${build.target}`);
      }
    } else {
      const problem = imageProblem(where, service?.image, targets);
      if (problem) problems.push(problem);
      if (!service?.healthcheck) problems.push(`${where}: no healthcheck`);
    }

    for (const [dependency, condition] of Object.entries(service?.depends_on ?? {})) {
      const other = services[dependency];
      if (!other) problems.push(`${where}: depends_on unknown service ${dependency}`);
      const healthy = (condition as Yaml)?.condition === 'service_healthy';
      if (!healthy) problems.push(`${where}: depends_on ${dependency} without condition service_healthy`);
      const hasHealthcheck =
        other?.healthcheck || (other?.build && inherited(model.dockerfile, other.build.target, 'HEALTHCHECK').length > 0);
      if (other && !hasHealthcheck) problems.push(`${where}: depends on ${dependency}, which has no healthcheck`);
    }

    const info = service?.build ? byName.get(service.build.target) : undefined;
    if (!info) continue;
    if (name !== info.name) problems.push(`${where}: builds ${info.name}, should be named ${info.name}`);
    const { env, raw } = composeEnv(service);
    const unset = (key: string) => (info.required.includes(key) ? env[key] === undefined : !(key in raw));
    for (const key of info.mustSet.filter(unset)) problems.push(`${where}: ${key} not set`);
    for (const key of Object.keys(raw).filter((k) => !info.keys.includes(k) && !EXTRA_ENV.test(k))) {
      problems.push(`${where}: ${key} is set but ${info.dir}/src/config.ts does not read it`);
    }
    const { config, failing } = tryConfig(info, env);
    if (!config) {
      problems.push(`${where}: its environment fails ${info.dir}/src/config.ts on ${failing.join(', ')}`);
      continue;
    }
    const wanted = info.keys
      .filter(isPortKey)
      .map((key) => Number(config[key]))
      .sort();
    const declared = [...new Set(composeContainerPorts(service))].sort();
    if (JSON.stringify(declared) !== JSON.stringify(wanted)) {
      problems.push(`${where}: exposes ports ${declared.join(', ')}, but its env says it listens on ${wanted.join(', ')}`);
    }
    for (const [key, value] of Object.entries(env)) {
      for (const ref of hostReferences(value ?? '')) {
        if (!services[ref.host]) continue;
        if (!listening.get(ref.host)?.has(ref.port)) {
          problems.push(`${where}: ${key} points at ${ref.host}:${ref.port}, where nothing listens`);
        }
        if (!service.depends_on?.[ref.host]) problems.push(`${where}: uses ${ref.host} (${key}) but does not depend_on it`);
      }
    }
  }

  for (const info of model.services) {
    if (services[info.name]?.build?.target !== info.name) problems.push(`compose: no service ${info.name} built from target ${info.name}`);
  }
  const secrets = new Set(
    Object.values(services)
      .filter((service) => service?.build)
      .map((service) => composeEnv(service).raw.INTERNAL_SECRET),
  );
  if (secrets.size !== 1) problems.push(`compose: services disagree on INTERNAL_SECRET (${[...secrets].join(' / ')})`);
  const gateway = services.gateway;
  const gatewayPort = String(gateway?.environment?.PORT);
  if (!(gateway?.ports ?? []).some((port: unknown) => String(port).endsWith(`:${gatewayPort}`))) {
    problems.push(`compose gateway: does not publish its PORT ${gatewayPort}`);
  }
  const postgres = Object.entries(services).find(([, service]) => /^postgres:/.test(service?.image ?? ''));
  const volume = (postgres?.[1]?.volumes ?? []).map((v: unknown) => String(v).split(':')[0]).find(Boolean);
  if (!postgres || !volume || !(volume in (model.compose?.volumes ?? {}))) {
    problems.push('compose: postgres needs a named volume declared under volumes:');
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes
// ---------------------------------------------------------------------------------------------

interface EnvSource {
  value: string | undefined;
  from: string; // "configmap/<name>", "secret/<name>/<key>", "literal"
  secret: boolean;
}

function secretData(doc: Yaml): Record<string, string> {
  const decoded = Object.fromEntries(
    Object.entries(doc?.data ?? {}).map(([key, value]) => [key, Buffer.from(String(value), 'base64').toString('utf8')]),
  );
  return { ...decoded, ...(doc?.stringData ?? {}) };
}

function k8sContainerEnv(container: Yaml, find: (kind: string, name: string) => Yaml, problems: string[], where: string) {
  const env = new Map<string, EnvSource>();
  for (const from of container?.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const doc = find(kind, ref?.name);
    if (!doc) {
      if (!ref?.optional) problems.push(`${where}: envFrom ${kind} ${ref?.name} not found`);
      continue;
    }
    const data = kind === 'Secret' ? secretData(doc) : (doc.data ?? {});
    for (const [key, value] of Object.entries(data)) {
      env.set(key, { value: String(value), from: `${kind.toLowerCase()}/${ref.name}/${key}`, secret: kind === 'Secret' });
    }
  }
  for (const entry of container?.env ?? []) {
    if (entry.valueFrom) {
      const ref = entry.valueFrom.secretKeyRef ?? entry.valueFrom.configMapKeyRef;
      const kind = entry.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap';
      const doc = find(kind, ref?.name);
      const data = kind === 'Secret' ? secretData(doc) : (doc?.data ?? {});
      if (!ref || !(ref.key in data)) {
        if (!ref?.optional) problems.push(`${where}: ${entry.name} refers to missing ${kind} ${ref?.name}/${ref?.key}`);
        // An optional reference names the key for the operator to fill in; unset until then.
        else env.set(entry.name, { value: undefined, from: `${kind.toLowerCase()}/${ref.name}/${ref.key}`, secret: kind === 'Secret' });
        continue;
      }
      env.set(entry.name, {
        value: String(data[ref.key]),
        from: `${kind.toLowerCase()}/${ref.name}/${ref.key}`,
        secret: kind === 'Secret',
      });
    } else {
      env.set(entry.name, { value: entry.value === undefined ? undefined : String(entry.value), from: 'literal', secret: false });
    }
  }
  return env;
}

const labelsMatch = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

function checkK8s(model: Model): string[] {
  const problems: string[] = [];
  const docs = model.k8s.map((entry) => entry.doc);
  const find = (kind: string, name: string) => docs.find((doc) => doc?.kind === kind && doc?.metadata?.name === name);
  const targets = new Set(model.dockerfile.map((stage) => stage.name).filter((name): name is string => Boolean(name)));
  const byName = new Map(model.services.map((service) => [service.name, service]));
  const deployments = docs.filter((doc) => doc?.kind === 'Deployment');
  const services = docs.filter((doc) => doc?.kind === 'Service');

  // kustomization
  const resources: string[] = model.kustomization?.resources ?? [];
  for (const file of model.k8sFiles.filter((f) => !resources.includes(f))) problems.push(`kustomization: ${file} not listed in resources`);
  for (const file of resources.filter((f) => !model.k8sFiles.includes(f))) problems.push(`kustomization: resource ${file} does not exist`);
  const namespace = model.kustomization?.namespace;
  if (!namespace || !find('Namespace', namespace)) problems.push(`kustomization: namespace ${namespace} has no Namespace manifest`);
  const kustomizedImages = new Set((model.kustomization?.images ?? []).map((image: Yaml) => image.name));

  const seen = new Set<string>();
  for (const { file, doc } of model.k8s) {
    const id = `${doc?.kind}/${doc?.metadata?.name}`;
    if (!doc?.apiVersion || !doc?.kind || !doc?.metadata?.name)
      problems.push(`${file}: a document lacks apiVersion, kind or metadata.name`);
    if (seen.has(id)) problems.push(`${file}: ${id} defined twice`);
    seen.add(id);
  }

  /** Container ports of the pods a Service selects, by name and number. */
  const servicePorts = new Map<string, Set<number>>();
  for (const service of services) {
    const where = `Service ${service.metadata.name}`;
    const selected = deployments.filter((d) => labelsMatch(service.spec?.selector, d.spec?.template?.metadata?.labels));
    if (selected.length === 0) problems.push(`${where}: selects no Deployment`);
    const containerPorts = selected.flatMap((d) => d.spec.template.spec.containers.flatMap((c: Yaml) => c.ports ?? []));
    const ports = new Set<number>();
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      const match = containerPorts.find((p: Yaml) => p.name === target || p.containerPort === target);
      if (!match) problems.push(`${where}: port ${port.port} targets ${target}, which no selected container declares`);
      else if (match.containerPort !== port.port)
        problems.push(`${where}: port ${port.port} forwards to ${match.containerPort}; keep them equal`);
      ports.add(port.port);
    }
    servicePorts.set(service.metadata.name, ports);
  }

  const internalSecretSources = new Set<string>();
  for (const deployment of deployments) {
    const name = deployment.metadata.name;
    const where = `Deployment ${name}`;
    const template = deployment.spec?.template;
    const pod = template?.spec ?? {};
    if (!labelsMatch(deployment.spec?.selector?.matchLabels, template?.metadata?.labels)) {
      problems.push(`${where}: selector.matchLabels do not match the template labels`);
    }
    if (!services.some((service) => labelsMatch(service.spec?.selector, template?.metadata?.labels))) {
      problems.push(`${where}: no Service selects it`);
    }
    for (const container of pod.containers ?? []) {
      const cwhere = `${where} container ${container.name}`;
      const security = { ...pod.securityContext, ...container.securityContext };
      if (security.runAsNonRoot !== true) problems.push(`${cwhere}: securityContext.runAsNonRoot must be true`);
      // The image's user is the named `node`; kubelet can only verify non-root with a numeric id.
      if (!Number.isInteger(security.runAsUser) || security.runAsUser === 0) problems.push(`${cwhere}: needs a numeric non-zero runAsUser`);
      if (container.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${cwhere}: allowPrivilegeEscalation must be false`);
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory']) {
          if (!container.resources?.[kind]?.[resource]) problems.push(`${cwhere}: resources.${kind}.${resource} missing`);
        }
      }
      const imageIssue = imageProblem(cwhere, container.image, targets);
      if (imageIssue) problems.push(imageIssue);
      const own = OWN_IMAGE.exec(String(container.image));
      if (own && !kustomizedImages.has(String(container.image).split(':')[0])) {
        problems.push(`${cwhere}: image ${container.image} has no entry in kustomization images`);
      }

      const ports: Yaml[] = container.ports ?? [];
      const portOf = (port: unknown) => ports.find((p) => p.name === port || p.containerPort === port)?.containerPort as number | undefined;
      const probes: [string, string, boolean][] = [
        ['readinessProbe', '/-/readiness', true],
        ['livenessProbe', '/-/health', true],
        ['startupProbe', '/-/health', false],
      ];
      for (const [probe, wantedPath, needed] of probes) {
        const spec = container[probe];
        if (!spec) {
          if (needed) problems.push(`${cwhere}: no ${probe}`);
          continue;
        }
        // A peer's image (the container registry) answers its probes where it serves them.
        if (own && spec.httpGet?.path !== wantedPath) problems.push(`${cwhere}: ${probe} must GET ${wantedPath}`);
        if (portOf(spec.httpGet?.port) === undefined)
          problems.push(`${cwhere}: ${probe} port ${spec.httpGet?.port} is no declared containerPort`);
      }

      const info = byName.get(container.name);
      if (!info) continue;
      if (own?.[1] !== info.name) problems.push(`${cwhere}: image should be collab-platform/${info.name}`);
      const env = k8sContainerEnv(container, find, problems, cwhere);
      const unset = (key: string) => (info.required.includes(key) ? env.get(key)?.value === undefined : !env.has(key));
      for (const key of info.mustSet.filter(unset)) problems.push(`${cwhere}: ${key} not set`);
      for (const key of [...env.keys()].filter((k) => !info.keys.includes(k) && !EXTRA_ENV.test(k))) {
        problems.push(`${cwhere}: ${key} is set but ${info.dir}/src/config.ts does not read it`);
      }
      const values = Object.fromEntries([...env].map(([key, source]) => [key, source.value]));
      // Secrets hold placeholders to replace (some deliberately invalid); everything else must pass.
      const { failing } = tryConfig(info, values);
      for (const key of failing.filter((k) => !env.get(k)?.secret)) {
        problems.push(`${cwhere}: ${key}=${values[key]} fails ${info.dir}/src/config.ts`);
      }
      if (env.has('INTERNAL_SECRET')) internalSecretSources.add(env.get('INTERNAL_SECRET')!.from);

      const wanted = info.keys
        .filter(isPortKey)
        .map((key) => (values[key] === undefined ? info.portDefaults[key] : Number(values[key])))
        .sort();
      const declared = ports.map((p) => p.containerPort as number).sort();
      if (JSON.stringify(declared) !== JSON.stringify(wanted)) {
        problems.push(`${cwhere}: containerPorts ${declared.join(', ')}, but its env says it listens on ${wanted.join(', ')}`);
      }
      for (const port of declared) {
        const exposedBy = services.filter((s) => labelsMatch(s.spec?.selector, template?.metadata?.labels));
        if (!exposedBy.some((s) => servicePorts.get(s.metadata.name)?.has(port))) problems.push(`${cwhere}: port ${port} is in no Service`);
      }
      for (const [key, value] of Object.entries(values)) {
        for (const ref of hostReferences(value ?? '')) {
          const host = ref.host.split('.');
          const local = host.length === 1 || host[1] === namespace;
          if (!local || !servicePorts.has(host[0]!)) continue;
          if (!servicePorts.get(host[0]!)!.has(ref.port))
            problems.push(`${cwhere}: ${key} points at ${ref.host}:${ref.port}, which Service ${host[0]} does not offer`);
        }
      }
    }
  }
  if (internalSecretSources.size > 1)
    problems.push(`k8s: INTERNAL_SECRET comes from different places (${[...internalSecretSources].join(', ')})`);

  for (const info of model.services) {
    const deployment = find('Deployment', info.name);
    if (!deployment) problems.push(`k8s: no Deployment ${info.name}`);
    else if (!deployment.spec?.template?.spec?.containers?.some((c: Yaml) => c.name === info.name)) {
      problems.push(`k8s: Deployment ${info.name} has no container named ${info.name}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// deploy/README.md: the deployables it describes and builds
// ---------------------------------------------------------------------------------------------

function checkReadme(model: Model): string[] {
  const problems: string[] = [];
  const names = model.services.map((service) => service.name);
  const rows = [...model.readme.matchAll(/^\| `([a-z0-9-]+)` \| `((?:gateway|services\/[a-z0-9-]+))\/` \|/gm)].map((m) => m[1]!);
  for (const name of names.filter((n) => !rows.includes(n)))
    problems.push(`deploy/README.md: no row for target ${name} in the target table`);
  for (const name of rows.filter((n) => !names.includes(n))) problems.push(`deploy/README.md: target table row ${name} is no service`);
  const loops = [...model.readme.matchAll(/^\s*for s in ([a-z0-9 -]+); do$/gm)].map((m) => m[1]!.split(/\s+/));
  if (loops.length === 0) problems.push('deploy/README.md: no build loop (for s in ...; do)');
  for (const [index, loop] of loops.entries()) {
    for (const name of names.filter((n) => !loop.includes(n))) problems.push(`deploy/README.md: build loop ${index + 1} skips ${name}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

function parseYaml(text: string, file: string): Yaml[] {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  for (const document of list) {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
  }
  return list.map((document) => document.toJS()).filter((doc) => doc !== null && doc !== undefined);
}

async function loadModel(): Promise<Model> {
  const k8sDir = 'deploy/k8s';
  const k8sFiles = readdirSync(path.join(repo, k8sDir))
    .filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml')
    .sort();
  return {
    services: await discoverServices(),
    readme: read('deploy/README.md'),
    dockerfile: parseDockerfile(read('deploy/Dockerfile')),
    packageManager: (JSON.parse(read('package.json')) as { packageManager: string }).packageManager,
    workspace: workspacePackages(),
    dockerignore: read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
    compose: parseYaml(read('docker-compose.yml'), 'docker-compose.yml')[0],
    k8s: k8sFiles.flatMap((file) => parseYaml(read(`${k8sDir}/${file}`), file).map((doc) => ({ file, doc }))),
    kustomization: parseYaml(read(`${k8sDir}/kustomization.yaml`), 'kustomization.yaml')[0],
    k8sFiles,
  };
}

let model: Model;
beforeAll(async () => {
  model = await loadModel();
});

describe('deployment files', () => {
  it('finds the services and what they read from their config.ts', () => {
    expect(model.services.map((service) => service.dir)).toEqual(
      expect.arrayContaining(['gateway', 'services/identity', 'services/audit']),
    );
    for (const service of model.services) {
      expect(service.keys.some(isPortKey)).toBe(true);
      // The keys read from the schema must agree with readConfig: what it rejects when unset,
      // and where it listens when no port is given (with compose's otherwise valid environment).
      expect(tryConfig(service, {}).failing.sort()).toEqual([...service.required].sort());
      const env = composeEnv(model.compose.services[service.name]).env;
      const { config } = tryConfig(service, Object.fromEntries(Object.entries(env).filter(([key]) => !isPortKey(key))));
      const listens = Object.fromEntries(service.keys.filter(isPortKey).map((key) => [key, config?.[key]]));
      expect(listens).toEqual(service.portDefaults);
    }
  });

  it('parses every YAML file', () => {
    expect(model.compose?.services).toBeDefined();
    expect(model.k8s.length).toBeGreaterThan(0);
    expect(model.kustomization?.kind).toBe('Kustomization');
  });

  it('deploy/Dockerfile has a correct target per service', () => {
    expect(checkDockerfile(model)).toEqual([]);
  });

  it('docker-compose.yml builds, wires and exposes every service as its config says', () => {
    expect(checkCompose(model)).toEqual([]);
  });

  it('the Kubernetes manifests deploy every service as its config says', () => {
    expect(checkK8s(model)).toEqual([]);
  });

  it('deploy/README.md describes and builds every service', () => {
    expect(checkReadme(model)).toEqual([]);
  });
});

describe('the checks catch mistakes', () => {
  const mutated = (change: (copy: Model) => void): Model => {
    const copy: Model = {
      ...model,
      dockerfile: structuredClone(model.dockerfile),
      compose: structuredClone(model.compose),
      k8s: structuredClone(model.k8s),
      kustomization: structuredClone(model.kustomization),
      services: model.services.map((service) => ({
        ...service,
        keys: [...service.keys],
        required: [...service.required],
        mustSet: [...service.mustSet],
      })),
    };
    change(copy);
    return copy;
  };
  const dockerInstruction = (copy: Model, args: RegExp) => copy.dockerfile.flatMap((s) => s.instructions).find((i) => args.test(i.args))!;
  const k8sDoc = (copy: Model, kind: string, name: string) =>
    copy.k8s.find((e) => e.doc.kind === kind && e.doc.metadata.name === name)!.doc;
  const problemsOf = (copy: Model) => [...checkDockerfile(copy), ...checkCompose(copy), ...checkK8s(copy), ...checkReadme(copy)].join('\n');

  it.each<[string, (copy: Model) => void, RegExp]>([
    [
      'a compose port that disagrees with HTTP_PORT',
      (c) => (c.compose.services.audit.environment.HTTP_PORT = '3008'),
      /compose audit: exposes ports 3007/,
    ],
    [
      'a compose reference to the wrong port',
      (c) => (c.compose.services.gateway.environment.AUDIT_URL = 'http://audit:3017'),
      /AUDIT_URL points at audit:3017/,
    ],
    [
      'a required variable missing in compose',
      (c) => delete c.compose.services.identity.environment.DATABASE_URL,
      /compose identity: DATABASE_URL not set/,
    ],
    [
      'an address whose default is loopback missing in compose',
      (c) => delete c.compose.services.audit.environment.IDENTITY_GRPC_ADDRESS,
      /compose audit: IDENTITY_GRPC_ADDRESS not set/,
    ],
    ['a misspelt variable in compose', (c) => (c.compose.services.audit.environment.KAFKA_GROUP = 'x'), /KAFKA_GROUP is set but/],
    [
      'an invalid value in compose',
      (c) => (c.compose.services.gateway.environment.LOG_LEVEL = 'loud'),
      /fails gateway\/src\/config.ts on LOG_LEVEL/,
    ],
    [
      'a build target that does not exist',
      (c) => (c.compose.services.identity.build.target = 'identityy'),
      /build.target identityy is no stage/,
    ],
    ['an image that is not allowed', (c) => (c.compose.services.postgres.image = 'mysql:8'), /image mysql:8 is not allowed/],
    [
      'a dependency without service_healthy',
      (c) => (c.compose.services.audit.depends_on.kafka.condition = 'service_started'),
      /depends_on kafka without condition/,
    ],
    [
      'a ConfigMap port that disagrees with the containerPort',
      (c) => (k8sDoc(c, 'ConfigMap', 'audit-config').data.HTTP_PORT = '3008'),
      /Deployment audit container audit: containerPorts 3007/,
    ],
    [
      'a ConfigMap reference to a port no Service offers',
      (c) => (k8sDoc(c, 'ConfigMap', 'gateway-config').data.IDENTITY_GRPC_ADDRESS = 'identity:50052'),
      /IDENTITY_GRPC_ADDRESS points at identity:50052/,
    ],
    [
      'a required variable missing in k8s',
      (c) => delete k8sDoc(c, 'Secret', 'audit-secrets').stringData.DATABASE_URL,
      /Deployment audit container audit: DATABASE_URL not set/,
    ],
    [
      'a wrong readiness path',
      (c) => (k8sDoc(c, 'Deployment', 'identity').spec.template.spec.containers[0].readinessProbe.httpGet.path = '/-/ready'),
      /readinessProbe must GET \/-\/readiness/,
    ],
    [
      'a probe on an undeclared port',
      (c) => (k8sDoc(c, 'Deployment', 'gateway').spec.template.spec.containers[0].livenessProbe.httpGet.port = 'web'),
      /livenessProbe port web is no declared/,
    ],
    [
      'template labels that the selector misses',
      (c) => (k8sDoc(c, 'Deployment', 'audit').spec.template.metadata.labels = { app: 'audit' }),
      /Deployment audit: selector.matchLabels do not match/,
    ],
    [
      'a container running as root',
      (c) => (k8sDoc(c, 'Deployment', 'gateway').spec.template.spec.securityContext.runAsUser = 0),
      /numeric non-zero runAsUser/,
    ],
    [
      'a manifest missing from kustomization',
      (c) => (c.kustomization.resources = c.kustomization.resources.filter((r: string) => r !== 'audit.yaml')),
      /audit.yaml not listed/,
    ],
    [
      'a Dockerfile EXPOSE that disagrees with config.ts',
      (c) => (c.dockerfile.find((s) => s.name === 'audit')!.instructions.find((i) => i.op === 'EXPOSE')!.args = '3008'),
      /Dockerfile audit: EXPOSE 3008/,
    ],
    [
      'an install filter without "..." (no workspace dependencies)',
      (c) =>
        (dockerInstruction(c, /pnpm install/).args = dockerInstruction(c, /pnpm install/).args.replace(
          '{./services/*}...',
          '{./services/*}',
        )),
      /does not select services\/audit/,
    ],
    [
      'a variable a start script sets that the image does not',
      (c) =>
        (c.dockerfile.find((s) => s.name === 'runtime')!.instructions = c.dockerfile
          .find((s) => s.name === 'runtime')!
          .instructions.filter((i) => !/^MALLOC_ARENA_MAX=/.test(i.args))),
      /Dockerfile gateway: ENV MALLOC_ARENA_MAX=2 missing[\s\S]*Dockerfile identity: ENV MALLOC_ARENA_MAX=2 missing/,
    ],
    [
      'a start script flag the image does not run with',
      (c) => (c.services.find((s) => s.name === 'audit')!.startScript = 'MALLOC_ARENA_MAX=2 node --max-old-space-size=64 src/main.ts'),
      /Dockerfile audit: CMD .*, expected .*--max-old-space-size=64/,
    ],
    [
      'a compile cache the image does not fill',
      (c) =>
        (c.dockerfile.find((s) => s.name === 'audit')!.instructions = c.dockerfile
          .find((s) => s.name === 'audit')!
          .instructions.filter((i) => !(i.op === 'RUN' && i.args.includes('./src/main.ts')))),
      /Dockerfile audit: no RUN \["node",.*"--import","\.\/src\/main\.ts","--eval",""\] as node, to fill the compile cache/,
    ],
    [
      'a compile cache filled by root, not by the user the service runs as',
      (c) => {
        const audit = c.dockerfile.find((s) => s.name === 'audit')!;
        const fill = audit.instructions.find((i) => i.op === 'RUN' && i.args.includes('./src/main.ts'))!;
        audit.instructions = [fill, ...audit.instructions.filter((i) => i !== fill)];
      },
      /Dockerfile audit: no RUN .* as node, to fill the compile cache/,
    ],
    [
      'a Dockerfile target running as root',
      (c) =>
        (c.dockerfile.find((s) => s.name === 'gateway')!.instructions = c.dockerfile
          .find((s) => s.name === 'gateway')!
          .instructions.filter((i) => i.op !== 'USER')),
      /Dockerfile gateway: USER \(root\)/,
    ],
    [
      'a variable the topology needs missing in compose',
      (c) => delete c.compose.services.gateway.environment.KAFKA_BROKERS,
      /compose gateway: KAFKA_BROKERS not set/,
    ],
    [
      "review's settings address missing in k8s",
      (c) => delete k8sDoc(c, 'ConfigMap', 'review-config').data.ADMIN_GRPC_ADDRESS,
      /Deployment review container review: ADMIN_GRPC_ADDRESS not set/,
    ],
    [
      'an operator setting missing in k8s',
      (c) =>
        (k8sDoc(c, 'Deployment', 'gateway').spec.template.spec.containers[0].env = k8sDoc(
          c,
          'Deployment',
          'gateway',
        ).spec.template.spec.containers[0].env.filter((e: Yaml) => e.name !== 'METRICS_TOKEN')),
      /Deployment gateway container gateway: METRICS_TOKEN not set/,
    ],
    [
      'a variable no config.ts reads, passed through unset in compose',
      (c) => (c.compose.services.identity.environment.ROOT_PASSWORD = null),
      /compose identity: ROOT_PASSWORD is set but/,
    ],
    [
      'a build loop in deploy/README.md that skips a service',
      (c) => (c.readme = c.readme.replace('for s in gateway identity', 'for s in gateway')),
      /deploy\/README.md: build loop 1 skips identity/,
    ],
    [
      'a new required variable in a config.ts',
      (c) => c.services.find((s) => s.name === 'audit')!.mustSet.push('NEW_SETTING'),
      /compose audit: NEW_SETTING not set[\s\S]*Deployment audit container audit: NEW_SETTING not set/,
    ],
    [
      'a new service without deployment files',
      (c) => c.services.push({ ...c.services.find((s) => s.name === 'audit')!, name: 'billing', dir: 'services/billing' }),
      /no target "billing"[\s\S]*no service billing[\s\S]*no Deployment billing[\s\S]*deploy\/README.md: no row for target billing[\s\S]*build loop 1 skips billing/,
    ],
  ])('%s', (_label, change, expected) => {
    expect(problemsOf(mutated(change))).toMatch(expected);
  });
});
