/**
 * Alert intake, where monitoring tools send alerts, outside the REST API as GitLab serves it:
 * `POST /<namespace>/<project>/alerts/notify.json` (the generic HTTP endpoint),
 * `.../alerts/notify/<name>/<endpoint_identifier>.json` (the paid tier's further endpoints) and
 * `.../prometheus/alerts/notify.json` (Alertmanager's webhook). The caller is no user: the
 * request carries the integration's key as `Authorization: Bearer <key>`, checked before the
 * body is read, so that nothing is recorded for a wrong or inactive key.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { inUnitOfWork, type Orm } from '@platform/db';
import { NotFoundError, UnauthorizedError } from '@platform/errors';
import { genericAlert, prometheusAlerts, type IncomingAlert } from '../alerts/alert-payload.ts';
import type { AlertsService } from '../alerts/alerts-service.ts';
import type { AlertIntegration } from '../integrations/integration.entity.ts';
import type { IntakeEndpoint, IntegrationsService } from '../integrations/integrations-service.ts';
import type { ProjectLookup } from './project-lookup.ts';

/** The largest payload taken; a larger one is refused with 413. */
export const MAX_ALERT_PAYLOAD_BYTES = 1024 * 1024;

export interface AlertIntakeDeps {
  orm: Orm;
  projects: ProjectLookup;
  integrations: IntegrationsService;
  alerts: AlertsService;
}

interface Accepted {
  projectId: number;
  integration: AlertIntegration;
}

/** Where the authenticated request keeps what was accepted, for the handler after the body parser. */
const ACCEPTED = 'acceptedAlertIntegration';

function keyOf(req: Request): string | undefined {
  return req.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

export function alertIntakeRoutes(deps: AlertIntakeDeps): Router {
  const router = Router();
  // Any content type: tools send JSON without always saying so. Parsed only once the key was accepted.
  const jsonBody = express.json({ limit: MAX_ALERT_PAYLOAD_BYTES, strict: false, type: () => true });

  const authenticate = (endpointOf: (req: Request) => IntakeEndpoint) => (req: Request, res: Response, next: NextFunction) => {
    const projectPath = String((req.params as Record<string, string>)[0]);
    const accept = async (): Promise<Accepted> => {
      const projectId = await deps.projects.projectIdOf(projectPath);
      if (projectId === null) throw new NotFoundError('Project');
      const integration = await inUnitOfWork(deps.orm, () => deps.integrations.forEndpoint(projectId, endpointOf(req)));
      if (!integration) throw new NotFoundError();
      const key = keyOf(req);
      if (!key || !deps.integrations.accepts(integration, key)) throw new UnauthorizedError();
      return { projectId, integration };
    };
    accept().then(
      (accepted) => {
        res.locals[ACCEPTED] = accepted;
        next();
      },
      (error: unknown) => {
        // The body is not wanted: drain it so that the connection can serve the next request.
        req.resume();
        next(error);
      },
    );
  };

  const receive = (read: (body: unknown, receivedAt: Date) => IncomingAlert[]) => (req: Request, res: Response, next: NextFunction) => {
    const { projectId, integration } = res.locals[ACCEPTED] as Accepted;
    const work = async () => {
      const alerts = read(req.body, new Date());
      await inUnitOfWork(deps.orm, () =>
        deps.alerts.receive({ projectId, source: { integrationId: integration.id, type: integration.integrationType }, alerts }),
      );
      res.status(200).json({});
    };
    work().catch(next);
  };

  router.post(
    /^\/(.+)\/prometheus\/alerts\/notify\.json$/,
    authenticate(() => ({ kind: 'prometheus' })),
    jsonBody,
    receive(prometheusAlerts),
  );
  router.post(
    /^\/(.+)\/alerts\/notify\/[^/]+\/([^/]+)\.json$/,
    authenticate((req) => ({ kind: 'identified', endpointIdentifier: String((req.params as Record<string, string>)[1]) })),
    jsonBody,
    receive((body, receivedAt) => [genericAlert(body, receivedAt)]),
  );
  router.post(
    /^\/(.+)\/alerts\/notify\.json$/,
    authenticate(() => ({ kind: 'generic' })),
    jsonBody,
    receive((body, receivedAt) => [genericAlert(body, receivedAt)]),
  );
  return router;
}
