import { NotFoundError } from '@platform/errors';
import { reply } from '@platform/http';
import type { AvatarStorage } from './avatar-storage.ts';

/** An avatar as GitLab's download endpoints send it: the file, as an attachment under its name; 404 Avatar Not Found without one. */
export async function avatarDownload(avatars: AvatarStorage, avatarPath: string | null | undefined) {
  const file = avatarPath ? await avatars.read(avatarPath) : null;
  if (!file) throw new NotFoundError('Avatar');
  return reply({
    headers: { 'Content-Type': file.type, 'Content-Disposition': `attachment; filename="${file.filename}"` },
    body: file.content,
  });
}
