"""How lesson 01 shows what it measured: translated facts, real source code, tables and timeline plots."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    notebook_views.facts("l01", **facts)


def say(key: str, **values) -> None:
    """Print one translated sentence."""
    print(t(key, **values))


def reveal(guess, measured, why: str) -> None:
    """A prediction graded against the measurement: what you said, what ran, right or wrong, and why."""
    if guess is None:
        verdict = t("l01.predict.none")
    else:
        verdict = t("l01.predict.right" if str(guess) == str(measured) else "l01.predict.wrong")
    print(t("l01.predict.line", guess="-" if guess is None else guess, measured=measured, verdict=verdict))
    print(t(why))


def show(function) -> None:
    notebook_views.source(function)


def table(rows: list[dict], columns: list[str]) -> None:
    notebook_views.table("l01", rows, columns)


def corrections(measured: dict[str, dict]) -> None:
    """The closing table: each corrected claim (translated) and what this page measured instead."""
    rows = [{"claim": t(f"l01.claim.{name}"), "measured": t(f"l01.measured.{name}", **values)}
            for name, values in measured.items()]
    for row in rows:
        print(f"- {row['claim']}\n  → {row['measured']}")


def plot_attempts(timeline: dict[str, list]):
    """One row per task, one dot per attempt, seconds since the task's first attempt."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 3.6), layout="constrained")
    row = 0
    for kind, color in (("flaky", "tab:red"), ("flaky_jitter", "tab:blue")):
        for index, task in enumerate(timeline[kind]):
            label = t("l01.plot." + kind) if index == 0 else None
            axes.scatter(task["attempts"], [row] * len(task["attempts"]), color=color, label=label, s=40)
            axes.plot(task["attempts"], [row] * len(task["attempts"]), color=color, alpha=0.3)
            row += 1
    axes.set_xlabel(t("l01.plot.seconds"))
    axes.set_yticks([])
    axes.set_title(t("l01.plot.title"))
    figure.legend(loc="outside lower center", ncols=2, frameon=False)  # below the axes: it hid the last attempts
    return figure
