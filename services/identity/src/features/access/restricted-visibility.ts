import { FieldValidationError } from '@platform/errors';
import type { ApplicationSettings } from '@platform/admin-client';
import type { Viewer } from './access-sql.ts';

/**
 * The application settings' `restricted_visibility_levels`: only administrators may give a group
 * or project one of them, as GitLab refuses it (`public has been restricted by your GitLab administrator`).
 */
export function checkRestrictedVisibility(settings: ApplicationSettings, viewer: Viewer, visibility: string | undefined): void {
  if (visibility === undefined || (viewer.kind === 'user' && viewer.isAdmin)) return;
  if (settings.restrictedVisibilityLevels.includes(visibility)) {
    throw new FieldValidationError({ visibility_level: [`${visibility} has been restricted by your GitLab administrator`] });
  }
}
