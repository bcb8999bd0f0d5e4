// Run one Python script in Pyodide under Node, with local packages copied in (tests/test_pyodide.py).
//
//   node tests/pyodide_runner.mjs PYODIDE_DIR SCRIPT_PY PACKAGE_DIR...
//
// PYODIDE_DIR holds Pyodide's core files (the npm package `pyodide`); each PACKAGE_DIR is a Python
// package (e.g. ra_core) whose .py files are copied into Pyodide's in-memory file system and put
// on sys.path. Only Pyodide's core is loaded: no micropip, no other package. The value of the
// script's last expression (a string) is written to stdout; Python's own output goes to stderr.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, scriptPath, ...packageDirs] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: pyodideDir + "/",
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
});

// Copy the package tree (.py files only, no __pycache__) into a folder of the virtual file system.
const SRC = "/home/pyodide/src";
function copyTree(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const path = join(from, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") {
      copyTree(path, `${to}/${entry.name}`);
    } else if (entry.isFile() && entry.name.endsWith(".py")) {
      pyodide.FS.writeFile(`${to}/${entry.name}`, readFileSync(path));
    }
  }
}
for (const dir of packageDirs) copyTree(dir, `${SRC}/${basename(dir)}`);

pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(SRC)})`);
const result = pyodide.runPython(readFileSync(scriptPath, "utf8"));
process.stdout.write(String(result));
