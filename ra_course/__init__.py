"""ra_course: the course's own code, beside the engine: exercise checks and notebook helpers.

* `ra_course.exercises`: the auto-checked exercise sheets' checks (``grade``, ``start``);
* `ra_course.evidence`: what the teaching notebooks use to state a finding and check it;
* `ra_course.clustered`: intervals with the cluster as the unit (the game, the student), for a
  mean, a share and a slope.

Standard library only, so it runs in Pyodide (JupyterLite) too. The teacher's hidden tests and
reference answers are not here: they live in the repository's ``grading/`` folder, which is
never installed.
"""
