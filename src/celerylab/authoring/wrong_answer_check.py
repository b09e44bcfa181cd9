"""Each exercise keeps at least two described wrong answers beside its solution (lNN_slug/wrong_answers/)."""
from __future__ import annotations

from pathlib import Path

from celerylab import wrong_answers
from celerylab.authoring.problems import Problem


def wrong_answer_problems(folder: Path, ids: dict[str, int]) -> list[Problem]:
    """Fewer than two wrong answers for an exercise; one for no declared exercise; one that does not say what it violates."""
    prefix = folder.name.split("_", 1)[0]
    answers = wrong_answers.in_lesson(folder)
    problems = []
    for answer in answers:
        if f"{prefix}.{answer.exercise}" not in ids:
            problems.append(Problem(answer.path, None, "dev.p.wrong_answer_unknown", {"exercise": answer.exercise}))
        elif not answer.described:
            problems.append(Problem(answer.path, 1, "dev.p.wrong_answer_undescribed", {"marker": wrong_answers.VIOLATES}))
    for exercise_id, line in ids.items():
        count = sum(1 for answer in answers if f"{prefix}.{answer.exercise}" == exercise_id)
        if count < wrong_answers.MINIMUM:
            problems.append(Problem(folder / "exercises.yml", line, "dev.p.few_wrong_answers",
                                    {"exercise": exercise_id, "count": count, "minimum": wrong_answers.MINIMUM,
                                     "folder": f"{wrong_answers.FOLDER}/{exercise_id.split('.', 1)[1]}__<slug>.py"}))
    return problems
