/** Every event review publishes, declared once; consumers decode them through these definitions. */
import { defineEvent } from '@platform/events';
import { RepositoryPushed } from '@platform/proto/review/v1/events';

/** Review's events travel on one topic, keyed by the project id. */
export const REVIEW_TOPIC = 'review.events';

export const reviewEvents = {
  repositoryPushed: defineEvent('review.repository.pushed', RepositoryPushed, { topic: REVIEW_TOPIC }),
};
