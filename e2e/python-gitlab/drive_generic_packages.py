"""Drives generic packages with python-gitlab's `project.generic_packages`: a multi-megabyte upload
from a file, downloaded back, and the package in the Packages API.

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
packages = project.packages.list(package_type="generic", get_all=True)
print(
    json.dumps(
        {
            "upload_message": uploaded.attributes.get("message"),
            "byte_equal": downloaded == content,
            "sha256": hashlib.sha256(downloaded).hexdigest() == hashlib.sha256(content).hexdigest(),
            "packages": [[p.name, p.version, p.package_type] for p in packages],
            "files": [[f.file_name, f.size] for f in packages[0].package_files.list()] if packages else [],
        }
    )
)
