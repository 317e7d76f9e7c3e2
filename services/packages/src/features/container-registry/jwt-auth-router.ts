/**
 * `GET /jwt/auth`, GitLab's token endpoint for the container registry, outside the REST API: the
 * gateway authenticated the Basic credentials (a personal access token as password, or a deploy
 * token's username and token); here the
 * requested scopes become a token granting what the caller may do, and nothing more. A caller
 * without access still gets a token, granting nothing, which the registry then refuses.
 */
import { Router, type Request, type Response } from 'express';
import { deployTokenOf } from '@platform/auth';
import { inUnitOfWork, type Orm } from '@platform/db';
import { callerOf, queryValues } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { ContainerRegistryService } from './container-registry-service.ts';
import { abilitiesOf, callerMayOnContainerImages, projectOfRepositoryName, type ContainerImageAbility } from './registry-access.ts';
import { parseScopes, type RegistryAccess, type RegistryTokenIssuer } from './registry-token.ts';

/** The ability each registry action needs, as GitLab maps them. */
const ABILITY_OF_ACTION: Record<string, ContainerImageAbility> = { pull: 'read', push: 'create', delete: 'destroy', '*': 'admin' };

export function jwtAuthRoutes(deps: {
  orm: Orm;
  access: IdentityAccess;
  tokens: RegistryTokenIssuer;
  registry: ContainerRegistryService;
  service: string;
}): Router {
  const router = Router();

  const grant = async (req: Request, requested: RegistryAccess): Promise<RegistryAccess | undefined> => {
    const caller = callerOf(req);
    const abilities = abilitiesOf(caller);
    const project = await projectOfRepositoryName(deps.access, caller, requested.name);
    if (!project) return undefined;
    // Images live below their project's path: `group/app` and `group/app/web`, never another project's name.
    const belowProject = requested.name === project.pathWithNamespace || requested.name.startsWith(`${project.pathWithNamespace}/`);
    const actions = requested.actions.filter((action) => {
      const ability = ABILITY_OF_ACTION[action];
      return belowProject && ability !== undefined && abilities.has(ability) && callerMayOnContainerImages(caller, project, ability);
    });
    if (actions.length === 0) return undefined;
    // As GitLab, the repository exists from the first authorised push: the registry's notifications then find it.
    if (actions.includes('push')) await inUnitOfWork(deps.orm, () => deps.registry.pushAuthorised(project, requested.name));
    return { ...requested, actions };
  };

  const answer = async (req: Request, res: Response) => {
    if (queryValues(req, 'service')[0] !== deps.service) {
      res.status(404).end();
      return;
    }
    const caller = callerOf(req);
    if (caller.kind === 'user' && abilitiesOf(caller).size === 0) {
      res.status(403).json({ errors: [{ code: 'DENIED', message: 'access forbidden' }] });
      return;
    }
    const requested = parseScopes(queryValues(req, 'scope'));
    const deployToken = deployTokenOf(caller);
    if (deployToken && !deployToken.scopes.some((scope) => scope === 'read_registry' || scope === 'write_registry')) {
      res.status(403).json({ errors: [{ code: 'DENIED', message: 'access forbidden' }] });
      return;
    }
    // `docker login` asks for no scope: a user or a deploy token gets a token granting nothing; nobody else does.
    if (requested.length === 0 && caller.kind !== 'user' && !deployToken) {
      res.status(403).json({ errors: [{ code: 'DENIED', message: 'access forbidden' }] });
      return;
    }
    const granted = (await Promise.all(requested.map((scope) => grant(req, scope)))).filter(
      (access): access is RegistryAccess => access !== undefined,
    );
    const token = await deps.tokens.issue(caller.kind === 'user' ? caller.username : (deployToken?.username ?? ''), granted);
    res.status(200).json({ token, access_token: token });
  };

  router.get('/jwt/auth', (req, res, next) => {
    answer(req, res).catch(next);
  });
  return router;
}
