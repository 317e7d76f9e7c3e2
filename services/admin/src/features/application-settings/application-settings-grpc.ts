import { inUnitOfWork, type Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import { AdminServiceService, type AdminServiceServer, type GetApplicationSettingsResponse } from '@platform/proto/admin/v1';
import type { ApplicationSettingsService } from './application-settings-service.ts';
import { sharedSettings } from './application-settings.events.ts';

/** The settings other services act on, read at their start; asked on their own behalf only. */
export function applicationSettingsGrpc(options: { orm: Orm; settings: ApplicationSettingsService; logger: Logger }): GrpcServiceBinding {
  const implementation: AdminServiceServer = {
    getApplicationSettings: unaryHandler(options.logger, async (): Promise<GetApplicationSettingsResponse> => {
      const { record, values } = await inUnitOfWork(options.orm, () => options.settings.current());
      return { settings: sharedSettings(values, record.revision) };
    }),
  };
  return { definition: AdminServiceService, implementation, scopes: { getApplicationSettings: 'internal' } };
}
