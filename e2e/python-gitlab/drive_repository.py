"""Drives the repository API with python-gitlab: files, commits, tree, archive, branches and tags, and the talk around them.

Reads GITLAB_URL and GITLAB_ROOT_TOKEN from the environment, asserts what it sees, and prints one
JSON object of facts for the calling test (which clones the project to read the writes back);
any failure exits non-zero.
"""
import base64
import io
import json
import os
import tarfile
import time
import zipfile

import gitlab

url = os.environ["GITLAB_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["GITLAB_ROOT_TOKEN"])
root.auth()
project = root.projects.create({"name": "py-repo"})
facts = {"project_path": project.path_with_namespace}

# Project.files: the first file creates the default branch of the empty repository.
project.files.create({"file_path": "README.md", "branch": "main", "content": "hello\n", "commit_message": "Add README"})
readme = project.files.get(file_path="README.md", ref="main")
facts["readme"] = readme.decode().decode()
readme.content = base64.b64encode(b"hello again\n").decode()
readme.encoding = "base64"
readme.save(branch="main", commit_message="Update README")
facts["raw_readme"] = project.files.raw(file_path="README.md", ref="main").decode()
project.files.create({"file_path": "docs/old.md", "branch": "main", "content": "old", "commit_message": "Add old"})
project.files.delete(file_path="docs/old.md", branch="main", commit_message="Remove old")
try:
    project.files.create({"file_path": "README.md", "branch": "main", "content": "x", "commit_message": "again"})
    facts["existing_file_refusal"] = None
except gitlab.exceptions.GitlabCreateError as error:
    facts["existing_file_refusal"] = [error.response_code, error.error_message]

# Project.commits.create: several actions in one commit.
commit = project.commits.create(
    {
        "branch": "main",
        "commit_message": "Add the app",
        "actions": [
            {"action": "create", "file_path": "src/app.py", "content": "print('hi')\n"},
            {"action": "create", "file_path": "src/run.sh", "content": "#!/bin/sh\n", "execute_filemode": True},
            {"action": "update", "file_path": "README.md", "content": "the app\n"},
        ],
    }
)
facts["commit_title"] = commit.title
facts["commit_files"] = sorted(diff["new_path"] for diff in commit.diff(get_all=True))

# Project.repository_tree and Project.repository_archive.
facts["tree"] = sorted(entry["path"] for entry in project.repository_tree(recursive=True, get_all=True))
archive = project.repository_archive(sha="main", format="zip")
facts["zip_names"] = sorted(name.split("/", 1)[1] for name in zipfile.ZipFile(io.BytesIO(archive)).namelist() if not name.endswith("/"))
tarball = project.repository_archive(sha="main")
with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archived:
    facts["tar_names"] = sorted(member.name.split("/", 1)[1] for member in archived.getmembers() if member.isfile())

# Branches: created, cherry-picked onto, deleted; merged ones cleaned up.
project.branches.create({"branch": "feature", "ref": "main"})
fix = project.commits.create(
    {"branch": "feature", "commit_message": "Fix the app", "actions": [{"action": "update", "file_path": "src/app.py", "content": "print('fixed')\n"}]}
)
fix.cherry_pick(branch="main")
facts["picked_app"] = project.files.raw(file_path="src/app.py", ref="main").decode()
project.commits.get(project.branches.get("main").commit["id"]).revert(branch="main")
facts["reverted_app"] = project.files.raw(file_path="src/app.py", ref="main").decode()
project.branches.create({"branch": "done", "ref": "main~1"})
project.delete_merged_branches()
project.branches.delete("feature")
facts["branches"] = sorted(branch.name for branch in project.branches.list(get_all=True))

# Project.tags: lightweight and annotated, listed, read, deleted.
project.tags.create({"tag_name": "v1.0", "ref": "main"})
annotated = project.tags.create({"tag_name": "v1.1", "ref": "main", "message": "Release 1.1"})
facts["annotated_message"] = annotated.message
facts["tags"] = [tag.name for tag in project.tags.list(order_by="version", sort="asc", get_all=True)]
facts["tag_commit"] = project.tags.get("v1.0").commit["id"] == project.branches.get("main").commit["id"]
project.tags.delete("v1.0")
facts["tags_after_delete"] = [tag.name for tag in project.tags.list(get_all=True)]

# Discussions: a diff thread on a merge request's change, replied to and resolved; its state events.
talk = project.commits.create(
    {"branch": "talk", "start_branch": "main", "commit_message": "Talk", "actions": [{"action": "update", "file_path": "README.md", "content": "the app\nand more\n"}]}
)
mr = project.mergerequests.create({"source_branch": "talk", "target_branch": "main", "title": "Talk"})
refs = project.mergerequests.get(mr.iid).diff_refs
position = {**refs, "position_type": "text", "old_path": "README.md", "new_path": "README.md", "new_line": 2}
thread = mr.discussions.create({"body": "Why more?", "position": position})
thread.notes.create({"body": "Because"})
facts["mr_thread"] = [[note["type"], note["body"]] for note in mr.discussions.get(thread.id).attributes["notes"]]
facts["mr_thread_line"] = thread.attributes["notes"][0]["position"]["new_line"]
facts["blocking_before"] = project.mergerequests.get(mr.iid).blocking_discussions_resolved
thread.resolved = True
thread.save()
facts["blocking_after"] = project.mergerequests.get(mr.iid).blocking_discussions_resolved
mr.state_event = "close"
mr.save()
facts["mr_state_events"] = []
deadline = time.monotonic() + 10
while not facts["mr_state_events"] and time.monotonic() < deadline:
    facts["mr_state_events"] = [event.state for event in mr.resourcestateevents.list()]
    time.sleep(0.1)

# Issue notes and discussions.
issue = project.issues.create({"title": "Plan"})
note = issue.notes.create({"body": "Noted"})
note.body = "Noted well"
note.save()
issue.discussions.create({"body": "Let us talk"})
facts["issue_notes"] = sorted(note.body for note in issue.notes.list())
facts["issue_discussions"] = [discussion.individual_note for discussion in issue.discussions.list()]

# Commit comments, one on a line the commit added.
commit = project.commits.get(talk.id)
commit.comments.create({"note": "Nice"})
commit.comments.create({"note": "More!", "path": "README.md", "line": 2, "line_type": "new"})
facts["commit_comments"] = [[comment.note, comment.path, comment.line] for comment in commit.comments.list()]

print(json.dumps(facts))
