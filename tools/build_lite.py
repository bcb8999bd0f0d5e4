"""Build the JupyterLite site: the notebooks and exercise sheets in a browser tab, nothing installed.

    python tools/build_lite.py [OUT]        (or: make lite; OUT defaults to build/lite)

Writes a static site that any static web server can host (GitHub Pages, a university web space,
``python -m http.server``). It is a student's site: it opens on a landing page (``README.md``:
what is where, how to hand work in, and that the work lives in the browser's storage), and holds
the files of the student bundle (tools/student_bundle.py) in the same folders: ``notebooks/``,
``exercises/`` (the student versions of the sheets only) and ``docs/rules.md``. Of the JupyterLab
extensions installed here it carries only those students need (``STUDENT_EXTENSIONS``: the
Pyodide kernel and the widgets' front ends), never a teacher's (nbgrader's menus, Voila's preview).
It also holds JupyterLab with the Pyodide kernel and everything the kernel needs to start and to
run the play notebook, so it works with no internet at all:

* the Pyodide runtime itself, from the npm package ``pyodide`` at the version the installed
  jupyterlite-pyodide-kernel expects, in ``static/pyodide/`` (the kernel's ``pyodideUrl``);
* the pure-Python wheels that the kernel loads at start-up (micropip, IPython and its
  dependencies, comm, the kernel's own wheels), ``ipywidgets`` and a wheel of ``ra_core`` built
  from this tree, all listed in the site's own ``pyodide-lock.json`` and preloaded when the kernel
  starts (``loadPyodideOptions.packages``); ``%pip install ra-core`` also finds ``ra_core`` in the
  site's package index, ``pypi/``.

The notebooks' plots need nothing more: ``ra_core.pictures.plots`` draws with matplotlib where it
can be imported, and otherwise with its own standard-library SVG charts (`ra_core.pictures.charts`),
so in this site, where the kernel has no matplotlib loaded, every plot of the notebooks draws with
no network at all. What only Pyodide's own distribution holds (numpy, matplotlib and every other
package built for WebAssembly: neither npm nor PyPI carries them), for a student's own
``import matplotlib``, comes from a folder of that distribution, when the build is given one
(``RA_PYODIDE_PACKAGES``, or ``.cache/lite/pyodide-packages-VERSION/``: the ``pyodide/`` folder of
the release ``pyodide-VERSION.tar.bz2``): matplotlib, `PLOTS`, and everything it depends on in the
lock are copied into the site, each checked against the lock's sha256, so that it too needs no
network. Without that folder they stay in the lock file with their CDN address, and load lazily,
the first time a cell imports them, where the internet is (the build says so). Neither the play
widget nor the notebooks' plots need any of it.

The build itself downloads, once, into ``.cache/lite/``: the npm package (with npm) and the wheels
(with pip, from PyPI). To preload one more pure-Python package, add its name to ``PRELOAD``:
its dependencies are found from its metadata and bundled too.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from email.parser import Parser
from importlib import metadata
from pathlib import Path

from build_wheel import build_wheel  # tools/, beside this script
from jupyter_core.paths import jupyter_path
from jupyterlite_pyodide_kernel import constants as kernel  # type: ignore[import-untyped]
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version
from student_bundle import contents_list, student_files

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "lite"
CACHE = ROOT / ".cache" / "lite"

# What the kernel's worker loads before its first cell (jupyterlite-pyodide-kernel's worker:
# micropip, then the piplite wheel, then ipykernel, comm, pyodide-kernel, jedi and ipython; each
# one listed in loadPyodideOptions.packages is loaded by Pyodide instead, from the site's lock).
KERNEL = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")
# What the notebooks need preinstalled: ra_core and the Python side of its widgets.
PRELOAD = (*KERNEL, "ra-core", "ipywidgets", "anywidget")
# The core files of the npm package `pyodide` that a browser loads (no lock: the site writes its own).
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
PURE = "-none-any.whl"
#: The WebAssembly packages bundled, with their dependencies, when a folder of Pyodide's
#: distribution is given: matplotlib, for a student's own plots (the notebooks' plots draw without
#: it; see the module docstring).
PLOTS = ("matplotlib",)
#: Where the build looks for that folder when ``RA_PYODIDE_PACKAGES`` is not set.
PACKAGES = CACHE / f"pyodide-packages-{kernel.PYODIDE_VERSION}"
#: the JupyterLab extensions the site carries (all others installed here are left out): the kernel,
#: and the front ends of ipywidgets and anywidget (the game table)
STUDENT_EXTENSIONS = (kernel.PYODIDE_KERNEL_NPM_NAME, "@jupyter-widgets/jupyterlab-manager", "anywidget")
#: the landing page, opened when the site's address is
LANDING = "README.md"
# The site's own root page only sends the browser on to the app; this one sends it to the landing page.
ROOT_REDIRECT = "await import('./config-utils.js');"

SITE_README = """\
# Ra for game theory

Notebooks that teach game theory through Reiner Knizia's auction game Ra, and the exercise sheets
your teacher grades. Everything runs in this browser tab, Python included: nothing to install.
Open a notebook with a double click in the file browser on the left; run it from the top
(*Run → Run All Cells*), then change a seed or a number and run it again. The first run takes a
few seconds while Python starts in the tab.

{contents}
[`docs/rules.md`](docs/rules.md) holds the rules of Ra that the notebooks cite by number (R1, R2, ...).

## Your work lives in this browser

What you save here (Ctrl+S, or JupyterLab saves for you) is kept in **this browser's storage on
this computer**, not on a server. Another browser, another computer or a private window does not
have it, and **clearing the browser's data** for this site (history, cookies and site data) **loses
it**. Download what you want to keep: right-click a file in the file browser → *Download*.

## Handing in a sheet

Save the sheet, right-click it in the file browser (in `exercises/`) → *Download*, and hand in that
`.ipynb` file where your teacher asks (the course's learning platform, usually), **under its own
name**, e.g. `01_auctions_from_first_principles.ipynb`: the teacher's grading finds the sheet by its
file name. Each sheet checks every task as you go (✔, or what is wrong and a hint); your teacher's
grading runs the same checks and more, on cases you do not see.

## What needs the internet

{internet}
"""
#: What the landing page says needs the internet, with matplotlib and numpy on the CDN or in the site.
INTERNET = {
    False: "Nothing: the engine, the game table, the sheets and the notebooks' plots run from this site alone.\n"
    "Only a cell of your own that imports matplotlib (or numpy) loads it from the Pyodide CDN, the first time.",
    True: "Nothing: the engine, the game table, the sheets and the plots (matplotlib and numpy are in the site,\n"
    "for plots of your own) run from this site alone.",
}


@dataclass
class Wheel:
    """A wheel bundled into the site, with what Pyodide's lock file says about it."""

    name: str  # canonical
    version: str
    path: Path
    depends: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)


def _run(command: list[str], **kwargs: object) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def pyodide_core(version: str = kernel.PYODIDE_VERSION) -> Path:
    """Return the folder of the npm package ``pyodide@version``, installed into the cache once."""
    prefix = CACHE / f"pyodide-{version}"
    folder = prefix / "node_modules" / "pyodide"
    if not all((folder / f).is_file() for f in (*CORE_FILES, "pyodide-lock.json", "package.json")):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit(f"npm is needed once, to fetch pyodide@{version}: apt-get install -y nodejs npm")
        _run(
            [
                npm,
                "install",
                "--prefix",
                str(prefix),
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                f"pyodide@{version}",
            ]
        )
    installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    if installed != version:
        raise SystemExit(f"{folder} holds pyodide {installed}, not {version}")
    return folder


def _markers(lock: dict[str, object]) -> dict[str, str]:
    """The PEP 508 marker environment of Pyodide's Python (from the lock file's info)."""
    info = lock["info"]
    assert isinstance(info, dict)
    python = str(info["python"])
    return {
        "python_version": ".".join(python.split(".")[:2]),
        "python_full_version": python,
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": "wasm32",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def _read_wheel(path: Path, markers: dict[str, str]) -> tuple[list[Requirement], list[str]]:
    """Return a wheel's requirements (for Pyodide's Python) and its top-level import names."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
        meta = Parser().parsestr(z.read(f"{info}/METADATA").decode())
        if f"{info}/top_level.txt" in names:
            imports = z.read(f"{info}/top_level.txt").decode().split()
        else:  # a package is a top-level folder, a module a top-level .py file
            tops = {
                n.split("/")[0] if "/" in n else n.removesuffix(".py") for n in names if "/" in n or n.endswith(".py")
            }
            imports = [t for t in tops if not t.endswith((".dist-info", ".data"))]
    requirements = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    needed = [r for r in requirements if r.marker is None or r.marker.evaluate(markers)]
    return needed, sorted(i for i in imports if i.isidentifier())


def _download(requirement: str, into: Path, python: str) -> Path:
    """Fetch one pure-Python wheel from PyPI (with pip) unless the cache has it; return its path."""
    req = Requirement(requirement)
    pinned = [s.version for s in req.specifier if s.operator == "=="]
    if pinned:
        for path in into.glob("*.whl"):
            name, version, _, _ = parse_wheel_filename(path.name)
            if name == canonicalize_name(req.name) and version == Version(pinned[0]):
                return path
    into.mkdir(parents=True, exist_ok=True)
    pure = [
        "--only-binary=:all:",
        "--python-version",
        python,
        "--implementation",
        "py",
        "--abi",
        "none",
        "--platform",
        "any",
    ]
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *pure, "-d", str(into), requirement])
    candidates = [
        p
        for p in into.glob("*.whl")
        if parse_wheel_filename(p.name)[0] == canonicalize_name(req.name)
        and req.specifier.contains(parse_wheel_filename(p.name)[1], prereleases=True)
    ]  # the newest that fits: what pip just fetched, or had fetched before
    if not candidates:
        raise SystemExit(f"pip found no pure-Python wheel for {requirement}")
    return max(candidates, key=lambda p: parse_wheel_filename(p.name)[1])


def resolve(
    wanted: tuple[str, ...], lock: dict[str, dict[str, object]], markers: dict[str, str], local: list[Path]
) -> dict[str, Wheel]:
    """Find a pure-Python wheel for each wanted package and, recursively, for what it needs.

    In this order: a local wheel (``ra_core``, the kernel's own wheels) whose version fits; else
    the version Pyodide's lock names, fetched from PyPI (its dependencies as the lock says); else
    the version installed here (so the widget front end in the site matches), or the newest that
    fits, from PyPI. A package that Pyodide has only as a WebAssembly build cannot be bundled.
    """
    by_name = {str(canonicalize_name(str(p["name"]))): p for p in lock.values()}
    found: dict[str, Wheel] = {}
    todo = [Requirement(name) for name in wanted]
    while todo:
        req = todo.pop(0)
        name = canonicalize_name(req.name)
        if name in found:
            if not req.specifier.contains(found[name].version, prereleases=True):
                raise SystemExit(f"{req} is needed but {name} {found[name].version} was chosen")
            continue
        wheel = _choose(req, name, by_name, local, markers)
        found[name] = wheel
        todo += [Requirement(d) for d in wheel.depends]
    return found


def _choose(
    req: Requirement, name: str, by_name: dict[str, dict[str, object]], local: list[Path], markers: dict[str, str]
) -> Wheel:
    mine = [p for p in local if parse_wheel_filename(p.name)[0] == name]
    fits = [p for p in mine if req.specifier.contains(parse_wheel_filename(p.name)[1], prereleases=True)]
    if fits:
        path = max(fits, key=lambda p: parse_wheel_filename(p.name)[1])
        needs, imports = _read_wheel(path, markers)
        return Wheel(name, str(parse_wheel_filename(path.name)[1]), path, [str(r) for r in needs], imports)
    if name in by_name:
        entry = by_name[name]
        if not str(entry["file_name"]).endswith(PURE):
            raise SystemExit(f"{name} is needed at start-up, but Pyodide has it only as {entry['file_name']}")
        version = str(entry["version"])
        if not req.specifier.contains(version, prereleases=True):
            raise SystemExit(f"{req} is needed but Pyodide's lock has {name} {version}")
        path = _download(f"{name}=={version}", CACHE / "wheels", markers["python_version"])
        depends = [str(d) for d in entry["depends"]]  # type: ignore[attr-defined]
        return Wheel(name, version, path, depends, [str(i) for i in entry["imports"]])  # type: ignore[attr-defined]
    try:
        here = metadata.version(name)
    except metadata.PackageNotFoundError:
        here = None
    spec = f"{name}=={here}" if here and req.specifier.contains(here, prereleases=True) else f"{name}{req.specifier}"
    path = _download(spec, CACHE / "wheels", markers["python_version"])
    needs, imports = _read_wheel(path, markers)
    return Wheel(name, str(parse_wheel_filename(path.name)[1]), path, [str(r) for r in needs], imports)


def closure(packages: dict[str, dict[str, object]], names: tuple[str, ...]) -> list[str]:
    """Return `names` and every package they depend on in Pyodide's lock (its ``depends``), sorted."""
    found: set[str] = set()
    todo = [canonicalize_name(n) for n in names]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        if name not in packages:
            raise SystemExit(f"{name} is not in Pyodide's lock file")
        found.add(name)
        todo += [canonicalize_name(str(d)) for d in packages[name].get("depends", [])]  # type: ignore[attr-defined]
    return sorted(found)


def bundle_packages(
    into: Path, packages: dict[str, dict[str, object]], folder: Path, names: tuple[str, ...]
) -> list[str]:
    """Copy the files of `names` and their dependencies from `folder` (Pyodide's distribution) into `into`.

    Each file is checked against the lock's sha256: a file that differs stops the build. The
    lock's entries keep their file names, which the site then serves itself. Return the names.
    """
    bundled = closure(packages, names)
    for name in bundled:
        entry = packages[name]
        source = folder / str(entry["file_name"])
        if not source.is_file():
            raise SystemExit(f"{source} is missing: {folder} is not Pyodide {kernel.PYODIDE_VERSION}'s distribution")
        if hashlib.sha256(source.read_bytes()).hexdigest() != entry["sha256"]:
            raise SystemExit(f"{source} is not the file Pyodide's lock names (its sha256 differs)")
        shutil.copy(source, into / source.name)
    return bundled


def packages_folder() -> Path | None:
    """Return the folder of Pyodide's distribution to bundle the plots' packages from, or None."""
    given = os.environ.get("RA_PYODIDE_PACKAGES")
    if given:
        if not Path(given).is_dir():
            raise SystemExit(f"RA_PYODIDE_PACKAGES={given} is no folder")
        return Path(given)
    return PACKAGES if PACKAGES.is_dir() else None


def write_pyodide(into: Path, core: Path, wheels: dict[str, Wheel], packages: Path | None = None) -> list[str]:
    """Copy Pyodide's core files and the wheels into `into`, with a lock file naming them; return what is bundled.

    With `packages` (a folder of Pyodide's distribution), the plots' packages (`PLOTS`) and their
    dependencies are copied in too (`bundle_packages`). Every other package of Pyodide's lock keeps
    its place on the Pyodide CDN (an absolute address), so it still loads, lazily, where the
    internet is.
    """
    into.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy(core / name, into / name)
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    local = bundle_packages(into, lock["packages"], packages, PLOTS) if packages is not None else []
    for name, entry in lock["packages"].items():
        if name not in local:
            entry["file_name"] = f"{kernel.PYODIDE_CDN_URL}/{entry['file_name']}"
    for wheel in wheels.values():
        shutil.copy(wheel.path, into / wheel.path.name)
        old = lock["packages"].get(wheel.name, {})
        lock["packages"][wheel.name] = {
            **old,
            "name": old.get("name", wheel.name),
            "version": wheel.version,
            "file_name": wheel.path.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.path.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": old.get("imports", wheel.imports),
            "depends": sorted({canonicalize_name(Requirement(d).name) for d in wheel.depends}),
            "unvendored_tests": False,
        }
    (into / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
    return [*sorted(wheels), *local]


def kernel_wheels() -> list[Path]:
    """The kernel's own wheels (pyodide-kernel, piplite, the ipykernel and widgetsnbextension shims)."""
    for base in jupyter_path("labextensions"):
        folder = Path(base) / kernel.PYODIDE_KERNEL_NPM_NAME / "static" / kernel.PYPI_WHEELS
        if folder.is_dir():
            return sorted(folder.glob("*.whl"))
    raise SystemExit(f"no {kernel.PYODIDE_KERNEL_NPM_NAME} labextension found: pip install jupyterlite-pyodide-kernel")


def trusted_copy(notebook: Path, into: Path) -> Path:
    """Write a copy of `notebook` into `into` whose code cells are marked trusted; return its path.

    JupyterLab sanitizes the saved outputs of untrusted cells, which drops the boards' inline SVG
    (they show as bare text until the cell is run again). A Jupyter server marks the cells of a
    signed notebook trusted as it serves them (``metadata.trusted``, which `make lab` arranges
    with ``jupyter trust``); a static site has no server, so its copies carry the mark themselves.
    """
    into.mkdir(parents=True, exist_ok=True)
    data = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell.setdefault("metadata", {})["trusted"] = True
    copy = into / notebook.name
    copy.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return copy


def student_extensions() -> list[Path]:
    """Return the folders of the installed JupyterLab extensions in `STUDENT_EXTENSIONS`."""
    found = {}
    for base in jupyter_path("labextensions"):
        for name in STUDENT_EXTENSIONS:
            folder = Path(base) / name
            if name not in found and (folder / "package.json").is_file():
                found[name] = folder
    missing = [name for name in STUDENT_EXTENSIONS if name not in found]
    if missing:
        raise SystemExit(f"JupyterLab extensions not installed: {', '.join(missing)} (make setup installs them)")
    return [found[name] for name in STUDENT_EXTENSIONS]


def write_contents(into: Path, plots: bool = False) -> dict[Path, Path]:
    """Write the site's files into `into`: the student bundle's files and the landing page; return the former.

    The notebooks are marked trusted (`trusted_copy`). With `plots`, the landing page says that
    matplotlib and numpy, for a student's own plots, are in the site too.
    """
    files = student_files()
    for place, source in files.items():
        if source.suffix == ".ipynb":
            trusted_copy(source, into / place.parent)
        else:
            (into / place).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, into / place)
    landing = into / LANDING
    landing.write_text(SITE_README.format(contents=contents_list(files), internet=INTERNET[plots]), encoding="utf-8")
    return files


def open_on_landing_page(out: Path) -> None:
    """Make the site's root page open the landing page, and give the root the app's icon.

    The root ``index.html`` of a JupyterLite site holds the site's configuration (which every page
    reads) and a script that sends the browser on to the app; only that script is replaced. The
    browser asks every site for ``/favicon.ico``: the app's own icon answers, instead of a 404
    in the console.
    """
    index = out / "index.html"
    page = index.read_text(encoding="utf-8")
    if page.count(ROOT_REDIRECT) != 1:
        raise SystemExit(f"{index}: the root page of this JupyterLite version is not the one expected")
    target = f"lab/index.html?path={LANDING}"
    index.write_text(page.replace(ROOT_REDIRECT, f"window.location.replace({target!r});"), encoding="utf-8")
    shutil.copy(out / "lab" / "favicon.ico", out / "favicon.ico")


def main(out: Path = OUT) -> None:
    """Build the wheel and the site into `out`."""
    work = out.parent / f"{out.name}-src"
    shutil.rmtree(work, ignore_errors=True)
    (work / "pypi").mkdir(parents=True)
    ra_wheel = build_wheel(work / "pypi")

    core = pyodide_core()
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    wheels = resolve(PRELOAD, lock["packages"], _markers(lock), [ra_wheel, *kernel_wheels()])
    plots = packages_folder()
    write_pyodide(work / "static" / kernel.PYODIDE, core, wheels, plots)
    if plots is None:
        print(
            f"note: matplotlib and numpy stay on the Pyodide CDN (the notebooks' plots draw without them; a "
            f"student's own import of matplotlib needs the internet); to bundle them, put "
            f"the pyodide/ folder of pyodide-{kernel.PYODIDE_VERSION}.tar.bz2 in {PACKAGES} or set RA_PYODIDE_PACKAGES"
        )

    settings = {
        kernel.PYODIDE_URL: f"./static/{kernel.PYODIDE}/{kernel.PYODIDE_MJS}",
        kernel.LOAD_PYODIDE_OPTIONS: {kernel.OPTION_PACKAGES: list(PRELOAD)},  # their dependencies: from the lock
    }
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Ra for game theory",
            "litePluginSettings": {kernel.PYODIDE_KERNEL_PLUGIN_ID: settings},
        },
    }
    (work / "jupyter-lite.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    files = write_contents(work / "contents", plots=plots is not None)
    build_config = {
        "LiteBuildConfig": {
            "ignore_sys_prefix": ["federated_extensions"],  # only the extensions named here
            "federated_extensions": [str(p) for p in student_extensions()],
        }
    }
    (work / "jupyter_lite_config.json").write_text(json.dumps(build_config, indent=1), encoding="utf-8")
    # A Markdown file opens rendered (the landing page among them), not in the text editor.
    overrides = {"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}}}
    (work / "overrides.json").write_text(json.dumps(overrides, indent=1), encoding="utf-8")
    command = [sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(work), "--output-dir", str(out)]
    command += ["--contents", str(work / "contents"), "--no-sourcemaps"]  # source maps: half the site, for debugging
    shutil.rmtree(out, ignore_errors=True)
    _run(command, cwd=work)
    open_on_landing_page(out)
    listed = ", ".join(f"{w.name} {w.version}" for w in sorted(wheels.values(), key=lambda w: w.name))
    notebooks = sum(1 for place in files if place.suffix == ".ipynb")
    print(f"built {out}: {notebooks} notebooks, Pyodide {kernel.PYODIDE_VERSION}, preloaded: {listed}")
    print(f"serve it with: python -m http.server -d {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else OUT)
