"""ra_course: the course's own code, beside the engine: exercise checks and notebook helpers.

* `ra_course.exercises`: the auto-checked exercise sheets' checks (``grade``, ``start``);
* `ra_course.evidence`: what the teaching notebooks use to state a finding and check it;
* `ra_course.clustered`: intervals with the cluster as the unit (the game, the student), for a
  mean, a share and a slope;
* `ra_course.affiliated`, `ra_course.multiunit`, `ra_course.sequential`: the exact theory of
  notebooks 15-17 (affiliated values, multi-unit and sequential auctions);
* `ra_course.price_path`: Ra as a sequence of auctions, the price and the lot's value auction by
  auction, from bot games or the classroom's database.

Standard library only, so it runs in Pyodide (JupyterLite) too. The teacher's hidden tests and
reference answers are not here: they live in the repository's ``grading/`` folder, which is
never installed.
"""
