"""Drives project and group CI/CD variables with python-gitlab's `variables` managers.

Reads GITLAB_URL and GITLAB_ROOT_TOKEN from the environment, asserts what it sees, and prints one
JSON object of facts for the calling test; any failure exits non-zero.
"""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["GITLAB_ROOT_TOKEN"])
root.auth()
facts = {}

group = root.groups.create({"name": "Vars", "path": "py-vars"})
project = root.projects.create({"name": "vars-app", "namespace_id": group.id})

# Project variables: create, read, update with save(), one key per environment scope, delete.
variable = project.variables.create({"key": "DEPLOY_TOKEN", "value": "first-secret", "masked": True, "protected": True})
facts["project_created"] = variable.attributes | {}
facts["project_created"].pop("project_id", None)
read = project.variables.get("DEPLOY_TOKEN")
read.value = "second-secret"
read.variable_type = "file"
read.save()
facts["project_updated"] = {k: project.variables.get("DEPLOY_TOKEN").attributes[k] for k in ("value", "variable_type", "masked")}
project.variables.create({"key": "DB_URL", "value": "postgres://all"})
project.variables.create({"key": "DB_URL", "value": "postgres://production", "environment_scope": "production"})
facts["project_keys"] = sorted(
    (v.key, v.environment_scope) for v in project.variables.list(get_all=True)
)
try:
    project.variables.get("DB_URL")
except gitlab.exceptions.GitlabGetError as error:
    facts["ambiguous"] = [error.response_code, error.error_message]
facts["filtered_value"] = project.variables.get("DB_URL", filter={"environment_scope": "production"}).value
try:
    project.variables.create({"key": "SHORT", "value": "short", "masked": True})
except gitlab.exceptions.GitlabCreateError as error:
    facts["masked_refusal"] = [error.response_code, error.error_message]
project.variables.delete("DEPLOY_TOKEN")
facts["project_keys_after_delete"] = sorted(v.key for v in project.variables.list(get_all=True))

# Group variables.
group.variables.create({"key": "GROUP_TOKEN", "value": "group-value", "raw": True, "description": "for every project"})
group_variable = group.variables.get("GROUP_TOKEN")
group_variable.protected = True
group_variable.save()
facts["group_variable"] = {k: group.variables.get("GROUP_TOKEN").attributes[k] for k in ("value", "raw", "protected", "description", "environment_scope")}
group.variables.delete("GROUP_TOKEN")
facts["group_keys_after_delete"] = [v.key for v in group.variables.list(get_all=True)]

# A developer of the project may not manage its variables.
user = root.users.create({"email": "py-vars@example.com", "username": "py-vars-dev", "name": "Dev", "password": "a-long-enough-password"})
project.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
as_developer = gitlab.Gitlab(url, private_token=user.personal_access_tokens.create({"name": "dev", "scopes": ["api"]}).token)
try:
    as_developer.projects.get(project.id, lazy=True).variables.list()
except gitlab.exceptions.GitlabListError as error:
    facts["developer_refusal"] = error.response_code

print(json.dumps(facts))
