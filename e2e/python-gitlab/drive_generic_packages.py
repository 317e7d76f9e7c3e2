"""Drives generic packages with python-gitlab's `project.generic_packages`: a multi-megabyte upload
from a file, downloaded back, a file under directories uploaded twice, and the package in the
Packages API.

Reads GITLAB_URL and GITLAB_ROOT_TOKEN from the environment, prints one JSON object of facts.
"""
import hashlib
import json
import os
import tempfile

import gitlab

url = os.environ["GITLAB_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["GITLAB_ROOT_TOKEN"])
root.auth()
project = root.projects.create({"name": "py-generic"})

content = os.urandom(5 * 1024 * 1024 + 3)
with tempfile.NamedTemporaryFile(suffix=".bin") as source:
    source.write(content)
    source.flush()
    uploaded = project.generic_packages.upload(
        package_name="py-tools", package_version="2.0.1", file_name="tools.bin", path=source.name
    )
downloaded = project.generic_packages.download(package_name="py-tools", package_version="2.0.1", file_name="tools.bin")
# A file under directories, uploaded twice: GitLab keeps both and serves the newest.
with tempfile.NamedTemporaryFile(suffix=".txt") as notes:
    for text in (b"first notes", b"second notes"):
        notes.seek(0)
        notes.truncate()
        notes.write(text)
        notes.flush()
        project.generic_packages.upload(
            package_name="py-tools", package_version="2.0.1", file_name="docs/notes.txt", path=notes.name
        )
nested = project.generic_packages.download(package_name="py-tools", package_version="2.0.1", file_name="docs/notes.txt")
packages = project.packages.list(package_type="generic", get_all=True)
print(
    json.dumps(
        {
            "upload_message": uploaded.attributes.get("message"),
            "byte_equal": downloaded == content,
            "sha256": hashlib.sha256(downloaded).hexdigest() == hashlib.sha256(content).hexdigest(),
            "nested": nested.decode(),
            "packages": [[p.name, p.version, p.package_type] for p in packages],
            "files": [[f.file_name, f.size] for f in packages[0].package_files.list()] if packages else [],
        }
    )
)
