import { z } from 'zod';
import { params } from '@platform/http';

export const transferProjectParams = z.object({ id: params.idOrPath(), namespace: params.idOrPath() });
