"""How lesson 05 shows what it measured: translated tables and facts, a timeline of sends per Beat."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t
from celerylab.lessons.l05_beat.clock import longest_gap, wall


def report(**facts) -> None:
    notebook_views.facts("l05", **facts)


def table(rows: list[dict], columns: list[str]) -> None:
    notebook_views.table("l05", rows, columns)


def plot_sends(panels: dict[str, list[dict]], within: float = 0.25):
    """One panel per case, one row per sender, one dot per execution at the instant it was sent.

    Sends by different senders less than `within` seconds apart are joined by a red bar.
    """
    import matplotlib.pyplot as plt

    figure, axes_list = plt.subplots(len(panels), 1, figsize=(8, 1.0 + 0.75 * sum(
        max(1, len({row["who"] for row in rows})) for rows in panels.values())), sharex=True)
    for axes, (title, rows) in zip(axes_list, panels.items()):
        senders = sorted({row["who"] for row in rows})
        for y, who in enumerate(senders):
            times = [row["sent"] for row in rows if row["who"] == who]
            axes.scatter(times, [y] * len(times), s=30)
        for a, b in zip(rows, rows[1:]):
            if a["who"] != b["who"] and b["sent"] - a["sent"] < within:
                ys = [senders.index(a["who"]), senders.index(b["who"])]
                axes.plot([a["sent"], b["sent"]], ys, color="tab:red", linewidth=2, alpha=0.6)
        axes.set_yticks(range(len(senders)), senders)
        axes.set_ylim(-0.6, len(senders) - 0.4)
        axes.set_title(title, fontsize=10, loc="left")
    axes_list[-1].set_xlabel(t("l05.plot.seconds"))
    figure.tight_layout()
    return figure


def dst_table(nights, every_day) -> None:
    """The daylight-saving nights (experiments dst_nights and daily_timedelta) as one table, in New York time."""
    zone, rows = "America/New_York", []
    for night in nights:
        for label, runs in night.daily.items():
            rows.append({"change": f"{night.day:%m-%d}", "schedule": label, "longest_gap": "",
                         "runs": " | ".join(wall(runs, zone, "%m-%d %H:%M %Z"))})
        for label, runs in night.night.items():
            rows.append({"change": f"{night.day:%m-%d}", "schedule": label, "longest_gap": f"{longest_gap(runs)} min",
                         "runs": f"{len(runs)}: " + ", ".join(wall(runs, zone))})
    rows.append({"change": f"{every_day.runs[0]:%m-%d}", "schedule": "timedelta(days=1)", "longest_gap": "",
                 "runs": " | ".join(wall(every_day.runs, zone, "%m-%d %H:%M %Z"))})
    table(rows, ["change", "schedule", "runs", "longest_gap"])
