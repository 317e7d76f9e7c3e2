"""Drives the platform with python-gitlab, a client independent of the platform's own code.

Reads GITLAB_URL, GITLAB_ROOT_TOKEN and SSH_PUBLIC_KEY from the environment, asserts what it
sees, and prints one JSON object of facts for the calling test; any failure exits non-zero.
"""
import base64
import io
import json
import os
import sys
import time

import gitlab

url = os.environ["GITLAB_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["GITLAB_ROOT_TOKEN"])
root.auth()
facts = {"root": root.user.username, "version": root.version()[0]}

# Users: create, edit (JSON body), list with a Grape boolean spelled as Python does (True).
user = root.users.create(
    {"email": "py@example.com", "username": "py-user", "name": "Py User", "password": "a-long-enough-password"}
)
user.location = "Porto"
user.save()
facts["location"] = root.users.get(user.id).location
facts["active_usernames"] = sorted(u.username for u in root.users.list(active=True, get_all=True))

# Keys: an SSH key for the user, listed back.
user.keys.create({"title": "py laptop", "key": os.environ["SSH_PUBLIC_KEY"]})
facts["key_titles"] = [key.title for key in user.keys.list()]

# Tokens: issued by the administrator, used by the user, listed, revoked.
token = user.personal_access_tokens.create({"name": "py-token", "scopes": ["api"]})
as_user = gitlab.Gitlab(url, private_token=token.token)
as_user.auth()
facts["token_user"] = as_user.user.username
facts["own_token_names"] = [t.name for t in as_user.personal_access_tokens.list()]

# Groups and projects.
group = root.groups.create({"name": "Py Group", "path": "py-group", "visibility": "internal"})
project = root.projects.create({"name": "py-project", "namespace_id": group.id})
facts["project_path"] = project.path_with_namespace

# Access requests: the user asks for access to the group; the administrator approves as developer.
as_user.groups.get(group.id, lazy=True).accessrequests.create({})
requests = group.accessrequests.list()
facts["requesters"] = [request.username for request in requests]
requests[0].approve(access_level=gitlab.const.AccessLevel.DEVELOPER)

# Members: the approved requester is a developer; add them to the project as a maintainer.
facts["group_members"] = {m.username: m.access_level for m in group.members.list(get_all=True)}
project.members.create({"user_id": user.id, "access_level": gitlab.const.AccessLevel.MAINTAINER})
facts["project_members"] = {m.username: m.access_level for m in project.members.list(get_all=True)}
facts["visible_to_user"] = [p.path_with_namespace for p in as_user.projects.list(membership=True, get_all=True)]

# Transfers: a subgroup moves under another group, then to the top level; a project moves by namespace path.
sub = root.groups.create({"name": "Py Sub", "path": "py-sub", "parent_id": group.id})
target = root.groups.create({"name": "Py Target", "path": "py-target"})
tool = root.projects.create({"name": "py-tool", "namespace_id": sub.id})
sub.transfer(target.id)
facts["transferred_group"] = root.groups.get(sub.id).full_path
facts["transferred_group_project"] = root.projects.get(tool.id).path_with_namespace
sub.transfer()
facts["promoted_group"] = root.groups.get(sub.id).full_path
tool.transfer("py-target")
facts["transferred_project"] = root.projects.get(tool.id).path_with_namespace
try:
    tool.transfer(target.id)
except gitlab.exceptions.GitlabTransferProjectError as error:
    facts["transfer_refusal"] = [error.response_code, error.error_message]
try:
    root.groups.get(target.id).transfer()
except gitlab.exceptions.GitlabGroupTransferError as error:
    facts["group_transfer_refusal"] = [error.response_code, error.error_message]

# Avatars: a group's avatar uploaded as a file (python-gitlab sends it as multipart), downloaded back.
png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGO4CQAAwgDBKDKz0wAAAABJRU5ErkJggg==")
pictured = root.groups.get(target.id)
pictured.avatar = io.BytesIO(png)
pictured.save()
facts["group_avatar_url"] = root.groups.get(target.id).avatar_url
facts["group_avatar_downloaded"] = root.http_get(f"/groups/{target.id}/avatar", raw=True).content == png

# Keys by id and by fingerprint, with their owner (administrators).
py_key = user.keys.list()[0]
facts["key_by_id_owner"] = root.keys.get(py_key.id).user["username"]
facts["key_by_fingerprint_title"] = root.keys.get(fingerprint=os.environ["SSH_KEY_FINGERPRINT"]).title

# Emails: a secondary email confirmed by the administrator, and one the user adds unconfirmed.
user.emails.create({"email": "py-work@example.com", "skip_confirmation": True})
as_user.user.emails.create({"email": "py-home@example.com"})
facts["user_emails"] = {e.email: e.confirmed_at is not None for e in user.emails.list(get_all=True)}

# Memberships, a user's projects, user activities, namespace existence, a project's groups and storage.
facts["memberships"] = sorted((m.source_type, m.access_level) for m in user.memberships.list(get_all=True))
personal = as_user.projects.create({"name": "py-own", "visibility": "public"})
facts["user_projects"] = [p.path_with_namespace for p in root.users.get(user.id).projects.list(get_all=True)]
facts["activities_listed"] = isinstance(root.user_activities.list(get_all=True), list)
facts["namespace_exists"] = root.namespaces.exists("py-group").attributes
facts["namespace_free"] = root.namespaces.exists("py-nowhere").attributes
facts["project_groups"] = [g["full_path"] for g in root.http_list(f"/projects/{project.id}/groups", get_all=True)]
facts["project_storage"] = sorted(project.storage.get().attributes)

# A blocked user's token is refused with GitLab's 403 and its reason, once the gateway heard of the block.
blocked = root.users.create(
    {"email": "py-blocked@example.com", "username": "py-blocked", "name": "Py Blocked", "password": "a-long-enough-password"}
)
blocked_token = blocked.personal_access_tokens.create({"name": "py-blocked", "scopes": ["api"]})
gitlab.Gitlab(url, private_token=blocked_token.token).auth()
blocked.block()
facts["blocked_refusal"] = None
deadline = time.monotonic() + 5
while facts["blocked_refusal"] is None and time.monotonic() < deadline:
    try:
        gitlab.Gitlab(url, private_token=blocked_token.token).auth()
        time.sleep(0.1)
    except gitlab.exceptions.GitlabError as error:
        facts["blocked_refusal"] = [error.response_code, error.error_message]

# Revoking the token ends it: refused with 401 once the gateway's cache has heard of it (bounded).
root.personal_access_tokens.delete(token.id)
facts["revoked_token_refused"] = False
deadline = time.monotonic() + 5
while not facts["revoked_token_refused"] and time.monotonic() < deadline:
    try:
        gitlab.Gitlab(url, private_token=token.token).auth()
        time.sleep(0.1)
    except gitlab.exceptions.GitlabAuthenticationError as error:
        facts["revoked_token_refused"] = error.response_code == 401

json.dump(facts, sys.stdout)
