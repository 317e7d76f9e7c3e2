import { renderMarkdown } from '@platform/http/markdown';
import type { ListedLabel } from './labels-service.ts';
import { textColorOf } from './label-color.ts';
import type { LabelCounts } from './labels-store.ts';

/** GitLab's `LabelBasic`: how merge requests and issues show their labels with `with_labels_details=true`. */
export function labelBasicView(label: Pick<ListedLabel, 'id' | 'title' | 'color' | 'description'>) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: renderMarkdown(label.description ?? ''),
    text_color: textColorOf(label.color),
  };
}

/** GitLab's `ProjectLabel`, with the counts GitLab shows; `subscribed` for the caller. */
export function projectLabelView(label: ListedLabel, counts: LabelCounts | undefined, subscribed: boolean) {
  return {
    ...labelBasicView(label),
    open_issues_count: counts?.openIssues ?? 0,
    closed_issues_count: counts?.closedIssues ?? 0,
    open_merge_requests_count: counts?.openMergeRequests ?? 0,
    subscribed,
    priority: label.priority,
    is_project_label: label.isProjectLabel,
  };
}
