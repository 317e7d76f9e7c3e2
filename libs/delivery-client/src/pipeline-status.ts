/** GitLab's words for each CI status (`Ci::Status`), as its `detailed_status` shows them. */
const STATUS_WORDS: Record<string, { text: string; label: string }> = {
  created: { text: 'Created', label: 'created' },
  pending: { text: 'Pending', label: 'pending' },
  running: { text: 'Running', label: 'running' },
  success: { text: 'Passed', label: 'passed' },
  failed: { text: 'Failed', label: 'failed' },
  canceled: { text: 'Canceled', label: 'canceled' },
  skipped: { text: 'Skipped', label: 'skipped' },
};

/**
 * GitLab's `detailed_status` of a pipeline (no actions: nothing is retried or canceled here), the
 * same in delivery's pipeline views and in the copies of a pipeline other services show.
 */
export function detailedStatusView(status: string, detailsPath: string) {
  const { text, label } = STATUS_WORDS[status] ?? { text: status, label: status };
  return {
    icon: `status_${status}`,
    text,
    label,
    group: status,
    tooltip: label,
    has_details: true,
    details_path: detailsPath,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_status_${status}.png`,
  };
}
