/**
 * The deployment, feature flag and pipeline bodies GitLab sends (`Gitlab::DataBuilder::Deployment`,
 * `Gitlab::DataBuilder::FeatureFlag`, `Gitlab::DataBuilder::Pipeline`), built from the delivery
 * service's events.
 */
import { changeTimestamp, commitHookAttributes, projectAttributes, userAttributes, type CommitFacts } from './hook-payloads.ts';
import type { HookProject, HookUser } from './project-directory.ts';

/** The instance's URL, which prefixes every project's web URL. */
function instanceUrlOf(project: HookProject): string {
  return project.webUrl.slice(0, project.webUrl.length - project.pathWithNamespace.length - 1);
}

/** A user's profile URL (`Gitlab::UrlBuilder.build(user)`), null for nobody. */
function userUrl(project: HookProject, user: HookUser | undefined): string | null {
  return user ? `${instanceUrlOf(project)}/${user.username}` : null;
}

/** `Time#to_s` in UTC, as the deployment hook's `status_changed_at` shows it: `2021-04-28 19:50:00 +0000`. */
function rubyTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

export interface DeploymentFacts {
  id: number;
  status: string;
  /** When it reached `status`. */
  statusChangedAt: string;
  environment: { name: string; tier: string; slug: string; externalUrl: string | null };
  ref: string;
  sha: string;
  /** The deployed commit's title, null when unknown. */
  commitTitle: string | null;
}

/**
 * A deployment event: sent when a deployment starts running, succeeds, fails or is canceled. Its
 * deployable is a CI job, which deployments recorded through the API never have.
 */
export function deploymentPayload(options: { deployment: DeploymentFacts; project: HookProject; user: HookUser | undefined }) {
  const { deployment, project, user } = options;
  return {
    object_kind: 'deployment',
    status: deployment.status,
    status_changed_at: rubyTime(deployment.statusChangedAt),
    deployment_id: deployment.id,
    deployable_id: null,
    deployable_url: null,
    environment: deployment.environment.name,
    environment_tier: deployment.environment.tier,
    environment_slug: deployment.environment.slug,
    environment_external_url: deployment.environment.externalUrl,
    project: projectAttributes(project),
    short_sha: deployment.sha.slice(0, 8),
    user: user ? userAttributes(user) : null,
    user_url: userUrl(project, user),
    commit_url: `${project.webUrl}/-/commit/${deployment.sha}`,
    commit_title: deployment.commitTitle,
    ref: deployment.ref,
  };
}

export interface FeatureFlagFacts {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
}

/** A feature flag event: sent when a flag is turned on or off. */
export function featureFlagPayload(options: { featureFlag: FeatureFlagFacts; project: HookProject; user: HookUser | undefined }) {
  const { featureFlag, project, user } = options;
  return {
    object_kind: 'feature_flag',
    project: projectAttributes(project),
    user: userAttributes(user),
    user_url: userUrl(project, user),
    object_attributes: {
      id: featureFlag.id,
      name: featureFlag.name,
      description: featureFlag.description,
      active: featureFlag.active,
    },
  };
}

/** An external pipeline: the commit statuses an external CI posted for one sha and ref. */
export interface PipelineFacts {
  id: number;
  iid: number;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  source: string;
  status: string;
  /** Whether its ref is a protected branch or tag. */
  protectedRef: boolean;
  createdAt: string;
  finishedAt: string | null;
  duration: number | null;
}

/** The label of a pipeline's detailed status (`Gitlab::Ci::Status::*#label`): a success shows as `passed`. */
function detailedStatus(status: string): string {
  return status === 'success' ? 'passed' : status;
}

/**
 * A pipeline event: sent when an external pipeline is created and whenever its status changes.
 * An external pipeline has no stages, variables or builds, and no merge request (only merge
 * request pipelines name one); its commit is null when no push described it.
 */
export function pipelinePayload(options: {
  pipeline: PipelineFacts;
  commit: CommitFacts | undefined;
  project: HookProject;
  user: HookUser | undefined;
}) {
  const { pipeline, commit, project, user } = options;
  // `hook_attrs(backward: false)`: without the fields older payloads repeated.
  const { homepage: _homepage, url: _url, ssh_url: _sshUrl, http_url: _httpUrl, ...projectFields } = projectAttributes(project);
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      iid: pipeline.iid,
      name: null,
      ref: pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      before_sha: pipeline.beforeSha,
      source: pipeline.source,
      status: pipeline.status,
      detailed_status: detailedStatus(pipeline.status),
      stages: [],
      created_at: changeTimestamp(pipeline.createdAt),
      finished_at: changeTimestamp(pipeline.finishedAt),
      duration: pipeline.duration,
      queued_duration: null,
      protected_ref: pipeline.protectedRef,
      variables: [],
      url: `${project.webUrl}/-/pipelines/${pipeline.id}`,
    },
    merge_request: null,
    user: user ? userAttributes(user) : null,
    project: projectFields,
    commit: commit ? commitHookAttributes(commit, project) : null,
    builds: [],
  };
}
