/**
 * Delivery's pipeline events, as they concern merge requests: review keeps each pipeline's newest
 * version (a merge request's head pipeline) and merges those waiting for it once it succeeds.
 */
import { deliveryEvents } from '@platform/delivery-client';
import { onEvent, type EventHandler } from '@platform/events';
import type { AutoMergeService } from './auto-merge-service.ts';

export function autoMergeEventHandlers(autoMerges: AutoMergeService): EventHandler[] {
  return [
    onEvent(deliveryEvents.pipelineCreated, (pipeline) => autoMerges.onPipeline(pipeline)),
    onEvent(deliveryEvents.pipelineUpdated, (pipeline) => autoMerges.onPipeline(pipeline)),
  ];
}
