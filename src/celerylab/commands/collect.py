"""`celerylab collect --out DIR [--hub URL --token T]`: every learner's exercises notebooks from JupyterHub."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from celerylab.commands._common import add_lang, add_lessons_dir, command_course
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("collect", help=t("hub.collect.help"))
    parser.add_argument("--out", required=True, metavar="DIR", help=t("hub.collect.out"))
    parser.add_argument("--hub", metavar="URL", help=t("hub.collect.hub"))
    parser.add_argument("--token", help=t("hub.collect.token"))
    parser.add_argument("--prefix", default="clab-", help=t("hub.collect.prefix"))
    parser.add_argument("--all", action="store_true", help=t("hub.collect.all"))
    add_lessons_dir(parser)
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from celerylab.hub import handed_in

    out = Path(args.out)
    if args.hub:
        from celerylab.hub.hub_api import Hub, HubError

        token = args.token or os.environ.get("JUPYTERHUB_API_TOKEN")
        if not token:
            print(t("hub.collect.no_token"), file=sys.stderr)
            return 2
        try:
            learners = Hub(args.hub, token).learners()
        except HubError as problem:
            print(str(problem), file=sys.stderr)
            return 2
    else:
        if os.geteuid() != 0:
            print(t("hub.collect.not_root"), file=sys.stderr)
            return 2
        from celerylab.hub.homes import learners as from_homes

        learners = from_homes(args.prefix)
    if not learners:
        print(t("hub.collect.none", prefix=args.prefix), file=sys.stderr)
        return 1
    dropped = 0 if args.all else handed_in.drop_untouched(learners, command_course(args).output_root / "exercises")
    out.mkdir(parents=True, exist_ok=True)
    written = handed_in.write(learners, out)
    for learner in learners:
        print(t("hub.collect.learner", learner=learner.name, count=len(learner.newest()), problem=learner.problem))
    if dropped:
        print(t("hub.collect.untouched", count=dropped))
    print(t("hub.collect.summary", notebooks=written, learners=len(learners), out=out, roster=out / "roster.csv"))
    return 0
