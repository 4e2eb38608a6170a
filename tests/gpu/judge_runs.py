"""Shared by the GPU tests' judges: each judge returns the problems it found in one tuning run
(none: it passed); report() prints one line per judge and the totals."""


def report(verdicts):
    """verdicts: (name, problems) pairs. Prints them and "N passed, M failed"; returns 1 if any
    failed, else 0 (the exit status)."""
    failed = 0
    for name, problems in verdicts:
        print(f"{'FAILED' if problems else 'passed'} {name}")
        for problem in problems:
            print(f"  {problem}")
        failed += 1 if problems else 0
    print(f"{len(verdicts) - failed} passed, {failed} failed")
    return 1 if failed else 0
