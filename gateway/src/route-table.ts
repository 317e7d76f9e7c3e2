/**
 * Which service owns which path. First match wins, so a project's sub-resource owned by
 * another service is listed before the catch-all for projects.
 */
export const SERVICES = ['identity', 'audit', 'review', 'packages', 'admin', 'alerts', 'delivery', 'hooks'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface Route {
  pattern: RegExp;
  service: ServiceName;
  /** SCIM requests carry the group's SCIM token, Unleash clients the project's instance id: the owning service checks them itself. */
  ownAuthentication?: boolean;
  /**
   * Git over HTTP: credentials come as HTTP Basic (any username, a personal access token as
   * password), and a refusal carries the Basic challenge so that the git CLI asks for them.
   */
  basicCredentials?: boolean;
  /**
   * Deploy tokens (`gldt-...`) are accepted here, as GitLab accepts them: git over HTTP and the
   * registries. Everywhere else identity does not know them, and the caller gets 401.
   */
  deployTokens?: boolean;
  /** The body of a 401 for refused Basic credentials, where the protocol is not git's (the registry's token endpoint). */
  basicRefusal?: unknown;
  /** Query parameters the request must carry for this route: a list another service serves in part (incidents among issues). */
  query?: Record<string, string>;
  /**
   * Reads that stream files or compute from repositories (git fetches, package files, diffs,
   * avatars): bounded by the response timeout, as writes are, instead of the shorter read timeout.
   */
  slowReads?: boolean;
}

export const routeTable: Route[] = [
  {
    pattern: /^\/.+\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/,
    service: 'review',
    basicCredentials: true,
    deployTokens: true,
    slowReads: true,
  },
  // A commit's statuses are posted by external CI systems and make pipelines: delivery keeps them.
  { pattern: /^\/api\/v4\/projects\/[^/]+\/repository\/commits\/[^/]+\/statuses$/, service: 'delivery' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/repository\/(branches|merged_branches|commits|tags)(\/|$)/, service: 'review' },
  // Archives and file contents stream as long as the file is: bounded by the response timeout.
  { pattern: /^\/api\/v4\/projects\/[^/]+\/repository\/(archive|files|blobs)(\/|\.|$)/, service: 'review', slowReads: true },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/repository\/(tree|compare|merge_base)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/(protected_branches|protected_tags)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/(approvals|approval_rules|approvers)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/merge_requests\/[^/]+\/(changes|diffs|versions)(\/|$)/, service: 'review', slowReads: true },
  { pattern: /^\/api\/v4\/(projects|groups)\/[^/]+\/merge_requests(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/merge_requests(\/|$)/, service: 'review' },
  // To-dos are about merge requests, and the caller's counters count them: review keeps both.
  { pattern: /^\/api\/v4\/(todos|user_counts)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/project_repository_storage_moves(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/repository_storage_moves(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/(labels|milestones)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/groups\/[^/]+\/(labels|milestones)(\/|$)/, service: 'review' },
  { pattern: /^\/api\/v4\/(groups|projects)\/[^/]+\/audit_events(\/|$)/, service: 'audit' },
  // The npm, Maven and generic registries: their clients may present deploy tokens.
  {
    pattern: /^\/api\/v4\/(groups|projects)\/[^/]+\/(-\/)?packages\/(npm|maven|generic)\//,
    service: 'packages',
    deployTokens: true,
    slowReads: true,
  },
  { pattern: /^\/api\/v4\/(groups|projects)\/[^/]+\/(-\/)?packages(\/|$)/, service: 'packages', slowReads: true },
  { pattern: /^\/api\/v4\/packages\/(npm|maven)\//, service: 'packages', deployTokens: true, slowReads: true },
  { pattern: /^\/api\/v4\/(projects|groups)\/[^/]+\/registry\/repositories(\/|$)/, service: 'packages' },
  { pattern: /^\/api\/v4\/registry\/repositories\/[^/]+$/, service: 'packages' },
  // The container registry's token endpoint: Docker clients send a personal access token as a Basic password.
  {
    pattern: /^\/jwt\/auth$/,
    service: 'packages',
    basicCredentials: true,
    deployTokens: true,
    basicRefusal: { errors: [{ code: 'UNAUTHORIZED', message: 'HTTP Basic: Access denied' }] },
  },
  // The registry's notifications carry the shared secret, which packages checks itself.
  { pattern: /^\/container_registry_event\/events$/, service: 'packages', ownAuthentication: true },
  {
    pattern:
      /^\/api\/v4\/projects\/[^/]+\/(environments|deployments|feature_flags|feature_flags_user_lists|feature_flags_client|statuses|pipelines)(\/|$)/,
    service: 'delivery',
  },
  // The Unleash client API: applications' SDKs present the project's instance id, which delivery checks itself.
  { pattern: /^\/api\/v4\/feature_flags\/unleash\//, service: 'delivery', ownAuthentication: true },
  { pattern: /^\/api\/v4\/audit_events(\/|$)/, service: 'audit' },
  // Project, group and system hooks.
  { pattern: /^\/api\/v4\/((groups|projects)\/[^/]+\/)?hooks(\/|$)/, service: 'hooks' },
  { pattern: /^\/api\/v4\/(application\/settings|admin\/ci\/variables)(\/|$)/, service: 'admin' },
  { pattern: /^\/api\/v4\/(projects|groups)\/[^/]+\/variables(\/|$)/, service: 'admin' },
  { pattern: /^\/api\/v4\/projects\/[^/]+\/alert_management(\/|$)/, service: 'alerts' },
  // Incidents are the issues of type incident; the alerts service owns them.
  { pattern: /^\/api\/v4\/projects\/[^/]+\/issues$/, query: { issue_type: 'incident' }, service: 'alerts' },
  // Every other issue belongs to review's tracker.
  { pattern: /^\/api\/v4\/projects\/[^/]+\/issues(\/|$)/, service: 'review' },
  // Alert intake: monitoring tools authenticate with an integration's key, which alerts checks itself.
  { pattern: /^\/.+\/(prometheus\/)?alerts\/notify(\/[^/]+\/[^/]+)?\.json$/, service: 'alerts', ownAuthentication: true },
  { pattern: /^\/api\/v4\/((users|projects)\/[^/]+\/)?events\/?$/, service: 'audit' },
  {
    pattern:
      /^\/api\/v4\/(user|users|groups|projects|namespaces|keys|personal_access_tokens|deploy_tokens|deploy_keys|version|metadata)(\/|$)/,
    service: 'identity',
  },
  { pattern: /^\/api\/scim\/v2\//, service: 'identity', ownAuthentication: true },
  // Avatars, where `avatar_url` points, as GitLab serves them; identity decides who may see each.
  { pattern: /^\/uploads\/-\/system\/(user|group|project)\/avatar\//, service: 'identity', slowReads: true },
];

export function routeFor(path: string, query: URLSearchParams = new URLSearchParams()): Route | undefined {
  return routeTable.find(
    (route) =>
      route.pattern.test(path) &&
      (route.query === undefined || Object.entries(route.query).every(([name, value]) => query.getAll(name).includes(value))),
  );
}
