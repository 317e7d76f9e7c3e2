import { detailedStatusView } from './pipeline-status.ts';

describe('detailedStatusView', () => {
  it("shows a status in GitLab's words, with its details page and favicon", () => {
    expect(detailedStatusView('success', '/fleet/engine/-/pipelines/7')).toEqual({
      icon: 'status_success',
      text: 'Passed',
      label: 'passed',
      group: 'success',
      tooltip: 'passed',
      has_details: true,
      details_path: '/fleet/engine/-/pipelines/7',
      illustration: null,
      favicon: '/assets/ci_favicons/favicon_status_success.png',
    });
  });

  it('shows a status it has no words for as itself', () => {
    expect(detailedStatusView('waiting_for_resource', '/p')).toMatchObject({ text: 'waiting_for_resource', label: 'waiting_for_resource' });
  });
});
