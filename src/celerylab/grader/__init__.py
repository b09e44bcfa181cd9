"""The instructor's grader: submissions in, gradebook, feedback and exports out (intake -> prepare -> run -> score)."""
