import { describe, expect, it } from '@jest/globals';
import { routeFor } from './route-table.ts';

describe('route table', () => {
  it.each([
    ['/api/v4/user', 'identity'],
    ['/api/v4/users/5', 'identity'],
    ['/api/v4/users/5/personal_access_tokens', 'identity'],
    ['/api/v4/audit_events', 'audit'],
    ['/api/v4/hooks', 'hooks'],
    ['/api/v4/hooks/3', 'hooks'],
    ['/api/v4/projects/acme%2Fplatform/hooks/4/events', 'hooks'],
    ['/api/v4/groups/7/hooks/2/test/push_events', 'hooks'],
    ['/api/v4/application/settings', 'admin'],
    ['/api/v4/admin/ci/variables', 'admin'],
    ['/api/v4/admin/ci/variables/DEPLOY_KEY', 'admin'],
    ['/api/v4/projects/acme%2Fapp/variables', 'admin'],
    ['/api/v4/groups/7/variables/DEPLOY_KEY', 'admin'],
    ['/api/v4/projects/7/packages', 'packages'],
    ['/api/v4/projects/7/environments', 'delivery'],
    ['/api/v4/projects/acme%2Fapp/deployments/3/merge_requests', 'delivery'],
    ['/api/v4/projects/7/feature_flags/new_ui', 'delivery'],
    ['/api/v4/projects/7/feature_flags_user_lists/1', 'delivery'],
    ['/api/v4/projects/7/feature_flags_client/reset_token', 'delivery'],
    ['/api/v4/feature_flags/unleash/7/client/features', 'delivery'],
    ['/api/v4/projects/7/statuses/0123abc', 'delivery'],
    ['/api/v4/projects/acme%2Fapp/repository/commits/0123abc/statuses', 'delivery'],
    ['/api/v4/projects/7/pipelines/12', 'delivery'],
    ['/api/v4/projects/7/repository/commits/0123abc/refs', 'review'],
    ['/api/v4/projects/acme%2Fapp/packages/npm/@acme%2fkit', 'packages'],
    ['/api/v4/groups/acme/packages', 'packages'],
    ['/api/v4/groups/acme/-/packages/maven/com/acme/kit/1.0/kit-1.0.pom', 'packages'],
    ['/api/v4/projects/7/packages/maven/com/acme/kit/1.0/kit-1.0.jar.sha1', 'packages'],
    ['/api/v4/packages/npm/@acme%2fkit', 'packages'],
    ['/api/v4/packages/maven/com/acme/kit/1.0/kit-1.0.jar', 'packages'],
    ['/api/v4/audit_events/3', 'audit'],
    ['/api/v4/events', 'audit'],
    ['/api/v4/users/ada/events', 'audit'],
    ['/api/v4/projects/acme%2Fplatform/events', 'audit'],
    ['/api/v4/groups/my-group%2Fsub/audit_events', 'audit'],
    ['/api/v4/projects/7/audit_events/1', 'audit'],
    ['/api/v4/projects/7', 'identity'],
    ['/api/scim/v2/groups/acme/Users', 'identity'],
    ['/api/v4/projects/7/repository/branches', 'review'],
    ['/api/v4/projects/acme%2Fapp/repository/branches/feature%2Fx', 'review'],
    ['/api/v4/projects/7/repository/commits/abc123', 'review'],
    ['/api/v4/projects/7/repository/merged_branches', 'review'],
    ['/api/v4/projects/acme%2Fapp/repository/tags/v1.0', 'review'],
    ['/api/v4/projects/7/repository/files/lib%2Fclass.rb/raw', 'review'],
    ['/api/v4/projects/7/repository/tree', 'review'],
    ['/api/v4/projects/7/repository/blobs/abc123', 'review'],
    ['/api/v4/projects/7/repository/archive.tar.gz', 'review'],
    ['/api/v4/projects/7/repository/compare', 'review'],
    ['/api/v4/projects/7/repository/merge_base', 'review'],
    ['/api/v4/projects/7/protected_branches/release%2F*', 'review'],
    ['/api/v4/projects/7/protected_tags/v*', 'review'],
    ['/api/v4/projects/7/merge_requests/1/versions', 'review'],
    ['/api/v4/projects/7/approvals', 'review'],
    ['/api/v4/projects/acme%2Fapp/approval_rules/3', 'review'],
    ['/api/v4/projects/7/approvers', 'review'],
    ['/api/v4/groups/acme/merge_requests', 'review'],
    ['/api/v4/merge_requests', 'review'],
    ['/api/v4/todos', 'review'],
    ['/api/v4/todos/3/mark_as_done', 'review'],
    ['/api/v4/user_counts', 'review'],
    ['/api/v4/projects/7/labels', 'review'],
    ['/api/v4/projects/acme%2Fapp/labels/bug%20fix', 'review'],
    ['/api/v4/projects/7/milestones/3', 'review'],
    ['/api/v4/groups/acme%2Fteam/labels/bug', 'review'],
    ['/api/v4/groups/acme%2Fteam/milestones/3/issues', 'review'],
    ['/api/v4/projects/7/issues', 'review'],
    ['/api/v4/projects/acme%2Fapp/issues/3', 'review'],
    ['/api/v4/projects/7/merge_requests/1/closes_issues', 'review'],
    ['/acme/sub/app.git/info/refs', 'review'],
    ['/acme/app.git/git-upload-pack', 'review'],
    ['/acme/app.git/git-receive-pack', 'review'],
    ['/api/v4/version', 'identity'],
    ['/api/v4/metadata', 'identity'],
    ['/api/v4/personal_access_tokens/self', 'identity'],
    ['/api/v4/deploy_tokens', 'identity'],
    ['/api/v4/deploy_keys', 'identity'],
    ['/api/v4/keys/3', 'identity'],
    ['/api/v4/keys', 'identity'],
    ['/uploads/-/system/project/avatar/7/logo.png', 'identity'],
    ['/uploads/-/system/user/avatar/1/me.jpg', 'identity'],
    ['/api/v4/projects/7/alert_management/http_integrations', 'alerts'],
    ['/api/v4/projects/acme%2Fapp/alert_management/alerts/3', 'alerts'],
    ['/api/v4/projects/7/alert_management/incidents', 'alerts'],
    ['/acme/app/alerts/notify.json', 'alerts'],
    ['/acme/sub/app/alerts/notify/grafana/0123456789abcdef.json', 'alerts'],
    ['/acme/app/prometheus/alerts/notify.json', 'alerts'],
  ])('sends %s to %s', (path, service) => {
    expect(routeFor(path)?.service).toBe(service);
  });

  it("sends issues of type incident to alerts, other issues to review's tracker", () => {
    expect(routeFor('/api/v4/projects/7/issues', new URLSearchParams('issue_type=incident&state=opened'))?.service).toBe('alerts');
    expect(routeFor('/api/v4/projects/7/issues', new URLSearchParams('state=opened'))?.service).toBe('review');
    expect(routeFor('/api/v4/projects/7/issues', new URLSearchParams('issue_type=issue'))?.service).toBe('review');
  });

  it('lets alert intake authenticate itself, with an integration key', () => {
    expect(routeFor('/acme/app/alerts/notify.json')?.ownAuthentication).toBe(true);
    expect(routeFor('/api/v4/projects/7/alert_management/alerts')?.ownAuthentication).toBeUndefined();
  });

  it.each([
    ['/acme/app.git/info/refs', true],
    ['/api/v4/packages/npm/@acme%2fkit/-/@acme/kit-1.0.0.tgz', true],
    ['/api/v4/projects/7/packages/maven/com/acme/kit/1.0/kit-1.0.jar', true],
    ['/api/v4/projects/7/merge_requests/1/diffs', true],
    ['/api/v4/projects/7/merge_requests/1/changes', true],
    ['/uploads/-/system/user/avatar/1/me.jpg', true],
    ['/api/v4/user', false],
    ['/api/v4/projects/7/merge_requests/1', false],
    ['/api/v4/projects/7/merge_requests/1/approvals', false],
    ['/api/v4/projects/7/repository/branches', false],
    ['/api/v4/projects/7/repository/archive', true],
    ['/api/v4/projects/7/repository/archive.zip', true],
    ['/api/v4/projects/7/repository/files/big.bin/raw', true],
    ['/api/v4/projects/7/repository/blobs/abc123/raw', true],
    ['/api/v4/projects/7/repository/tree', false],
  ])('bounds reads of %s by the response timeout: %s', (path, slow) => {
    expect(routeFor(path)?.slowReads ?? false).toBe(slow);
  });

  it('owns no other path', () => {
    expect(routeFor('/api/v4/usersx')).toBeUndefined();
    expect(routeFor('/api/v3/user')).toBeUndefined();
    expect(routeFor('/admin')).toBeUndefined();
    expect(routeFor('/acme/app.git/objects/info/packs')).toBeUndefined();
    expect(routeFor('/api/v4/versions')).toBeUndefined();
    expect(routeFor('/uploads/-/system/note/attachment/1/a.png')).toBeUndefined();
    expect(routeFor('/acme/app/alerts/notify.html')).toBeUndefined();
  });
});
