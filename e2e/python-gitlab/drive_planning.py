"""Drives planning with python-gitlab: group milestones, label subscriptions, issue links, related merge requests, milestone promotion.

Reads GITLAB_URL and GITLAB_ROOT_TOKEN from the environment and prints one JSON object of facts
for the calling test; any failure exits non-zero.
"""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["GITLAB_ROOT_TOKEN"])
root.auth()
group = root.groups.create({"name": "py-plan", "path": "py-plan"})
project = root.projects.create({"name": "py-plan-app", "namespace_id": group.id})
project.files.create({"file_path": "README.md", "branch": "main", "content": "plan\n", "commit_message": "Add README"})
project.commits.create(
    {"branch": "feature", "start_branch": "main", "commit_message": "Feature", "actions": [{"action": "create", "file_path": "feature.txt", "content": "f\n"}]}
)
facts = {}

# Group.milestones: created, listed, read, changed; its issues and merge requests.
milestone = group.milestones.create({"title": "Q1", "due_date": "2030-03-31"})
facts["group_milestones"] = [[m.title, m.group_id] for m in group.milestones.list(state="active")]
milestone = group.milestones.get(milestone.id)
milestone.description = "First quarter"
milestone.save()
facts["group_milestone"] = {key: group.milestones.get(milestone.id).attributes[key] for key in ("title", "description", "due_date", "state")}
issue = project.issues.create({"title": "Plan it", "milestone_id": milestone.id})
mr = project.mergerequests.create(
    {"source_branch": "feature", "target_branch": "main", "title": "Do it", "description": f"Closes #{issue.iid}", "milestone_id": milestone.id}
)
shown = project.mergerequests.get(mr.iid).milestone
facts["mr_milestone"] = [shown["group_id"] == group.id, shown["web_url"] == f"{url}/groups/py-plan/-/milestones/{milestone.iid}"]
facts["milestone_issues"] = [item.title for item in milestone.issues()]
facts["milestone_merge_requests"] = [item.title for item in milestone.merge_requests()]

# Project labels: subscribe and unsubscribe.
label = project.labels.create({"name": "bug", "color": "#ff0000"})
label.subscribe()
facts["label_subscribed"] = [label.subscribed, project.labels.get("bug").subscribed]
label.unsubscribe()
facts["label_unsubscribed"] = [label.subscribed, project.labels.get("bug").subscribed]

# Issue links: created, listed, deleted.
other = project.issues.create({"title": "Blocked"})
source, target = issue.links.create({"target_project_id": project.id, "target_issue_iid": other.iid, "link_type": "blocks"})
facts["link_ends"] = [source.iid, target.iid] == [issue.iid, other.iid]
links = issue.links.list()
facts["links"] = [[link.iid, link.link_type] for link in links]
issue.links.delete(links[0].issue_link_id)
facts["links_after_delete"] = [link.iid for link in issue.links.list()]

# Related merge requests: the merge request closing the issue mentions it.
facts["related_merge_requests"] = [item["title"] for item in issue.related_merge_requests()]

# A project milestone promoted to the group: its issue follows.
promoted = project.milestones.create({"title": "Launch"})
planned = project.issues.create({"title": "Launch it", "milestone_id": promoted.id})
facts["promote_answer"] = promoted.promote()
facts["after_promotion"] = {
    "group_titles": sorted(m.title for m in group.milestones.list()),
    "project_titles": [m.title for m in project.milestones.list()],
    "issue_milestone": [project.issues.get(planned.iid).milestone[key] for key in ("title", "group_id")],
}
solo = root.projects.create({"name": "py-plan-solo"})
try:
    solo.milestones.create({"title": "Alone"}).promote()
    facts["promotion_refusal"] = None
except gitlab.exceptions.GitlabPromoteError as error:
    facts["promotion_refusal"] = [error.response_code, error.error_message]

print(json.dumps(facts))
