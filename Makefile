# Two commands for a fresh machine with Python 3.11+, pip and make:
#   make lab    set up, then open JupyterLab on the teaching notebooks
#   make test   set up, then run every test (unit, property, doctest, notebooks)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: lab play test test-fast bench setup clean student lite course classroom rehearsal server

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebooks,dev,grading,cluster,lite,classroom]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The project's own notebooks are marked trusted first, so that JupyterLab draws their saved boards and
# plots from the SVG; an untrusted notebook (a plain `jupyter lab`) shows the PNG saved beside each one.
lab: $(STAMP)
	$(BIN)/jupyter trust notebooks/*.ipynb notebooks/app/*.ipynb exercises/release/*.ipynb
	$(BIN)/jupyter lab notebooks/

# The game as a standalone app (Voila): title, how-to and the table, no code, for students.
play: $(STAMP)
	$(BIN)/voila notebooks/app/play.ipynb

# A class plays together (ra_classroom): JupyterLab opens the control room notebook (over notebooks/, so that
# notebook 14 is at hand too); its first cell starts the classroom server, open to the class's network on port
# $(CLASS_PORT), with everything stored in $(CLASS_DB) (a SQLite file; or a postgresql:// URL), served by
# $(CLASS_PROCESSES) server processes (2 uses both cores of a 2-core machine: README, "How many students one
# machine holds"); the results go to notebooks/classroom/results/. `make rehearsal` opens the same notebook on
# this machine only, with a throwaway database and simulated students, to try a session before class.
CLASS_PORT ?= 8000
CLASS_DB   ?= $(CURDIR)/class.db
CONTROL_ROOM := --ServerApp.root_dir=notebooks --LabApp.default_url=/lab/tree/classroom/control_room.ipynb
CLASS_PROCESSES ?= 1
classroom: $(STAMP)
	$(BIN)/jupyter trust notebooks/classroom/control_room.ipynb notebooks/14_your_class_as_an_experiment.ipynb
	RA_CLASSROOM_HOST=0.0.0.0 RA_CLASSROOM_PORT=$(CLASS_PORT) RA_CLASSROOM_DATABASE=$(CLASS_DB) \
		RA_CLASSROOM_PROCESSES=$(CLASS_PROCESSES) $(BIN)/jupyter lab $(CONTROL_ROOM)

rehearsal: $(STAMP)
	$(BIN)/jupyter trust notebooks/classroom/control_room.ipynb notebooks/14_your_class_as_an_experiment.ipynb
	$(BIN)/jupyter lab $(CONTROL_ROOM)

# A class on campus Wi-Fi or the internet: on a machine every student reaches (a campus or cloud VM), as root,
# the classroom on PostgreSQL behind Caddy with HTTPS, as two services (deploy/install.sh says how):
# make server SITE=class.example.edu TLS=teacher@example.edu (Let's Encrypt), or SITE=10.20.0.5 (Caddy's own CA).
TLS ?= internal
server:
	deploy/install.sh $(SITE) $(TLS)

# Every test, in $(TEST_WORKERS) pytest-xdist workers (most slow tests wait on a server, a browser or a kernel,
# so more workers than cores still help; TEST_WORKERS=0 runs them in this one process). A file's tests run in one
# worker, in their order (a notebook's cells, a module's server); tests/conftest.py hands out the slowest files first.
TEST_WORKERS ?= 4
test: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The fast tier, for working: every test but the slow kinds (notebooks, browsers, the classroom
# server, fresh kernels, nbgrader, the public callables' search, Pyodide, Dask), which tests/conftest.py
# marks by where they are.
# `make test` (and CI) still runs everything.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

# The student versions of the exercise sheets: exercises/source -> exercises/release, solutions
# replaced by stubs, then run (every check says "not attempted yet"). Commit the result.
# Then the student bundle to hand out, build/student/ra-student.zip: the notebooks, the release
# sheets, the rules and the package's wheel (never exercises/source or grading/).
student: $(STAMP)
	$(BIN)/python tools/make_student.py
	$(BIN)/python tools/student_bundle.py

# A ready nbgrader course folder for the five sheets, outside the clone (exercises/TEACHING.md):
# make course, or make course COURSE=/srv/ra-course for another folder.
COURSE ?= $(HOME)/ra-course
course: $(STAMP)
	$(BIN)/python tools/make_course.py $(COURSE)

# A static JupyterLite site in build/lite for students: the notebooks and the release sheets in a browser
# tab, nothing installed, no internet needed (the Pyodide runtime and wheels are fetched once into
# .cache/lite with npm and pip).
lite: $(STAMP)
	$(BIN)/python tools/build_lite.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/engine_steps.py
	$(BIN)/python benchmarks/widgets.py
	$(BIN)/python benchmarks/classroom.py --students 200 --seconds 60

clean:
	rm -rf $(VENV) build *.egg-info
