"""The light distribution's files: the audit's packages and the few course modules it reads, from ../../src."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SRC = Path(__file__).resolve().parents[2] / "src"
# The course modules the audit imports (its command, messages, lesson links); every module of these packages is kept.
WHOLE = ("celerylab.audit", "celerylab.audit.rules", "celerylab.i18n")
MODULES = {
    "celerylab": {"__init__", "cli", "course", "machine_needs", "rule_lessons"},
    "celerylab.commands": {"__init__", "_common", "audit"},
    "celerylab.stack": {"__init__", "errors"},
    "celerylab.compiler": {"__init__", "blocks", "errors", "markers", "model", "parser", "sections"},
}


class AuditModulesOnly(build_py):
    """Of the partly shipped packages, only the modules MODULES names."""

    def find_package_modules(self, package, package_dir):
        found = super().find_package_modules(package, package_dir)
        return [each for each in found if package in WHOLE or each[1] in MODULES.get(package, ())]


setup(
    package_dir={"": str(SRC)},
    packages=[*MODULES, *WHOLE],
    package_data={
        "celerylab": ["course.yml", "lessons/*/lesson.md", "lessons/*/messages.yml"],
        "celerylab.i18n": ["*.yml"],
        "celerylab.audit": ["messages.yml"],
    },
    include_package_data=False,
    cmdclass={"build_py": AuditModulesOnly},
)
